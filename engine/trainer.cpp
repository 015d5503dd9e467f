#include "trainer.h"

#include "checkpoint_format.h"
#include "checkpoint_writer.h"
#include "data_order.h"
#include "dataset.h"
#include "durable_io.h"
#include "errors.h"
#include "fused_adam.h"
#include "home.h"
#include "models.h"
#include "recovery.h"
#include "run_lock.h"
#include "state_snapshot.h"
#include "training_step.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace savepoint {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string pos_text(std::int64_t epoch, std::int64_t step) {
    return "epoch " + std::to_string(epoch) + ", step " + std::to_string(step);
}

}  // namespace

int exit_code(Outcome o) {
    switch (o) {
    case Outcome::Finished: case Outcome::NothingToDo: return 0;
    case Outcome::Crashed: case Outcome::Preempted: case Outcome::Stopped: return 3;
    case Outcome::Failed: return 1;
    }
    return 1;
}

const char* outcome_name(Outcome o) {
    switch (o) {
    case Outcome::Finished: return "finished";
    case Outcome::NothingToDo: return "finished";
    case Outcome::Crashed: return "interrupted";
    case Outcome::Preempted: return "preempted";
    case Outcome::Stopped: return "stopped";
    case Outcome::Failed: return "failed";
    }
    return "failed";
}

struct Trainer::Impl {
    TrainRequest req;
    TrainerObserver* obs;
    TrainerObserver null_observer;
    Commands cmd;
    std::mutex wake_mutex;
    std::condition_variable wake;

    // Set up in run().
    std::unique_ptr<Registry> reg;
    std::unique_ptr<FileLock> lock;
    RunRow run;
    TrainConfig cfg;
    DatasetPair data;
    torch::Device device{torch::kCPU};
    std::string device_name;
    std::shared_ptr<ClassifierImpl> model;
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    std::unique_ptr<StepRunner> stepper;
    std::shared_ptr<StateSnapshot> snapshot = std::make_shared<StateSnapshot>();
    std::unique_ptr<CheckpointWriter> writer;
    SessionRow session;
    std::int64_t branch_id = 0;
    std::optional<std::int64_t> resumed_from;

    // Training position and live numbers (training thread only).
    std::int64_t gs = 0, epoch = 1, step = 0;
    double last_loss = NAN, last_acc = NAN, last_val_loss = NAN, last_val_acc = NAN;
    std::vector<MetricRow> pending;
    Clock::time_point last_flush = Clock::now(), last_progress = Clock::now(), started = Clock::now();
    std::int64_t steps_at_start = 0;
    double compute_seconds = 0, stall_seconds = 0, validation_seconds = 0, max_stall_ms = 0;
    std::int64_t checkpoints_requested = 0;
    std::string phase = "loading";

    // Written by the I/O thread.
    std::mutex saved_mutex;
    std::optional<std::int64_t> last_committed;
    std::atomic<double> last_checkpoint_at{0};
    std::atomic<double> checkpoint_io_seconds{0};

    Impl(TrainRequest r, TrainerObserver* o) : req(std::move(r)), obs(o ? o : &null_observer) {}

    void event(const std::string& kind, const std::string& message, std::optional<std::int64_t> ckpt = std::nullopt) {
        EventRow e;
        e.run_id = run.id;
        e.session_id = session.id;
        e.branch_id = branch_id;
        e.kind = kind;
        e.global_step = gs;
        e.epoch = epoch;
        e.step = step;
        e.checkpoint_id = ckpt;
        e.message = message;
        e.created_at = now_seconds();
        writer->post([e](Registry& r) { r.add_event(e); });
        obs->on_event(e);
    }

    void flush_metrics() {
        if (pending.empty()) return;
        obs->on_metrics(pending);
        auto rows = std::make_shared<std::vector<MetricRow>>(std::move(pending));
        pending.clear();
        const std::int64_t run_id = run.id, step_now = gs;
        writer->post([rows, run_id, step_now](Registry& r) {
            r.append_metrics(run_id, *rows);
            r.set_run_progress(run_id, step_now);
        });
        last_flush = Clock::now();
    }

