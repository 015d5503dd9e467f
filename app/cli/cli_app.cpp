#include "cli_app.h"

#include "cli_commands.h"
#include "cli_errors.h"
#include "cli_flags.h"
#include "cli_home.h"
#include "early_signals.h"
#include "platform/errors.h"
#include "registry/home.h"

#include <c10/util/Exception.h>
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <limits>

// The project's version (CMake's PROJECT_VERSION, app/CMakeLists.txt); a build
// outside CMake (tests/fuzz/build-and-run.sh) has none to give.
#ifndef SAVEPOINT_VERSION
#define SAVEPOINT_VERSION "unknown"
#endif

namespace savepoint {
namespace {

// The subcommands, as parsed; the flags' values go to CliFlags.
struct Subcommands {
    CLI::App* train = nullptr;
    CLI::App* resume = nullptr;
    CLI::App* runs = nullptr;
    CLI::App* checkpoints = nullptr;
    CLI::App* telemetry = nullptr;
    CLI::App* verify = nullptr;
    CLI::App* pin = nullptr;
    CLI::App* unpin = nullptr;
    CLI::App* compare = nullptr;
    CLI::App* export_ = nullptr;
    CLI::App* pull = nullptr;
    std::vector<CLI::Option*> home_opts;  // --home of every subcommand
};

// Every subcommand and flag, bound to `f`.
Subcommands add_subcommands(CLI::App& app, CliFlags& f) {
    Subcommands s;
    auto add_home = [&](CLI::App* c) {
        s.home_opts.push_back(c->add_option("--home", f.home,
                                            "Directory holding the registry and checkpoints (default: $SAVEPOINT_HOME, "
                                            "else $XDG_DATA_HOME/savepoint)"));
    };
    auto add_disk = [&](CLI::App* c) {
        // Explicit ranges: CLI11's NonNegativeNumber prints DBL_MAX in full as the upper bound.
        c->add_option("--disk-retries", f.disk_retries,
                      "When a checkpoint cannot be written: retries before giving up (exit 1)")
            ->check(integer_in(0, 1000000))
            ->capture_default_str();
        c->add_option("--disk-retry-seconds", f.disk_retry_seconds, "Seconds between those retries")
            ->check(number_in(0.0, 86400.0))
            ->capture_default_str();
    };

    s.train = app.add_subcommand("train", "Start a new training run");
    s.train->add_option("--run", f.run_name, "Run name ([A-Za-z0-9._-], 1-64 chars)")->required();
    add_home(s.train);
    s.train
        ->add_option("--data", f.data,
                     "fashion-mnist | synthetic | DIR with the four MNIST files | FILE.pt (torch.save of a dict: "
                     "train_x, train_y, test_x, test_y)")
        ->capture_default_str();
    s.train
        ->add_option("--model", f.model, "mlp | dnn | cnn | FILE.pt (a TorchScript module: torch.jit.script(m).save)")
        ->capture_default_str();
    s.train->add_option("--loss", f.loss, "ce (class labels) | mse (float targets; TorchScript models)")
        ->capture_default_str();
    s.train->add_flag("--dry-run", f.dry_run,
                      "Load the model and data, run one batch forward, print what was found; create nothing");
    s.train->add_option("--epochs", f.epochs, "Epochs")->capture_default_str()->check(integer_in(1, 1000000));
    f.spe_opt = s.train->add_option("--steps-per-epoch", f.spe, "Steps per epoch (default: one full pass)")
                    ->check(integer_in(1, 1000000000));
    s.train->add_option("--batch", f.batch, "Batch size")->capture_default_str()->check(integer_in(1, 65536));
    s.train->add_option("--lr", f.lr, "Learning rate")->capture_default_str()->check(a_number());
    s.train->add_option("--optimizer", f.optimizer, "adam | sgd")->capture_default_str();
    s.train->add_option("--seed", f.seed, "Seed for initial weights, dropout and data order")
        ->capture_default_str()
        ->check(integer_in(0, std::numeric_limits<std::uint64_t>::max()));
    s.train->add_option("--save-freq", f.save_freq, "epoch | N (every N steps, counted across epochs)")
        ->capture_default_str();
    s.train->add_option("--keep", f.keep, "Keep the newest K checkpoints (plus best, head, pinned)")
        ->capture_default_str()
        ->check(integer_in(1, 100000));
    s.train->add_option("--device", f.device, "auto | cpu | cuda")->capture_default_str();
    s.train->add_option("--threads", f.threads, "CPU threads (default: LibTorch's choice)")->check(integer_in(1, 1024));
    s.train
        ->add_option(
            "--async-policy", f.async_policy,
            "wait | skip | defer: when a save is due while one is still writing (defer: take it once that one commits)")
        ->capture_default_str();
    f.step_opts.push_back(
        s.train->add_option("--interrupt-at-step", f.interrupt_at, "Simulate a crash after this global step (exit 3)"));
    f.step_opts.push_back(s.train->add_option("--preempt-at-step", f.preempt_at,
                                              "Simulate a preemption notice after this global step (exit 3)"));
    add_disk(s.train);

    auto add_remote = [&](CLI::App* c) {
        c->add_option("--remote", f.remote,
                      "s3://BUCKET/PREFIX: upload each committed checkpoint there in the background (credentials and "
                      "endpoint: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL, AWS_PROFILE)");
        c->add_option("--remote-grace-seconds", f.remote_grace_seconds,
                      "After training stops (a preemption notice too): seconds left to finish the uploads")
            ->check(number_in(0.0, 86400.0))
            ->capture_default_str();
    };
    add_remote(s.train);

    s.resume = app.add_subcommand("resume", "Continue a run from its latest usable checkpoint, or roll back");
    s.resume->add_option("--run", f.run_name, "Run name")->required();
    add_home(s.resume);
    f.ck_opt =
        s.resume
            ->add_option("--checkpoint", f.checkpoint_id,
                         "Resume from this checkpoint id (a rollback if it is not the head)")
            ->check(integer_in(1, std::numeric_limits<std::int64_t>::max(), "a checkpoint id (a positive integer)"));
    f.ep_opt =
        s.resume
            ->add_option("--epoch", f.resume_epoch,
                         "With --step: resume after this epoch and step, replaying from the checkpoint before it")
            ->check(integer_in(1, std::numeric_limits<std::int64_t>::max()));
    f.st_opt =
        s.resume
            ->add_option("--step", f.resume_step, "With --epoch: last completed step (1-based; 0 = start of the epoch)")
            ->check(integer_in(0, std::numeric_limits<std::int64_t>::max()));
    s.resume->add_option(
        "--data", f.resume_data,
        "Where the run's dataset directory is now, if it moved (checked against what the run was trained on)");
    s.resume->add_option("--model", f.resume_model,
                         "Where the run's TorchScript model file is now, if it moved (checked by its SHA-256)");
    f.lr_opt = s.resume
                   ->add_option("--lr", f.resume_lr,
                                "With --checkpoint or --epoch: a new learning rate for the new branch (after a "
                                "divergence)")
                   ->check(a_number());
    f.ck_opt->excludes(f.ep_opt)->excludes(f.st_opt);
    f.ep_opt->needs(f.st_opt);
    f.st_opt->needs(f.ep_opt);
    f.step_opts.push_back(s.resume->add_option("--interrupt-at-step", f.interrupt_at,
                                               "Simulate a crash after this global step (exit 3)"));
    f.step_opts.push_back(s.resume->add_option("--preempt-at-step", f.preempt_at,
                                               "Simulate a preemption notice after this global step (exit 3)"));
    add_disk(s.resume);
    add_remote(s.resume);

    s.runs = app.add_subcommand("runs", "List runs");
    add_home(s.runs);
    s.runs->add_flag("--json", f.json, "Print JSON");

    s.checkpoints = app.add_subcommand("checkpoints", "List a run's checkpoints");
    s.checkpoints->add_option("--run", f.run_name, "Run name")->required();
    add_home(s.checkpoints);
    s.checkpoints->add_flag("--json", f.json, "Print JSON");

    s.telemetry = app.add_subcommand(
        "telemetry", "A run's telemetry while training: CPU, memory, bytes written, free disk, the GPU's figures");
    s.telemetry->add_option("--run", f.run_name, "Run name")->required();
    add_home(s.telemetry);
    s.telemetry->add_option("--session", f.session_id, "Only this session (its id: savepoint-cli runs --json)")
        ->check(integer_in(1, std::numeric_limits<std::int64_t>::max(), "a session id (a positive integer)"));
    s.telemetry->add_flag("--json", f.json, "Print JSON, one object a sample");

    s.verify = app.add_subcommand("verify",
                                  "Verify checkpoint files (size, footer, SHA-256, header); exit 1 if any is damaged");
    add_home(s.verify);
    s.verify->add_option("--run", f.run_name, "Only this run");

    s.pin = app.add_subcommand("pin", "Pin a checkpoint so retention never deletes it");
    s.unpin = app.add_subcommand("unpin", "Unpin a checkpoint");
    for (auto* c : {s.pin, s.unpin}) {
        c->add_option("--run", f.run_name, "Run name")->required();
        c->add_option("--checkpoint", f.checkpoint_id, "Checkpoint id")
            ->required()
            ->check(integer_in(1, std::numeric_limits<std::int64_t>::max(), "a checkpoint id (a positive integer)"));
        add_home(c);
    }

    s.compare = app.add_subcommand("compare", "Compare runs: the settings that differ, final and best validation");
    s.compare->add_option("--run", f.runs, "A run to compare (give two or more)")->required();
    add_home(s.compare);
    s.compare->add_flag("--json", f.json, "Print JSON");

    s.export_ = app.add_subcommand("export", "Write a checkpoint's weights to a file PyTorch loads");
    s.export_->add_option("--run", f.run_name, "Run name")->required();
    s.export_->add_option("--checkpoint", f.checkpoint_id, "Checkpoint id (see: savepoint-cli checkpoints --run NAME)")
        ->required()
        ->check(integer_in(1, std::numeric_limits<std::int64_t>::max(), "a checkpoint id (a positive integer)"));
    s.export_->add_option("--out", f.out_file, "The file to write (FILE.pt)")->required();
    add_home(s.export_);

    s.pull = app.add_subcommand("pull", "Bring runs back from S3-compatible storage (train --remote) into the home");
    s.pull->add_option("--remote", f.remote, "s3://BUCKET/PREFIX, as given to train --remote")->required();
    s.pull->add_option("--run", f.run_name, "Only this run (default: every run there)");
    add_home(s.pull);
    return s;
}

// The subcommand that was parsed, run in the checked home.
int dispatch(const Subcommands& s, const CliFlags& f, const std::string& resolved_home, std::ostream& out,
             std::ostream& err, bool install_signals) {
    if (s.train->parsed()) return train_command(f, resolved_home, out, err, install_signals);
    if (s.resume->parsed()) return resume_command(f, resolved_home, out, err, install_signals);
    if (s.runs->parsed()) return runs_command(resolved_home, f.json, out, err);
    if (s.checkpoints->parsed()) return checkpoints_command(resolved_home, f.run_name, f.json, out, err);
    if (s.telemetry->parsed()) return telemetry_command(resolved_home, f.run_name, f.session_id, f.json, out, err);
    if (s.verify->parsed()) return verify_command(resolved_home, f.run_name, out, err);
    if (s.pin->parsed() || s.unpin->parsed())
        return pin_command(resolved_home, f.run_name, f.checkpoint_id, s.pin->parsed(), out, err);
    if (s.compare->parsed()) return compare_command(resolved_home, f.runs, f.json, out, err);
    if (s.pull->parsed()) return pull_command(f, resolved_home, out, err);
    if (s.export_->parsed()) return export_command(resolved_home, f.run_name, f.checkpoint_id, f.out_file, out, err);
    return 1;
}

}  // namespace

int run_cli(const std::vector<std::string>& args_in, std::ostream& out, std::ostream& err, bool install_signals) {
    CLI::App app{"savepoint-cli: train, checkpoint, interrupt, roll back and resume neural-network training"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "savepoint-cli " SAVEPOINT_VERSION);
    CliFlags f;
    const Subcommands s = add_subcommands(app, f);

    // CLI11 would only say "A subcommand is required"; name the word it did not know.
    const auto known = [&](const std::string& word) {
        return !app.get_subcommands([&](const CLI::App* c) { return c->check_name(word); }).empty();
    };
    if (args_in.size() > 1 && !args_in[1].empty() && args_in[1][0] != '-' && !known(args_in[1])) {
        err << "error: unknown subcommand '" << args_in[1]
            << "' (expected train, resume, runs, checkpoints, telemetry, verify, pin, unpin, compare, export or "
               "pull)\nrun 'savepoint-cli --help' for usage\n";
        return 2;
    }
    std::vector<std::string> args(args_in.rbegin(), args_in.rend());
    if (!args.empty()) args.pop_back();  // program name
    try {
        app.parse(args);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return 0;
    } catch (const CLI::CallForAllHelp&) {
        out << app.help("", CLI::AppFormatMode::All);
        return 0;
    } catch (const CLI::CallForVersion&) {
        out << "savepoint-cli " SAVEPOINT_VERSION "\n";
        return 0;
    } catch (const CLI::ExtrasError&) {
        // CLI11 lists them back to front ("5 --lr"); said in the order typed, and
        // for resume, why a training setting is not one of its flags.
        std::string extras;
        const CLI::App* sub = nullptr;
        for (const auto* c : app.get_subcommands())
            if (c->parsed()) sub = c;
        for (const auto& a : sub ? sub->remaining() : app.remaining()) extras += (extras.empty() ? "" : " ") + a;
        err << "error: " << (sub ? sub->get_name() : std::string("savepoint-cli")) << " does not take: " << extras;
        if (sub == s.resume)
            err << " (a resume continues with the settings the run was created with; see: savepoint-cli resume --help)";
        err << "\nrun 'savepoint-cli " << (sub ? sub->get_name() + " " : std::string()) << "--help' for usage\n";
        return 2;
    } catch (const CLI::ParseError& e) {
        err << "error: " << e.what() << "\nrun 'savepoint-cli --help' for usage\n";
        return 2;
    }
    // Only training turns SIGTERM into a preemption notice; every other command
    // ends as the signal's default action has it (early_signals.h).
    if (install_signals && !(s.train->parsed() || s.resume->parsed())) release_early_signals();

    try {
        // An empty --home (often an unset variable, --home "$DIR") is not the default home.
        for (const auto* o : s.home_opts)
            if (o->count() && f.home.empty())
                throw InputError("home", "a directory", "''",
                                 "(leave --home out to use $SAVEPOINT_HOME or the default)");
        const std::string resolved_home = resolve_home(f.home);
        const char* env_home = std::getenv("SAVEPOINT_HOME");
        check_home(resolved_home, !f.home.empty()         ? "--home"
                                  : env_home && *env_home ? "SAVEPOINT_HOME"
                                                          : "the default home");
        return dispatch(s, f, resolved_home, out, err, install_signals);
    } catch (const InputError& e) {
        err << "error: " << cli_error_text(e) << "\n";
        return 2;
    } catch (const RunBusy& e) {
        err << "error: " << e.what() << "\n";
        return 1;
    } catch (const StorageError& e) {
        err << "error: " << e.what() << "\n";
        return 1;
    } catch (const c10::Error& e) {
        err << "error: LibTorch: " << e.what_without_backtrace() << "\n";
        return 1;
    } catch (const std::exception& e) {
        err << "error: " << e.what() << "\n";
        return 1;
    }
    return 1;
}

int run_cli(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    const int code = run_cli(args, std::cout, std::cerr, true);
    // A signal still noted (one that came during --help, a usage error, or after
    // training handed the signals back) ends the process as it would have.
    std::cout.flush();
    release_early_signals();
    return code;
}

}  // namespace savepoint
