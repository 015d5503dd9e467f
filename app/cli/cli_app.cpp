#include "cli_app.h"

#include "formats/checkpoint_format.h"
#include "cli_errors.h"
#include "cli_flags.h"
#include "cli_home.h"
#include "cli_output.h"
#include "data/data_order.h"
#include "storage/durable_io.h"
#include "early_signals.h"
#include "platform/errors.h"
#include "registry/home.h"
#include "checkpoint/recovery.h"
#include "registry/checkpoint_actions.h"
#include "registry/registry.h"
#include "registry/run_lock.h"
#include "platform/signal_disposition.h"
#include "training/trainer.h"

#include <CLI/CLI.hpp>
#include <c10/util/Exception.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <iostream>
#include <mutex>
#include <sstream>

namespace savepoint {
namespace {

// Prints progress lines and saves. Checkpoint notices come from the I/O thread.
class CliObserver : public TrainerObserver {
public:
    CliObserver(std::ostream& out, std::ostream& err, std::int64_t retries = 0, double retry_seconds = 0)
        : out_(out), err_(err), tty_(::isatty(STDOUT_FILENO) && &out == &std::cout), retries_(retries),
          retry_seconds_(retry_seconds) {}

    void on_message(const std::string& text) override { line(text); }

    void on_progress(const Progress& p) override {
        const double t = now_seconds();
        if (!p.ended() && t - last_print_ < (tty_ ? 0.2 : 2.0)) return;
        last_print_ = t;
        char buf[256];
        std::snprintf(buf, sizeof buf, "epoch %lld/%lld  step %lld/%lld  global %lld/%lld  loss %.4f  acc %.4f  %.1f steps/s  ETA %s  [%s]",
                      static_cast<long long>(p.epoch), static_cast<long long>(p.epochs),
                      static_cast<long long>(p.step), static_cast<long long>(p.steps_per_epoch),
                      static_cast<long long>(p.global_step), static_cast<long long>(p.total_steps), p.loss,
                      p.accuracy, p.steps_per_second, format_duration(p.eta_seconds).c_str(), p.phase.c_str());
        std::lock_guard<std::mutex> l(mutex_);
        if (tty_) {
            out_ << "\r\033[K" << buf << std::flush;
            dirty_ = true;
        } else {
            out_ << buf << "\n" << std::flush;
        }
    }

    void on_metrics(const std::vector<MetricRow>& rows) override {
        for (const auto& m : rows)
            if (m.kind == MetricKind::Validation) {
                char buf[160];
                std::snprintf(buf, sizeof buf, "epoch %lld: validation loss %.4f, accuracy %.4f",
                              static_cast<long long>(m.epoch), m.loss, m.accuracy);
                line(buf);
            }
    }

    void on_checkpoint_saved(const CheckpointRow& c) override {
        ++committed;
        char buf[200];
        std::snprintf(buf, sizeof buf, "saved checkpoint #%lld at epoch %lld, step %lld (global step %lld), %lld bytes, %.1f ms",
                      static_cast<long long>(c.id), static_cast<long long>(c.epoch), static_cast<long long>(c.step),
                      static_cast<long long>(c.global_step), static_cast<long long>(c.bytes), c.write_ms);
        line(buf);
    }

    void on_event(const EventRow& e) override {
        if (e.kind == EventKind::SaveSkipped || e.kind == EventKind::SaveDeferred || e.kind == EventKind::PreemptionNotice ||
            e.kind == EventKind::Error)
            line(std::string(to_string(e.kind)) + ": " + e.message);
    }

    void on_storage_error(const std::string& message) override {
        std::lock_guard<std::mutex> l(mutex_);
        char retry[160];
        std::snprintf(retry, sizeof retry, "every %g s, at most %lld times (--disk-retry-seconds, --disk-retries), then gives up (exit 1)",
                      retry_seconds_, static_cast<long long>(retries_));
        err_ << (dirty_ ? "\n" : "") << "error: " << message << "\n"
             << "training is paused; it retries the checkpoint " << retry << "\n" << std::flush;
        dirty_ = false;
    }