    void report_progress(bool force = false) {
        if (!force && seconds_since(last_progress) < 0.1) return;
        last_progress = Clock::now();
        Progress p;
        p.run = run.name;
        p.run_id = run.id;
        p.branch_id = branch_id;
        p.session_id = session.id;
        p.epoch = epoch;
        p.step = step;
        p.global_step = gs;
        p.steps_per_epoch = run.steps_per_epoch;
        p.epochs = cfg.epochs;
        p.total_steps = run.total_steps;
        p.loss = last_loss;
        p.accuracy = last_acc;
        const double elapsed = seconds_since(started);
        const double done = static_cast<double>(gs - steps_at_start);
        p.elapsed_seconds = elapsed;
        p.steps_per_second = elapsed > 0 ? done / elapsed : 0;
        p.eta_seconds = p.steps_per_second > 0 ? (run.total_steps - gs) / p.steps_per_second : 0;
        p.phase = phase;
        p.last_checkpoint_at = last_checkpoint_at.load();
        p.device = device_name;
        obs->on_progress(p);
    }

    std::optional<std::int64_t> head() {
        std::lock_guard<std::mutex> l(saved_mutex);
        return last_committed;
    }

    // What the I/O thread needs to write and register a checkpoint of the current position.
    SaveRequest save_request(const std::string& kind) {
        SaveRequest sr;
        sr.row.run_id = run.id;
        sr.row.branch_id = branch_id;
        sr.row.parent_id = head();
        sr.row.epoch = epoch;
        sr.row.step = step;
        sr.row.global_step = gs;
        sr.row.kind = kind;
        sr.row.path = checkpoint_dir_relative(run.name);
        sr.row.train_loss = last_loss;
        sr.row.train_accuracy = last_acc;
        sr.row.val_loss = last_val_loss;
        sr.row.val_accuracy = last_val_acc;
        sr.run_name = run.name;
        sr.meta = {{"config", cfg.to_json()}, {"steps_per_epoch", run.steps_per_epoch}, {"total_steps", run.total_steps},
                   {"data_seed", cfg.seed}, {"device", device_name}, {"created_at", now_seconds()}};
        sr.keep = cfg.keep;
        if (resumed_from) sr.protected_ids.insert(*resumed_from);
        return sr;
    }

    // Hands a snapshot to the I/O thread. Blocks only to copy the state (and,
    // with the 'wait' policy, while the previous save is still writing).
    bool checkpoint(const std::string& kind, bool wait_until_committed) {
        const auto t0 = Clock::now();
        if (writer->save_in_flight()) {
            if (cfg.async_policy == "skip" && kind == "regular") {
                event("save_skipped", "checkpoint at " + pos_text(epoch, step) +
                                          " skipped: the previous one was still being written (policy: skip)");
                return false;
            }
            writer->wait_for_save();
        }
        if (auto err = writer->take_save_error()) {
            // The recovery retries with a snapshot of this very step: saving again would duplicate it.
            return recover_from_storage_error(*err);
        }
        phase = "checkpointing";
        snapshot->capture(*model, *optimizer);
        const double stall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        stall_seconds += stall_ms / 1000;
        max_stall_ms = std::max(max_stall_ms, stall_ms);
        ++checkpoints_requested;

        SaveRequest sr = save_request(kind);
        sr.stall_ms = stall_ms;
        writer->save_async(snapshot, std::move(sr));
        phase = "training";
        if (wait_until_committed) {
            writer->wait_for_save();
            if (auto err = writer->take_save_error()) return recover_from_storage_error(*err);
        }
        return true;
    }

    // Training pauses until the save can be retried (request_continue() or the
    // retry timer). Returns false if asked to stop instead or out of retries.
    bool recover_from_storage_error(const std::string& message) {
        phase = "waiting-for-disk";
        event("error", "checkpoint could not be written: " + message +
                           "; training is paused, the previous checkpoint and the registry are intact");
        obs->on_storage_error(message);
        report_progress(true);
        for (std::int64_t attempt = 0; attempt < req.storage_retries; ++attempt) {
            std::unique_lock<std::mutex> l(wake_mutex);
            wake.wait_for(l, std::chrono::duration<double>(req.storage_retry_seconds), [this] {
                return cmd.resume_now.load() || cmd.stop.load() || cmd.crash.load() || cmd.preempt.load();
            });
            if (cmd.stop || cmd.crash || cmd.preempt) return false;
            cmd.resume_now = false;
            l.unlock();
            obs->on_message("retrying the checkpoint at " + pos_text(epoch, step));
            phase = "checkpointing";
            snapshot->capture(*model, *optimizer);
            // Retry synchronously on the I/O thread through the normal path.
            if (checkpoint_retry()) {
                phase = "training";
                return true;
            }
        }
        storage_failed = true;
        return false;
    }
    bool storage_failed = false;

