// Trainer: opening or creating the run (lock, registry, dataset, model,
// optimizer, checkpoint writer) and loading the checkpoint a resume starts from.
#include "cuda/cuda_determinism.h"
#include "data/tensor_file_dataset.h"
#include "platform/io_affinity.h"
#include "platform/io_thread_policy.h"
#include "platform/planted_bugs.h"
#include "registry/run_refusals.h"
#include "training/cuda_kernel_check.h"
#include "training/device_choice.h"
#include "training/run_inputs.h"
#include "training/run_settings.h"
#include "training/trainer_impl.h"

namespace savepoint {

using namespace trainer_detail;

void Trainer::Impl::setup() {
    validate_run_name(req.run_name);
    std::optional<RunRow> existing;
    const auto no_such_run = [this] { return no_run_named(req.run_name, req.home); };
    // Bad input is refused before anything is written: not even the home is created.
    if (!req.resume) {
        req.config.validate();
        cfg = req.config;
        refuse_unusable_device(cfg);
        report.observer().on_message("loading dataset " + cfg.data);
        // Bad data or a bad model fails here, before anything is written.
        RunInputs in = load_run_inputs(cfg);
        data = std::move(in.data);
        net.model = std::move(in.model);
        for (const auto& line : check_model_on_data(*net.model, data, cfg).lines()) report.observer().on_message(line);
        if (!cfg.builtin_model() && trains_on_cuda(cfg)) {
            use_deterministic_cuda();
            const int gpu = req.group ? static_cast<int>(req.group->env().local_rank) : 0;
            check_deterministic_kernels(*net.model, data, cfg,
                                        torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(gpu)));
        }
        const std::int64_t steps = cfg.steps_per_epoch > 0
                                       ? cfg.steps_per_epoch
                                       : full_pass_steps(data.train.size(), cfg.batch * world_size());
        check_simulated_failure_steps(0, steps * cfg.epochs);
    } else if (!file_exists(registry_path(req.home))) {
        throw no_such_run();
    }
    // Negative control follower-opens-home (docs/RELIABILITY.md): every worker opens the registry.
    if (!follower() || planted_bug(PlantedBug::FollowerOpensHome)) open_run(existing);

    if (cfg.threads > 0) torch::set_num_threads(static_cast<int>(cfg.threads));
    if (cfg.threads > available_cpus())
        note("note: " + std::to_string(cfg.threads) + " training threads on the " + std::to_string(available_cpus()) +
             " CPUs this process may use: they take turns, and every step waits for the last of them "
             "(" +
             std::to_string(available_cpus()) + " threads or fewer train faster)");
    choose_device();
    if (req.resume && !cfg.builtin_model() && net.device.is_cuda())
        check_deterministic_kernels(*net.model, data, cfg, net.device);

    const std::int64_t spe =
        cfg.steps_per_epoch > 0 ? cfg.steps_per_epoch : full_pass_steps(data.train.size(), cfg.batch * world_size());
    if (follower()) {
        run.name = req.run_name;
        run.steps_per_epoch = spe;
        run.total_steps = spe * cfg.epochs;
    } else {
        if (!existing) {
            reg->create_run(req.run_name, cfg.to_json().dump(), spe, spe * cfg.epochs, dev.name);
            existing = reg->find_run(req.run_name);
        }
        run = *existing;
        branch.id = run.active_branch_id;
    }

    net.model->to(net.device);
    if (cfg.optimizer == "adam")
        net.optimizer = std::make_unique<FusedAdam>(net.model->parameters(), torch::optim::AdamOptions(cfg.lr));
    else
        net.optimizer = std::make_unique<torch::optim::SGD>(net.model->parameters(), torch::optim::SGDOptions(cfg.lr));
    net.stepper = std::make_unique<StepRunner>(*net.model, *net.optimizer, data, net.device, cfg.batch);
    net.stepper->use_mse(cfg.loss == "mse");
    setup_data_parallel();
    // Rank 0 captures and writes the job's checkpoints; the other workers have no I/O thread.
    if (!follower()) start_writer(storage_interrupt_cpus(req.home));
    saver.attach(
        writer.get(), *net.model, *net.optimizer, [this](CheckpointKind k) { return save_request(k); },
        [this] { publish_rank_state(); });
    report.attach(writer.get(), cfg.epochs, dev.name, [this] { flush_telemetry(); });
}

// The I/O thread goes where the disk's interrupts land; training moves off
// that CPU when it has cores to spare (io_affinity.h).
void Trainer::Impl::start_writer(const std::vector<int>& io_cpus) {
    if (!io_cpus.empty() && !net.device.is_cuda() &&
        torch::get_num_threads() + static_cast<int>(io_cpus.size()) <= available_cpus())
        net.training_cpus = cpus_except(io_cpus);
    if (!io_cpus.empty()) {
        std::string list;
        for (int c : io_cpus) list += (list.empty() ? "" : ",") + std::to_string(c);
        // With no CPU to spare every save takes CPU time from an OpenMP worker, and
        // the whole step waits for it (README, Speed: batch 128 on two threads).
        const int spare = available_cpus() - static_cast<int>(io_cpus.size());
        std::string sharing;
        if (net.training_cpus.empty() && !net.device.is_cuda() && spare >= 1)
            sharing = "; training uses every CPU, so each save takes CPU time from it (" + std::to_string(spare) +
                      (spare == 1 ? " training thread" : " training threads") + " would leave CPU " + list +
                      " to checkpoint I/O)";
        report.observer().on_message("checkpoint I/O on CPU " + list + " (where the disk's interrupts land)" +
                                     (net.training_cpus.empty() ? sharing : "; training kept off it"));
    }
    saver.choose_capture(req.capture, torch::get_num_threads(), available_cpus());
    // Without a CPU of its own the I/O thread waits for its turn instead of
    // preempting the thread that hands it a save (io_thread_policy.h).
    const bool io_shares = io_shares_training_cpus(torch::get_num_threads(), io_cpus.size(), available_cpus());
    writer = std::make_unique<CheckpointWriter>(
        req.home, io_cpus,
        [this](const SaveOutcome& out) {
            head.set(out.row.id, out.row.branch_id, out.row.global_step);
            head.committed_at = now_seconds();
            head.io_seconds = head.io_seconds.load() + out.write_ms / 1000;
            head.bytes = out.row.bytes;
            report.observer().on_checkpoint_saved(out.row);
        },
        io_shares);
}