    std::atomic<std::int64_t> committed{0};  // checkpoints this session committed (the I/O thread counts)

    void line(const std::string& text) {
        std::lock_guard<std::mutex> l(mutex_);
        if (dirty_) out_ << "\n";
        dirty_ = false;
        out_ << text << "\n" << std::flush;
    }

private:
    std::ostream& out_;
    std::ostream& err_;
    bool tty_;
    std::int64_t retries_;
    double retry_seconds_;
    bool dirty_ = false;
    double last_print_ = 0;
    std::mutex mutex_;
};

std::atomic<Trainer*> g_active_trainer{nullptr};

extern "C" void on_preempt_signal(int) {
    if (Trainer* t = g_active_trainer.load()) t->signal_preempt();
}

struct SignalScope {
    explicit SignalScope(Trainer* t, bool install) : install_(install) {
        if (!install_) return;
        g_active_trainer = t;
        handle_unless_ignored(SIGTERM, on_preempt_signal, 0, &old_term_);
        // A second Ctrl-C kills at once, as users expect.
        handle_unless_ignored(SIGINT, on_preempt_signal, SA_RESETHAND, &old_int_);
        // A signal that came while the process was starting (early_signals.h) is
        // a notice like any other. Taken after the handlers above are in place,
        // so that none falls between the two.
        early_ = take_early_signal();
        if (early_ == 0) return;
        t->signal_preempt();
        if (early_ == SIGINT) ::signal(SIGINT, SIG_DFL);  // that was the first Ctrl-C: the next kills
    }
    ~SignalScope() {
        if (!install_) return;
        sigaction(SIGTERM, &old_term_, nullptr);
        sigaction(SIGINT, &old_int_, nullptr);
        g_active_trainer = nullptr;
    }
    bool install_;
    int early_ = 0;  // SIGTERM or SIGINT noted before the scope began, or 0
    struct sigaction old_term_ {}, old_int_ {};
};

// What checkpointing cost the training thread this session, and, when the
// disk could not keep up with the save frequency, what to do about it.
void report_checkpoint_cost(CliObserver& observer, const TrainRequest& req, const TrainResult& r) {
    if (r.checkpoints_requested <= 0) return;
    const double stall_ms = 1000 * r.checkpoint_stall_seconds;
    char buf[400];
    // Captures that the disk then refused are taken, not saved: both counts, when they differ.
    const std::int64_t committed = observer.committed.load();
    const std::string counted = std::to_string(r.checkpoints_requested) + " taken" +
                                (committed < r.checkpoints_requested ? ", " + std::to_string(committed) + " committed" : "");
    int n = std::snprintf(buf, sizeof buf,
                          "checkpoints: %s; they held training up %.1f ms in all (%.2f ms each on average, "
                          "longest %.1f ms; %.1f %% of the training loop)",
                          counted.c_str(), stall_ms,
                          stall_ms / static_cast<double>(r.checkpoints_requested), r.max_checkpoint_stall_ms,
                          r.loop_seconds > 0 ? 100 * r.checkpoint_stall_seconds / r.loop_seconds : 0.0);
    if (r.saves_waited > 0 && n > 0 && n < static_cast<int>(sizeof buf))
        std::snprintf(buf + n, sizeof buf - static_cast<std::size_t>(n),
                      ", of which %.1f ms waiting for the previous save to be written (%lld time%s)", 1000 * r.save_wait_seconds,
                      static_cast<long long>(r.saves_waited), r.saves_waited == 1 ? "" : "s");
    observer.line(buf);
    // One wait in ten is a disk that is too slow for this frequency, not a hiccup.
    if (req.config.async_policy == "wait" && r.saves_waited >= 3 && r.saves_waited * 10 >= r.checkpoints_requested) {
        const std::int64_t freq = req.config.save_every_steps;
        const std::string every = freq == 1 ? "every step" : freq > 1 ? "every " + std::to_string(freq) + " steps" : "every epoch";
        observer.line("the disk did not keep up with a checkpoint " + every + ": " + std::to_string(r.saves_waited) + " of " +
                      std::to_string(r.checkpoints_requested) +
                      " waited for the one before. --async-policy defer never waits (it takes such a checkpoint a step "
                      "or two late), skip drops it; or save less often (--save-freq)");
    }
}

int run_training(TrainRequest req, std::ostream& out, std::ostream& err, bool signals) {
    CliObserver observer(out, err, req.storage_retries, req.storage_retry_seconds);
    Trainer trainer(req, &observer);
    SignalScope scope(&trainer, signals);
    if (scope.early_)
        observer.line(std::string(scope.early_ == SIGTERM ? "a preemption notice (SIGTERM)" : "Ctrl-C (SIGINT)") +
                      " came while savepoint-cli was starting: stopping at the first step boundary");
    TrainResult r = trainer.run();
    observer.line(std::string(outcome_name(r.outcome)) + ": " + r.message);
    observer.line("params_sha256 " + r.params_sha256);
    if (r.saves_skipped > 0 || r.saves_deferred > 0) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "while a save was still writing: %lld checkpoint(s) skipped, %lld deferred (%.1f steps late on average)",
                      static_cast<long long>(r.saves_skipped),
                      static_cast<long long>(r.saves_deferred),
                      r.saves_deferred ? double(r.steps_deferred) / double(r.saves_deferred) : 0.0);
        observer.line(buf);
    }
    report_checkpoint_cost(observer, req, r);
    if (r.outcome != Outcome::Finished && r.outcome != Outcome::NothingToDo && r.outcome != Outcome::Failed)
        observer.line("resume with: savepoint-cli resume --run " + req.run_name +
                      (req.home.empty() ? "" : " --home " + req.home));
    return exit_code(r.outcome);
}



}  // namespace