    bool checkpoint_retry();
    void setup();
    void load_resume_point(ResumePlan& plan);
    TrainResult train_loop(const ResumePlan& plan);
    TrainResult finish(Outcome outcome, const std::string& message);
};

bool Trainer::Impl::checkpoint_retry() {
    // The retry goes through the same queue; the snapshot was just captured.
    writer->save_async(snapshot, save_request("regular"));
    writer->wait_for_save();
    if (auto err = writer->take_save_error()) {
        obs->on_storage_error(*err);
        event("error", "retry failed: " + *err);
        return false;
    }
    return true;
}

void Trainer::Impl::setup() {
    validate_run_name(req.run_name);
    std::optional<RunRow> existing;
    const auto check_device = [this] {
        if (cfg.device == "cuda" && !torch::cuda::is_available())
            throw InputError("--device: expected a CUDA device, found none (LibTorch " + std::string(TORCH_VERSION) +
                             " reports no usable GPU); use --device cpu or auto");
    };
    const auto no_such_run = [this] {
        return InputError("--run: no run named '" + req.run_name + "' in " + req.home + " (see: savepoint-cli runs)");
    };
    // Bad input is refused before anything is written: not even the home is created.
    if (!req.resume) {
        req.config.validate();
        cfg = req.config;
        check_device();
        obs->on_message("loading dataset " + cfg.data);
        data = load_dataset(cfg.data);  // bad data fails here, before anything is written
    } else if (!file_exists(registry_path(req.home))) {
        throw no_such_run();
    }
    reg = std::make_unique<Registry>(req.home);
    // Recovery first, so what we resume from reflects what is really on disk.
    RecoveryReport rec = reconcile_registry(*reg);
    for (const auto& line : rec.actions) obs->on_message("recovery: " + line);

    // An unknown run must not leave a lock file behind.
    if (req.resume && !reg->find_run(req.run_name)) throw no_such_run();
    lock = std::make_unique<FileLock>(run_lock_path(req.home, req.run_name), false, "run '" + req.run_name + "'");
    existing = reg->find_run(req.run_name);
    if (req.resume) {
        if (!existing) throw no_such_run();
        cfg = TrainConfig::from_json(nlohmann::json::parse(existing->config_json), reg->path() + " run '" + req.run_name + "'");
        obs->on_message("loading dataset " + cfg.data);
        data = load_dataset(cfg.data);
    } else if (existing) {
        throw InputError("--run: a run named '" + req.run_name + "' already exists in " + req.home +
                         " (resume it with: savepoint-cli resume --run " + req.run_name + ")");
    }

    if (cfg.threads > 0) torch::set_num_threads(static_cast<int>(cfg.threads));
    const bool cuda = torch::cuda::is_available();
    check_device();  // a resumed run's stored device
    device = (cfg.device == "cuda" || (cfg.device == "auto" && cuda)) ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
    device_name = device.is_cuda() ? "cuda" : "cpu (" + std::to_string(torch::get_num_threads()) + " threads)";

    const std::int64_t spe = cfg.steps_per_epoch > 0 ? cfg.steps_per_epoch : full_pass_steps(data.train.size(), cfg.batch);
    if (!existing) {
        reg->create_run(req.run_name, cfg.to_json().dump(), spe, spe * cfg.epochs, device_name);
        existing = reg->find_run(req.run_name);
    }
    run = *existing;
    branch_id = run.active_branch_id;

    // Parameters are drawn from the seeded default generator: same seed, same initial bits.
    torch::manual_seed(cfg.seed);
    model = make_model(cfg.model);
    model->to(device);
    if (cfg.optimizer == "adam")
        optimizer = std::make_unique<FusedAdam>(model->parameters(), torch::optim::AdamOptions(cfg.lr));
    else
        optimizer = std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(cfg.lr));
    stepper = std::make_unique<StepRunner>(*model, *optimizer, data, device, cfg.batch);
    writer = std::make_unique<CheckpointWriter>(req.home, [this](const SaveOutcome& out) {
        {
            std::lock_guard<std::mutex> l(saved_mutex);
            last_committed = out.row.id;
        }
        last_checkpoint_at = now_seconds();
        checkpoint_io_seconds = checkpoint_io_seconds.load() + out.write_ms / 1000;
        obs->on_checkpoint_saved(out.row);
    });
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
    restore_state(contents, *model, *optimizer, path);
    {
        std::lock_guard<std::mutex> l(saved_mutex);
        last_committed = plan.from->id;
    }
    resumed_from = plan.from->id;
    last_loss = plan.from->train_loss;
    last_acc = plan.from->train_accuracy;
    last_val_loss = plan.from->val_loss;
    last_val_acc = plan.from->val_accuracy;
}