// The registry (recovered first), the run's lock, and the run when it exists
// (a resume reads its recorded settings, data and model).
void Trainer::Impl::open_run(std::optional<RunRow>& existing) {
    const auto no_such_run = [this] { return no_run_named(req.run_name, req.home); };
    reg = std::make_unique<Registry>(req.home);
    // Recovery first, so what we resume from reflects what is really on disk.
    RecoveryReport rec = reconcile_registry(*reg);
    for (const auto& line : rec.actions) report.observer().on_message("recovery: " + line);

    // An unknown run must not leave a lock file behind.
    if (req.resume && !reg->find_run(req.run_name)) throw no_such_run();
    lock = std::make_unique<FileLock>(run_lock_path(req.home, req.run_name), false, "run '" + req.run_name + "'");
    existing = reg->find_run(req.run_name);
    if (req.resume) {
        if (!existing) throw no_such_run();
        cfg = run_settings(*existing, reg->path() + " run '" + req.run_name + "'");
        check_resume_target(*reg, *existing, req.target,
                            cfg.epochs);  // a mistyped target is said before a second of loading
        load_resume_dataset();
        net.model = load_recorded_model(cfg, req.model_override, req.run_name);
        check_model_on_data(*net.model, data, cfg);
    } else if (existing) {
        throw run_already_exists(req.run_name, req.home);
    }
}

// The run's own dataset, or the copy `--data` points at when it moved; either
// way it must be the data the run was trained on (dataset_fingerprint.h).
void Trainer::Impl::load_resume_dataset() {
    const std::string& recorded = cfg.data;
    const bool moved = !req.data_override.empty();
    if (moved && is_builtin_dataset(recorded) && req.data_override != recorded)
        throw InputError("data", "'" + recorded + "'", "'" + req.data_override + "'",
                         InputError::Says{"run '" + req.run_name + "' was trained on the built-in dataset '" +
                                          recorded + "', which does not move; found '" + req.data_override + "'"})
            .with(Remedy{Remedy::Kind::LeaveDataOut, req.run_name});
    if (moved && cfg.data_sha256.empty())
        throw InputError("data", recorded, req.data_override,
                         InputError::Says{"run '" + req.run_name +
                                          "' was created before Savepoint recorded what a run "
                                          "trains on, so " +
                                          req.data_override + " cannot be checked against its dataset (" + recorded +
                                          "); put the dataset back there instead"});
    const std::string source = moved ? req.data_override : recorded;
    report.observer().on_message("loading dataset " + source +
                                 (moved ? " (the run's, moved from " + recorded + ")" : ""));
    const bool file = cfg.data_sha256.count("file") > 0;  // load_run_inputs recorded it so
    std::string file_sha;
    try {
        data = file ? load_tensor_file(source, cfg.loss, &file_sha) : load_dataset(source);
    } catch (const InputError& e) {
        if (moved) throw;
        throw InputError(std::string(e.what()) + " (run '" + req.run_name + "' was trained on the dataset in " +
                         recorded + ")")
            .with(Remedy{Remedy::Kind::DataMoved, req.run_name, 0, {}, {}, file});
    }
    check_dataset_fingerprint(cfg.data_sha256,
                              file ? std::map<std::string, std::string>{{"file", file_sha}} : dataset_fingerprint(data),
                              source, req.run_name);
}

// A simulated crash or preemption at a step this session never computes
// would silently not happen: refused instead, naming the steps it can be.
void Trainer::Impl::check_simulated_failure_steps(std::int64_t after, std::int64_t last) const {
    const std::pair<const char*, std::int64_t> flags[] = {{"interrupt-at-step", req.interrupt_at_step},
                                                          {"preempt-at-step", req.preempt_at_step}};
    for (const auto& [flag, at] : flags) {
        if (at <= 0 || (at > after && at <= last)) continue;
        throw InputError(flag,
                         "a global step from " + std::to_string(after + 1) + " to " + std::to_string(last) +
                             " (the steps this " + (after ? "resume computes" : "run trains") + ")",
                         std::to_string(at));
    }
}

void Trainer::Impl::load_resume_point(ResumePlan& plan) {
    if (!plan.from) return;
    std::vector<std::uint8_t> bytes;
    CheckpointContents contents;
    const std::string path = reg->absolute(plan.from->path);
    VerifyResult v = verify_checkpoint_file(path, plan.from->sha256, &bytes, &contents);
    if (!v.ok) throw CorruptCheckpoint(v.error);
    if (contents.meta.value("config", nlohmann::json()) != cfg.to_json())
        throw CorruptCheckpoint(path + ": config in the checkpoint differs from the run's config");
    restore_state(contents, *net.model, *net.optimizer, path);
    check_resume_device(*plan.from, contents.meta);
    head.set(plan.from->id, plan.from->branch_id, plan.from->global_step);
    branch.resumed_from = plan.from->id;
    report.loss = plan.from->train_loss;
    report.accuracy = plan.from->train_accuracy;
    report.val_loss = plan.from->val_loss;
    report.val_accuracy = plan.from->val_accuracy;
}

}  // namespace savepoint