int run_cli(const std::vector<std::string>& args_in, std::ostream& out, std::ostream& err, bool install_signals) {
    CLI::App app{"savepoint-cli: train, checkpoint, interrupt, roll back and resume neural-network training"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "savepoint-cli 0.1.0");

    std::string home, run_name, data = "fashion-mnist", model = "mlp", optimizer = "adam", device = "auto",
                save_freq = "epoch", async_policy = "wait", resume_data;
    std::int64_t epochs = 10, spe = 0, batch = 32, keep = 5, threads = 0, interrupt_at = 0, preempt_at = 0;
    std::int64_t checkpoint_id = 0, resume_epoch = -1, resume_step = -1, disk_retries = 30;
    double lr = 1e-3, disk_retry_seconds = 10;
    std::uint64_t seed = 42;
    bool json = false;

    std::vector<CLI::Option*> home_opts;
    auto add_home = [&](CLI::App* c) {
        home_opts.push_back(c->add_option("--home", home, "Directory holding the registry and checkpoints (default: $SAVEPOINT_HOME, else $XDG_DATA_HOME/savepoint)"));
    };
    auto add_disk = [&](CLI::App* c) {
        // Explicit ranges: CLI11's NonNegativeNumber prints DBL_MAX in full as the upper bound.
        c->add_option("--disk-retries", disk_retries, "When a checkpoint cannot be written: retries before giving up (exit 1)")
            ->check(integer_in(0, 1000000))->capture_default_str();
        c->add_option("--disk-retry-seconds", disk_retry_seconds, "Seconds between those retries")
            ->check(number_in(0.0, 86400.0))->capture_default_str();
    };

    auto* train = app.add_subcommand("train", "Start a new training run");
    train->add_option("--run", run_name, "Run name ([A-Za-z0-9._-], 1-64 chars)")->required();
    add_home(train);
    train->add_option("--data", data, "fashion-mnist | synthetic | DIR with the four MNIST files")->capture_default_str();
    train->add_option("--model", model, "mlp | dnn | cnn")->capture_default_str();
    train->add_option("--epochs", epochs, "Epochs")->capture_default_str()->check(integer_in(1, 1000000));
    auto* spe_opt = train->add_option("--steps-per-epoch", spe, "Steps per epoch (default: one full pass)")->check(integer_in(1, 1000000000));
    train->add_option("--batch", batch, "Batch size")->capture_default_str()->check(integer_in(1, 65536));
    train->add_option("--lr", lr, "Learning rate")->capture_default_str()->check(a_number());
    train->add_option("--optimizer", optimizer, "adam | sgd")->capture_default_str();
    train->add_option("--seed", seed, "Seed for initial weights, dropout and data order")->capture_default_str()
        ->check(integer_in(0, std::numeric_limits<std::uint64_t>::max()));
    train->add_option("--save-freq", save_freq, "epoch | N (every N steps, counted across epochs)")->capture_default_str();
    train->add_option("--keep", keep, "Keep the newest K checkpoints (plus best, head, pinned)")->capture_default_str()->check(integer_in(1, 100000));
    train->add_option("--device", device, "auto | cpu | cuda")->capture_default_str();
    train->add_option("--threads", threads, "CPU threads (default: LibTorch's choice)")->check(integer_in(1, 1024));
    train->add_option("--async-policy", async_policy, "wait | skip | defer: when a save is due while one is still writing (defer: take it once that one commits)")->capture_default_str();
    std::vector<CLI::Option*> step_opts;  // --interrupt-at-step / --preempt-at-step of either subcommand
    step_opts.push_back(train->add_option("--interrupt-at-step", interrupt_at, "Simulate a crash after this global step (exit 3)"));
    step_opts.push_back(train->add_option("--preempt-at-step", preempt_at, "Simulate a preemption notice after this global step (exit 3)"));
    add_disk(train);

    auto* resume = app.add_subcommand("resume", "Continue a run from its latest usable checkpoint, or roll back");
    resume->add_option("--run", run_name, "Run name")->required();
    add_home(resume);
    auto* ck_opt = resume->add_option("--checkpoint", checkpoint_id, "Resume from this checkpoint id (a rollback if it is not the head)")
                       ->check(integer_in(1, std::numeric_limits<std::int64_t>::max(), "a checkpoint id (a positive integer)"));
    auto* ep_opt = resume->add_option("--epoch", resume_epoch, "With --step: resume after this epoch and step, replaying from the checkpoint before it")
                       ->check(integer_in(1, std::numeric_limits<std::int64_t>::max()));
    auto* st_opt = resume->add_option("--step", resume_step, "With --epoch: last completed step (1-based; 0 = start of the epoch)")
                       ->check(integer_in(0, std::numeric_limits<std::int64_t>::max()));
    resume->add_option("--data", resume_data,
                       "Where the run's dataset directory is now, if it moved (checked against what the run was trained on)");
    ck_opt->excludes(ep_opt)->excludes(st_opt);
    ep_opt->needs(st_opt);
    st_opt->needs(ep_opt);
    step_opts.push_back(resume->add_option("--interrupt-at-step", interrupt_at, "Simulate a crash after this global step (exit 3)"));
    step_opts.push_back(resume->add_option("--preempt-at-step", preempt_at, "Simulate a preemption notice after this global step (exit 3)"));
    add_disk(resume);

    auto* runs = app.add_subcommand("runs", "List runs");
    add_home(runs);
    runs->add_flag("--json", json, "Print JSON");

    auto* checkpoints = app.add_subcommand("checkpoints", "List a run's checkpoints");
    checkpoints->add_option("--run", run_name, "Run name")->required();
    add_home(checkpoints);
    checkpoints->add_flag("--json", json, "Print JSON");

    auto* verify = app.add_subcommand("verify", "Verify checkpoint files (size, footer, SHA-256, header); exit 1 if any is damaged");
    add_home(verify);
    verify->add_option("--run", run_name, "Only this run");

    auto* pin = app.add_subcommand("pin", "Pin a checkpoint so retention never deletes it");
    auto* unpin = app.add_subcommand("unpin", "Unpin a checkpoint");
    for (auto* c : {pin, unpin}) {
        c->add_option("--run", run_name, "Run name")->required();
        c->add_option("--checkpoint", checkpoint_id, "Checkpoint id")->required()
            ->check(integer_in(1, std::numeric_limits<std::int64_t>::max(), "a checkpoint id (a positive integer)"));
        add_home(c);
    }

    // CLI11 would only say "A subcommand is required"; name the word it did not know.
    const auto known = [&](const std::string& word) {
        return !app.get_subcommands([&](const CLI::App* c) { return c->check_name(word); }).empty();
    };
    if (args_in.size() > 1 && !args_in[1].empty() && args_in[1][0] != '-' && !known(args_in[1])) {
        err << "error: unknown subcommand '" << args_in[1]
            << "' (expected train, resume, runs, checkpoints, verify, pin or unpin)\nrun 'savepoint-cli --help' for usage\n";
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
        out << "savepoint-cli 0.1.0\n";
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
        if (sub == resume)
            err << " (a resume continues with the settings the run was created with; see: savepoint-cli resume --help)";
        err << "\nrun 'savepoint-cli " << (sub ? sub->get_name() + " " : std::string()) << "--help' for usage\n";
        return 2;
    } catch (const CLI::ParseError& e) {
        err << "error: " << e.what() << "\nrun 'savepoint-cli --help' for usage\n";
        return 2;
    }
    // Only training turns SIGTERM into a preemption notice; every other command
    // ends as the signal's default action has it (early_signals.h).
    if (install_signals && !(train->parsed() || resume->parsed())) release_early_signals();

    try {
        // An empty --home (often an unset variable, --home "$DIR") is not the default home.
        for (const auto* o : home_opts)
            if (o->count() && home.empty())
                throw InputError("home", "a directory", "''", "(leave --home out to use $SAVEPOINT_HOME or the default)");
        const std::string resolved_home = resolve_home(home);
        const char* env_home = std::getenv("SAVEPOINT_HOME");
        check_home(resolved_home, !home.empty() ? "--home" : env_home && *env_home ? "SAVEPOINT_HOME" : "the default home");
        if (train->parsed() || resume->parsed()) {
            TrainRequest req;
            req.home = resolved_home;
            req.run_name = run_name;
            req.interrupt_at_step = interrupt_at;
            req.preempt_at_step = preempt_at;
            req.storage_retries = disk_retries;
            req.storage_retry_seconds = disk_retry_seconds;
            // Given, they must name a step: 0 is not "none" (leaving the flag out is).
            for (auto* o : step_opts) {
                const std::int64_t v = o->get_name() == "--interrupt-at-step" ? interrupt_at : preempt_at;
                if (o->count() && v < 1)
                    throw InputError(o->get_name().substr(2), "a positive global step", std::to_string(v));
            }
            if (spe_opt->count() && spe == 0)  // negatives: TrainConfig::validate names the range
                throw InputError("steps-per-epoch", "a positive number of steps (leave it out for one full pass)", std::to_string(spe));
            validate_run_name(run_name);
            if (train->parsed()) {
                req.config.data = data;
                req.config.model = model;
                req.config.optimizer = optimizer;
                req.config.epochs = epochs;
                req.config.steps_per_epoch = spe;
                req.config.batch = batch;
                req.config.lr = lr;
                req.config.seed = seed;
                req.config.save_every_steps = parse_save_freq(save_freq);
                req.config.keep = keep;
                req.config.device = device;
                req.config.threads = threads;
                req.config.async_policy = async_policy;
                req.config.validate();
            } else {
                req.resume = true;
                req.data_override = resume_data;
                if (ck_opt->count()) {
                    if (checkpoint_id < 1) throw InputError("checkpoint", "a checkpoint id (a positive integer)", std::to_string(checkpoint_id));
                    req.target.checkpoint_id = checkpoint_id;
                }
                if (ep_opt->count()) req.target.epoch = resume_epoch;
                if (st_opt->count()) req.target.step = resume_step;
            }
            return run_training(req, out, err, install_signals);
        }
        if (runs->parsed()) {
            if (!home_has_registry(resolved_home)) {
                note_files_without_registry(resolved_home, err);
                if (json) out << "[]\n";
                else out << "no runs in " << resolved_home << "\n";
                return 0;
            }
            auto reg = open_registry_to_read(resolved_home, err);
            auto rows = reg->list_runs();
            if (json) {
                nlohmann::json arr = nlohmann::json::array();
                for (const auto& r : rows) arr.push_back(run_json(*reg, r));
                out << arr.dump(2) << "\n";
            } else if (rows.empty()) {
                out << "no runs in " << resolved_home << "\n";
            } else {
                print_run_table(out, *reg, rows);
            }
            return 0;
        }
        if (checkpoints->parsed()) {
            validate_run_name(run_name);
            if (!home_has_registry(resolved_home)) {
                note_files_without_registry(resolved_home, err);
                throw no_run_error(run_name, resolved_home);
            }
            auto reg = open_registry_to_read(resolved_home, err);
            RunRow run = require_run(*reg, run_name);
            auto rows = reg->checkpoints(run.id);
            if (json) {
                nlohmann::json arr = nlohmann::json::array();
                for (const auto& c : rows) arr.push_back(checkpoint_json(*reg, run, c));
                out << arr.dump(2) << "\n";
            } else {
                print_checkpoint_table(out, *reg, run, rows);
            }
            return 0;
        }
        if (verify->parsed()) {
            if (!run_name.empty()) validate_run_name(run_name);
            if (!home_has_registry(resolved_home)) {
                const std::size_t orphans = note_files_without_registry(resolved_home, err);
                if (!run_name.empty()) throw no_run_error(run_name, resolved_home);
                out << "0 verified, 0 damaged (no registry in " << resolved_home << ")\n";
                return orphans ? 1 : 0;  // checkpoints nothing vouches for are not a clean bill
            }
            // The registry's own pages first, before recovery writes to it: a damaged
            // one can still list runs while other queries fail ("database disk image
            // is malformed"), and it is left exactly as it is.
            const bool writable = home_writable(resolved_home);
            if (!writable)
                err << "note: " << resolved_home << " cannot be written: checking it as it is (damage is reported, not recorded)\n";
            auto reg = writable ? std::make_unique<Registry>(resolved_home)
                                : std::make_unique<Registry>(resolved_home, Registry::ReadOnly{});
            std::string check;
            try {
                check = reg->integrity_check();
            } catch (const std::exception& e) {
                check = e.what();  // too damaged to run the check at all
                // Its advice to run verify is what this is doing: said once, below.
                if (const auto at = check.find(kDamagedAdvice); at != std::string::npos) check.erase(at);
            }
            if (check != "ok") {
                err << "DAMAGED registry " << reg->path() << ": " << check << "\n";
                err << "the registry was left as it is; copy the home before trying to repair it (sqlite3 " << reg->path()
                    << " .recover)\n";
                return 1;
            }
            if (writable)
                for (const auto& line : reconcile_registry(*reg).actions) err << "recovery: " << line << "\n";
            return verify_runs(*reg, run_name, out, err);
        }
        if (pin->parsed() || unpin->parsed()) {
            validate_run_name(run_name);
            if (!home_has_registry(resolved_home)) throw no_run_error(run_name, resolved_home);
            auto reg = open_registry(resolved_home, err);
            RunRow run = require_run(*reg, run_name);
            // The rules (which checkpoint may be pinned) are the engine's: the window keeps the same ones.
            const auto change = set_checkpoint_pinned(*reg, run, checkpoint_id, pin->parsed());
            const auto* c = &change.before;
            if (!change.changed) {  // nothing to change: say so, not "pinned"
                out << "checkpoint #" << c->id << (c->pinned ? " was already pinned" : " was not pinned") << "\n";
                return 0;
            }
            out << (pin->parsed() ? "pinned" : "unpinned") << " checkpoint #" << c->id << "\n";
            return 0;
        }
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