TrainResult Trainer::Impl::finish(Outcome outcome, const std::string& message) {
    flush_metrics();
    writer->wait_for_save();
    if (auto err = writer->take_save_error()) obs->on_message("last checkpoint failed: " + *err);
    session.end_global_step = gs;
    session.ended_by = outcome == Outcome::Crashed ? "crash" : outcome_name(outcome);
    session.steps_computed = gs - steps_at_start;
    session.train_seconds = compute_seconds;
    session.checkpoint_seconds = checkpoint_io_seconds.load();
    session.checkpoint_stall_seconds = stall_seconds;
    const std::string status = outcome_name(outcome);
    SessionRow s = session;
    const std::int64_t run_id = run.id, step_now = gs;
    writer->post([s, status, run_id, step_now](Registry& r) {
        r.end_session(s);
        r.set_run_progress(run_id, step_now);
        r.set_run_status(run_id, status);
    });
    event(outcome == Outcome::Finished ? "finish" : outcome == Outcome::Stopped ? "stop" :
          outcome == Outcome::Failed ? "error" : outcome == Outcome::Preempted ? "preemption" : "interruption",
          message, head());
    writer->drain();
    phase = "done";
    report_progress(true);
    TrainResult r;
    r.outcome = outcome;
    r.message = message;
    r.run_id = run.id;
    r.global_step = gs;
    r.params_sha256 = params_sha256(*model);
    r.last_checkpoint_id = head();
    r.steps = gs - steps_at_start;
    r.loop_seconds = seconds_since(started);
    r.validation_seconds = validation_seconds;
    r.checkpoint_stall_seconds = stall_seconds;
    r.max_checkpoint_stall_ms = max_stall_ms;
    r.checkpoints_requested = checkpoints_requested;
    return r;
}

TrainResult Trainer::Impl::train_loop(const ResumePlan& plan) {
    const std::int64_t spe = run.steps_per_epoch;
    const std::int64_t total = run.total_steps;
    gs = plan.start_global_step;
    Position p = position_of(gs, spe);
    epoch = p.epoch;
    step = p.step;
    if (step == spe) {
        ++epoch;
        step = 0;
    }
    const std::int64_t replay_until = plan.target_global_step;
    steps_at_start = gs;
    started = Clock::now();
    std::int64_t perm_epoch = -1;
    std::vector<std::int64_t> perm;
    bool saved_at_gs = plan.from.has_value();

    while (epoch <= cfg.epochs) {
        if (perm_epoch != epoch) {
            perm = epoch_permutation(cfg.seed, epoch, data.train.size());
            perm_epoch = epoch;
        }
        while (step < spe) {
            // Commands are read between steps only: a step is never torn.
            if (cmd.crash || (cmd.crash_at > 0 && gs >= cmd.crash_at))
                return finish(Outcome::Crashed, "simulated crash after global step " + std::to_string(gs));
            if (cmd.preempt)
                goto preempted;
            if (cmd.stop) {
                if (!saved_at_gs) checkpoint("manual", true);
                return finish(Outcome::Stopped, "stopped by request at " + pos_text(epoch, step) + " (global step " +
                                                    std::to_string(gs) + ")");
            }
            if (cmd.checkpoint.exchange(false) && !saved_at_gs) saved_at_gs = checkpoint("manual", false);
            if (cmd.pause) {
                phase = "paused";
                flush_metrics();
                report_progress(true);
                event("pause", "paused at " + pos_text(epoch, step));
                std::unique_lock<std::mutex> l(wake_mutex);
                // Timed, because a signal handler sets these flags without notifying.
                while (!wake.wait_for(l, std::chrono::milliseconds(200),
                                      [this] { return !cmd.pause || cmd.stop || cmd.crash || cmd.preempt; })) {
                }
                phase = "training";
                if (!cmd.pause) event("continue", "continued at " + pos_text(epoch, step));
                continue;
            }
            if (storage_failed)
                return finish(Outcome::Failed, "checkpoints could not be written; gave up after retries");
            // A background save failed: pause now (and retry), not only when the next save is due.
            if (writer->has_save_error()) saved_at_gs = checkpoint("regular", true) || saved_at_gs;

            const bool replaying = gs < replay_until;
            phase = replaying ? "replaying" : "training";
            const auto t0 = Clock::now();
            StepResult r = stepper->step(perm, step + 1);
            compute_seconds += seconds_since(t0);
            ++step;
            ++gs;
            saved_at_gs = false;
            last_loss = r.loss;
            last_acc = r.accuracy;
            if (gs > replay_until)
                pending.push_back({session.id, branch_id, 0, gs, epoch, step, r.loss, r.accuracy, now_seconds()});
            else
                ++session.steps_replayed;

            if (req.interrupt_at_step > 0 && gs == req.interrupt_at_step)
                return finish(Outcome::Crashed, "simulated crash after global step " + std::to_string(gs) +
                                                    " (--interrupt-at-step); nothing beyond the regular checkpoints was saved");
            // Every epoch end is validated: also while replaying (the checkpoints saved
            // after a replay then carry the metrics an uninterrupted run records; the
            // session that first computed that epoch already logged its row), and
            // before a preemption notice is acted on (otherwise a resume from that
            // emergency checkpoint would never validate the epoch).
            const bool end_of_epoch = step == spe;
            if (end_of_epoch) {
                phase = "validating";
                const auto v0 = Clock::now();
                EvalResult e = stepper->evaluate();
                validation_seconds += seconds_since(v0);
                last_val_loss = e.loss;
                last_val_acc = e.accuracy;
                if (gs >= replay_until) {
                    pending.push_back({session.id, branch_id, 1, gs, epoch, step, e.loss, e.accuracy, now_seconds()});
                    flush_metrics();
                }
            }
            if (req.preempt_at_step > 0 && gs == req.preempt_at_step) cmd.preempt = true;
            if (cmd.preempt) goto preempted;
            if (gs > replay_until) {
                const bool due = cfg.save_every_steps > 0 ? gs % cfg.save_every_steps == 0 : end_of_epoch;
                if (due && gs < total) saved_at_gs = checkpoint("regular", false);
            }
            if (pending.size() >= 4096 || seconds_since(last_flush) > 0.25) flush_metrics();
            report_progress();
        }
        ++epoch;
        step = 0;
    }
    // Keep the position as the last completed step for the final checkpoint.
    epoch = cfg.epochs;
    step = spe;
    if (!saved_at_gs) checkpoint("final", true);
    return finish(Outcome::Finished, std::to_string(gs) + " steps, validation loss " +
                                         std::to_string(last_val_loss) + ", accuracy " + std::to_string(last_val_acc));

preempted : {
    const auto t0 = Clock::now();
    event("preemption_notice", "preemption notice at " + pos_text(epoch, step) + " (global step " + std::to_string(gs) +
                                   "); grace period " + std::to_string(static_cast<int>(req.preempt_grace_seconds)) + " s");
    if (step == spe) {
        // Keep (epoch, spe) as the position: the checkpoint means "epoch complete".
    }
    const bool ok = saved_at_gs || checkpoint("emergency", true);
    const double took = seconds_since(t0);
    std::string msg = ok ? "emergency checkpoint at " + pos_text(epoch, step) + " written in " +
                               std::to_string(static_cast<int>(took * 1000)) + " ms of the " +
                               std::to_string(static_cast<int>(req.preempt_grace_seconds)) + " s grace period; stopped"
                         : "preempted at " + pos_text(epoch, step) + " but the emergency checkpoint could not be written";
    if (ok && took > req.preempt_grace_seconds) msg += " (too late: a real instance would have been gone)";
    return finish(Outcome::Preempted, msg);
}
}

Trainer::Trainer(TrainRequest request, TrainerObserver* observer)
    : impl_(std::make_unique<Impl>(std::move(request), observer)) {}

Trainer::~Trainer() = default;

TrainResult Trainer::run() {
    Impl& m = *impl_;
    m.setup();
    ResumePlan plan;
    if (m.req.resume) {
        plan = plan_resume(*m.reg, m.run, m.req.target, m.cfg.epochs);
        for (const auto& n : plan.notes) m.obs->on_message(n);
        if (plan.nothing_to_do) {
            TrainResult r;
            r.outcome = Outcome::NothingToDo;
            r.run_id = m.run.id;
            r.global_step = plan.from->global_step;
            r.last_checkpoint_id = plan.from->id;
            r.params_sha256 = plan.from->params_sha256;
            r.message = "run '" + m.run.name + "' already finished at global step " + std::to_string(r.global_step) +
                        "; nothing to resume (pick --checkpoint or --epoch/--step to roll back)";
            return r;
        }
        m.load_resume_point(plan);
    }
    const std::int64_t spe = m.run.steps_per_epoch;
    // A resume that starts older than the head is a rollback: a new branch; the old one stays.
    if (plan.rollback) {
        m.branch_id = m.reg->create_branch(m.run.id, m.run.active_branch_id,
                                           plan.from ? std::optional<std::int64_t>(plan.from->id) : std::nullopt,
                                           plan.target_global_step);
    }
    m.session.run_id = m.run.id;
    m.session.branch_id = m.branch_id;
    m.session.kind = !m.req.resume ? "train" : plan.rollback ? "rollback" : "resume";
    m.session.from_checkpoint_id = plan.from ? std::optional<std::int64_t>(plan.from->id) : std::nullopt;
    m.session.start_global_step = plan.start_global_step;
    m.session.target_global_step = plan.target_global_step;
    m.session.id = m.reg->begin_session(m.session);
    m.reg->set_run_status(m.run.id, "running");
    m.reg->set_run_device(m.run.id, m.device_name);
    m.gs = plan.target_global_step;

    Position cont = position_of(plan.target_global_step + 1, spe);
    if (!m.req.resume) {
        m.event("start", "started run '" + m.run.name + "': " + m.cfg.model + " on " + m.data.description + ", " +
                             std::to_string(m.cfg.epochs) + " epochs x " + std::to_string(spe) + " steps, device " +
                             m.device_name);
    } else {
        std::string from = plan.from ? "checkpoint #" + std::to_string(plan.from->id) + " at " +
                                           pos_text(plan.from->epoch, plan.from->step) + " (global step " +
                                           std::to_string(plan.from->global_step) + ")"
                                     : std::string("the beginning (no usable checkpoint)");
        std::string msg = (plan.rollback ? "rolling back run '" : "resuming run '") + m.run.name + "' from " + from;
        if (plan.target_global_step > plan.start_global_step) {
            Position t = position_of(plan.target_global_step, spe);
            msg += "; replaying " + std::to_string(plan.target_global_step - plan.start_global_step) + " steps to " +
                   pos_text(t.epoch, t.step);
        }
        msg += "; continuing at " + pos_text(cont.epoch, cont.step);
        if (plan.rollback) msg += " on a new branch (#" + std::to_string(m.branch_id) + "; the old branch is kept)";
        m.event(plan.rollback ? "rollback" : "resume", msg, m.session.from_checkpoint_id);
        m.obs->on_message(msg);
    }
    return m.train_loop(plan);
}

void Trainer::request_pause() { impl_->cmd.pause = true; }
void Trainer::request_continue() {
    impl_->cmd.pause = false;
    impl_->cmd.resume_now = true;
    impl_->wake.notify_all();
}
void Trainer::request_stop() {
    impl_->cmd.stop = true;
    impl_->wake.notify_all();
}
void Trainer::request_crash() {
    impl_->cmd.crash = true;
    impl_->wake.notify_all();
}
void Trainer::request_crash_at(std::int64_t global_step) { impl_->cmd.crash_at = global_step; }
void Trainer::request_preempt() {
    impl_->cmd.preempt = true;
    impl_->wake.notify_all();
}
void Trainer::signal_preempt() noexcept { impl_->cmd.preempt.store(true); }
void Trainer::request_checkpoint() { impl_->cmd.checkpoint = true; }

}  // namespace savepoint
