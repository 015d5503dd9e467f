// Trainer: the training loop, checkpoints at step boundaries, the commands
// (pause, stop, crash, preempt) and how a session ends. Setup and loading the
// resume point are in run_setup.cpp; the shared state in trainer_impl.h.
#include "training/trainer.h"

#include "platform/io_affinity.h"
#include "training/trainer_impl.h"

#include <cstdlib>

namespace savepoint {

using namespace trainer_detail;

bool capture_is_copy_free(CaptureMode mode, int training_threads, int cpus) {
    if (mode != CaptureMode::Auto) return mode == CaptureMode::CopyFree;
    return training_threads >= cpus;
}

bool capture_copies_in_background(CaptureMode mode, int training_threads, int cpus) {
    if (mode != CaptureMode::Auto) return mode == CaptureMode::BackgroundCopy;
    return training_threads < cpus;
}

bool Trainer::Impl::checkpoint_retry(CheckpointKind kind) {
    // A save handed over before the failure was taken may still be committing, and fail
    // too: its error is part of the failure this retry answers, not the retry's own.
    writer->wait_for_save();
    writer->take_save_error();
    // That save may have been of this very step (handed over before an earlier
    // save's failure was seen) and have committed: the step is saved, and
    // saving it again would commit a second checkpoint at this global step.
    {
        std::lock_guard<std::mutex> l(saved_mutex);
        if (last_committed && last_committed_branch == branch_id && last_committed_gs == gs) return true;
    }
    // The retry goes through the same queue; the snapshot was just captured.
    writer->save_async(snapshot, save_request(kind));
    writer->wait_for_save();
    if (auto err = writer->take_save_error()) {
        obs->on_storage_error(*err);
        event(EventKind::Error, "retry failed: " + *err);
        return false;
    }
    return true;
}

TrainResult Trainer::Impl::finish(Outcome outcome, const std::string& message) {
    stop_telemetry();
    flush_metrics();
    if (writer) writer->wait_for_save();
    if (auto err = writer ? writer->take_save_error() : std::nullopt)
        obs->on_message("last checkpoint failed: " + *err);
    session.end_global_step = gs;
    session.ended_by = session_end(outcome);
    session.steps_computed = gs - steps_at_start;
    session.train_seconds = compute_seconds;
    session.checkpoint_seconds = checkpoint_io_seconds.load();
    session.checkpoint_stall_seconds = stall_seconds;
    report_workers(outcome);
    const RunStatus status = run_status(outcome);
    SessionRow s = session;
    const std::int64_t run_id = run.id, step_now = gs;
    if (writer)
        writer->post([s, status, run_id, step_now](Registry& r) {
            r.end_session(s);
            r.set_run_progress(run_id, step_now);
            r.set_run_status(run_id, status);
        });
    event(outcome == Outcome::Finished    ? EventKind::Finish
          : outcome == Outcome::Stopped   ? EventKind::Stop
          : outcome == Outcome::Failed    ? EventKind::Error
          : outcome == Outcome::Preempted ? EventKind::Preemption
          : outcome == Outcome::Diverged  ? EventKind::Divergence
                                          : EventKind::Interruption,
          message, head());
    if (writer) {
        writer->release_recycled_file();  // no save follows: the retired file kept for one goes
        writer->drain();
    }
    // The last progress line says how the session ended, not just that it did.
    phase = ended_phase(outcome);
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
    r.train_seconds = compute_seconds;
    r.allreduce_seconds = allreduce ? allreduce->seconds() : 0;
    r.allreduces = allreduce ? allreduce->calls() : 0;
    r.max_checkpoint_stall_ms = max_stall_ms;
    r.checkpoints_requested = checkpoints_requested;
    r.copy_free_captures = copy_free_captures;
    r.background_copy_captures = background_copy_captures;
    r.update_copy_captures = update_copy_captures;
    r.saves_skipped = saves_skipped;
    r.saves_waited = saves_waited;
    r.save_wait_seconds = save_wait_seconds;
    r.saves_deferred = saves_deferred;
    r.steps_deferred = steps_deferred;
    r.step_started_at = std::move(step_started_at);
    return r;
}

void Trainer::Impl::start_loop(const ResumePlan& plan) {
    gs = plan.start_global_step;
    const Position p = position_of(gs, run.steps_per_epoch);
    epoch = p.epoch;
    step = p.step;
    replay_until = plan.target_global_step;
    steps_at_start = gs;
    if (req.record_step_times)
        step_started_at.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, run.total_steps - gs)));
    // The snapshot's buffers are allocated here, not by the first capture (StateSnapshot::reserve).
    snapshot->reserve(*model, *optimizer);
    started = Clock::now();
    saved_at_gs = plan.from.has_value();
    start_telemetry();
}

TrainResult Trainer::Impl::train_loop(const ResumePlan& plan) {
    try {
        return train_steps(plan);
    } catch (const WorkerLost& e) {
        return worker_lost(e.what());
    }
}

TrainResult Trainer::Impl::train_steps(const ResumePlan& plan) {
    start_loop(plan);
    const std::int64_t spe = run.steps_per_epoch;
    std::int64_t perm_epoch = -1;
    std::vector<std::int64_t> perm;

    for (;;) {
        // Commands are read between steps only: a step is never torn. After the
        // last step too, so that one asked for during the last validation is not dropped.
        if (crash_requested()) return simulated_crash("simulated crash after global step " + std::to_string(gs));
        if (preempt_due()) return preempt();
        // A stop after the last step finishes the run: its final checkpoint is the
        // one the stop would write, and a stopped run with no step left could never finish.
        if (gs >= run.total_steps) break;
        if (cmd.stop) return stop_by_request();
        if (cmd.checkpoint.exchange(false) && !saved_at_gs) saved_at_gs = checkpoint(CheckpointKind::Manual, false);
        if (cmd.pause) {
            pause_until_woken();
            continue;
        }
        if (storage_failed) return give_up_on_storage();
        // A background save failed: pause now (and retry), not only when the next save is due.
        if (writer && writer->has_save_error()) saved_at_gs = checkpoint(CheckpointKind::Regular, true) || saved_at_gs;

        const std::int64_t next_epoch = position_of(gs + 1, spe).epoch;
        if (perm_epoch != next_epoch) {
            perm = epoch_permutation(cfg.seed, next_epoch, data.train.size());
            perm_epoch = next_epoch;
        }
        train_step(perm);
        if (!nonfinite.empty()) return diverge();
        if (req.interrupt_at_step > 0 && gs == req.interrupt_at_step)
            return simulated_crash("simulated crash after global step " + std::to_string(gs) +
                                   " (--interrupt-at-step); nothing beyond the regular checkpoints was saved");
        // Every epoch end is validated: also while replaying (the checkpoints saved
        // after a replay then carry the metrics an uninterrupted run records; the
        // session that first computed that epoch already logged its row), and
        // before a preemption notice is acted on (otherwise a resume from that
        // emergency checkpoint would never validate the epoch).
        const bool end_of_epoch = step == spe;
        if (end_of_epoch && !validate_epoch())
            return simulated_crash("simulated crash during the validation after " + here_text(true) +
                                   "; the epoch's validation was not recorded");
        if (req.preempt_at_step > 0 && gs == req.preempt_at_step) cmd.preempt = job_preempt = true;
        if (preempt_due()) return preempt();
        save_if_due(end_of_epoch);
        if (pending.size() >= 4096 || seconds_since(last_flush) > 0.25) flush_metrics();
        report_progress();
    }
    return finish_training();
}

void Trainer::Impl::train_step(const std::vector<std::int64_t>& perm) {
    const bool replaying = gs < replay_until;
    phase = replaying ? Phase::Replaying : Phase::Training;
    const auto t0 = Clock::now();
    if (req.record_step_times) step_started_at.push_back(std::chrono::duration<double>(t0 - started).count());
    arm_update_copy_if_due(replay_until, run.total_steps);
    if (gs + 1 == poison_at) stepper->poison_next_step(poison_kind);
    const Position next = position_of(gs + 1, run.steps_per_epoch);
    stepper->vote_stop(cmd.preempt);  // a data-parallel job stops where every rank heard of it
    StepResult r = stepper->step(perm, next.step);
    preempt_voters |= r.stop_voters;
    job_preempt = job_preempt || r.stop_voters != 0;
    if (!r.nonfinite.empty()) {
        // Not a step: nothing was updated, and gs still names the last good one.
        nonfinite = std::move(r.nonfinite);
        nonfinite_loss = r.loss;
        return;
    }
    const double step_seconds = seconds_since(t0);
    // The update's copy into the snapshot: the capture's, not the step's.
    update_copy_seconds = r.update_copy_seconds;
    compute_seconds += step_seconds - update_copy_seconds;
    if (choose_capture) capture_choice.step_done(step_seconds - update_copy_seconds);
    if (r.copy_wait_seconds > 0) {
        // Waiting for (or helping with) a background capture's copy: the checkpoint's, not the step's.
        compute_seconds -= r.copy_wait_seconds;
        stall_seconds += r.copy_wait_seconds;
        max_stall_ms = std::max(max_stall_ms, last_stall_ms + r.copy_wait_seconds * 1000);
    }
    epoch = next.epoch;
    step = next.step;
    ++gs;
    saved_at_gs = false;
    last_loss = r.loss;
    last_acc = r.accuracy;
    if (gs > replay_until)
        pending.push_back(
            {session.id, branch_id, MetricKind::TrainingStep, gs, epoch, step, r.loss, r.accuracy, now_seconds()});
    else
        ++session.steps_replayed;
}

// Between its batches a validation pass reports how far it is, pauses when
// asked and ends at a crash; a stop or preemption waits for its end (it is
// short: docs/PERFORMANCE.md, validation), so the epoch's row is recorded.
bool Trainer::Impl::validate_epoch() {
    phase = Phase::Validating;
    const auto v0 = Clock::now();
    double paused_seconds = 0;
    auto between = [&](std::int64_t done, std::int64_t total) {
        validated = done;
        validation_total = total;
        report_progress(true);  // a few batches a pass: each one reported
        if (cmd.crash) return false;
        if (cmd.pause && !cmd.stop && !cmd.preempt) {
            const auto p0 = Clock::now();
            flush_metrics();
            pause_until_woken();
            paused_seconds += seconds_since(p0);
            phase = Phase::Validating;
            if (cmd.crash) return false;
        }
        return true;
    };
    const std::optional<EvalResult> e = stepper->evaluate(between);
    validation_seconds += seconds_since(v0) - paused_seconds;
    validated = validation_total = 0;
    if (!e) return false;
    last_val_loss = e->loss;
    last_val_acc = e->accuracy;
    if (gs >= replay_until) {
        pending.push_back(
            {session.id, branch_id, MetricKind::Validation, gs, epoch, step, e->loss, e->accuracy, now_seconds()});
        flush_metrics();
    }
    return true;
}

void Trainer::Impl::save_if_due(bool end_of_epoch) {
    if (gs > replay_until && gs < run.total_steps && regular_save(regular_save_due(gs, end_of_epoch)))
        saved_at_gs = true;
}

void Trainer::Impl::pause_until_woken() {
    phase = Phase::Paused;
    flush_metrics();
    report_progress(true);
    event(EventKind::Pause, "paused at " + here_text());
    std::unique_lock<std::mutex> l(wake_mutex);
    // Timed, because a signal handler sets these flags without notifying.
    while (!wake.wait_for(l, std::chrono::milliseconds(200),
                          [this] { return !cmd.pause || cmd.stop || cmd.crash || cmd.preempt; })) {
    }
    phase = Phase::Training;
    if (!cmd.pause) event(EventKind::Continue, "continued at " + here_text());
}

TrainResult Trainer::Impl::simulated_crash(const std::string& message) { return finish(Outcome::Crashed, message); }

TrainResult Trainer::Impl::stop_by_request() {
    if (!saved_at_gs) checkpoint(CheckpointKind::Manual, true);
    return finish(Outcome::Stopped, "stopped by request at " + here_text(true));
}

TrainResult Trainer::Impl::give_up_on_storage() {
    return finish(Outcome::Failed, storage_failure.empty() ? "checkpoints could not be written; gave up after retries"
                                                           : "checkpoints cannot be committed: " + storage_failure);
}

TrainResult Trainer::Impl::finish_training() {
    if (!saved_at_gs) checkpoint(CheckpointKind::Final, true);
    return finish(Outcome::Finished, std::to_string(gs) + " steps, validation loss " + std::to_string(last_val_loss) +
                                         ", accuracy " + std::to_string(last_val_acc));
}

void Trainer::Impl::read_poison_request() {
    const char* v = std::getenv("SAVEPOINT_INJECT_NONFINITE");
    if (!v || !*v) return;
    const std::string s(v);
    const auto at = s.find('@');
    const std::string kind = s.substr(0, at);
    if (at == std::string::npos || (kind != "loss" && kind != "grad"))
        throw InputError("SAVEPOINT_INJECT_NONFINITE", "loss@N or grad@N (a global step)", s);
    poison_kind = kind == "loss" ? StepRunner::Poison::Loss : StepRunner::Poison::Gradient;
    poison_at = std::atoll(s.c_str() + at + 1);
}

TrainResult Trainer::Impl::diverge() {
    // The save of an earlier step may still be committing: the last good checkpoint is the one it writes.
    if (writer) writer->wait_for_save();
    std::optional<std::int64_t> good;
    std::int64_t good_gs = 0;
    {
        std::lock_guard<std::mutex> l(saved_mutex);
        good = last_committed;
        good_gs = last_committed_gs;
    }
    const std::string what = nonfinite == "loss"
                                 ? std::string(std::isnan(nonfinite_loss) ? "loss became NaN" : "loss became infinite")
                                 : nonfinite + " became NaN or infinite";
    std::string msg = what + " at " + position_text(gs + 1, run.steps_per_epoch) + "; ";
    msg += good ? "the last good checkpoint is #" + std::to_string(*good) + " at " +
                      position_text(good_gs, run.steps_per_epoch) +
                      " (roll back with a smaller learning rate: "
                      "savepoint-cli resume --run " +
                      run.name + " --checkpoint " + std::to_string(*good) + " --lr X)"
                : std::string("no checkpoint was saved before it (train again with a smaller --lr)");
    return finish(Outcome::Diverged, msg);
}

TrainResult Trainer::Impl::preempt() {
    const auto t0 = Clock::now();
    event(EventKind::PreemptionNotice, "preemption notice at " + here_text(true) + voters_text() + "; grace period " +
                                           std::to_string(static_cast<int>(req.preempt_grace_seconds)) + " s");
    // Already saved here (a regular save at this very step, or the checkpoint a
    // resume started from, when the notice came before its first step): nothing
    // to write, once that save has committed. If it failed, the emergency
    // checkpoint is written after all.
    bool already = saved_at_gs;
    if (already && writer) {
        writer->wait_for_save();
        if (auto err = writer->take_save_error()) {
            event(EventKind::Error,
                  "checkpoint at " + here_text() + " failed (" + *err + "); writing an emergency one");
            already = false;
        }
    }
    const bool ok = already || checkpoint(CheckpointKind::Emergency, true);
    const double took = seconds_since(t0);
    if (follower())
        return finish(Outcome::Preempted,
                      "preempted at " + here_text() + "; rank 0 writes the job's emergency checkpoint; stopped");
    std::string msg = already ? "preempted at " + here_text() + ", which a checkpoint already holds; stopped"
                      : ok
                          ? "emergency checkpoint at " + here_text() + " written in " +
                                std::to_string(static_cast<int>(took * 1000)) + " ms of the " +
                                std::to_string(static_cast<int>(req.preempt_grace_seconds)) + " s grace period; stopped"
                          : "preempted at " + here_text() + " but the emergency checkpoint could not be written";
    if (ok && took > req.preempt_grace_seconds) msg += " (too late: a real instance would have been gone)";
    return finish(Outcome::Preempted, msg);
}

Trainer::Trainer(TrainRequest request, TrainerObserver* observer)
    : impl_(std::make_unique<Impl>(std::move(request), observer)) {}

Trainer::~Trainer() = default;

TrainResult Trainer::run() {
    Impl& m = *impl_;
    check_lr_override(m.req);  // before anything is opened
    m.read_poison_request();
    m.setup();
    m.run_lr = m.cfg.lr;
    ResumePlan plan;
    if (m.req.resume) {
        plan = plan_resume(*m.reg, m.run, m.req.target, m.cfg.epochs);
        for (const auto& n : plan.notes) m.obs->on_message(n);
        if (m.req.lr_override) check_lr_rollback(plan, m.run);
        if (plan.nothing_to_do) {
            // A crash or preemption asked for would silently not happen.
            for (const auto& [flag, at] :
                 {std::pair<const char*, std::int64_t>{"--interrupt-at-step", m.req.interrupt_at_step},
                  {"--preempt-at-step", m.req.preempt_at_step}})
                if (at > 0)
                    throw InputError(
                        std::string(flag).substr(2), "a step this resume computes", std::to_string(at),
                        InputError::Says{"run '" + m.run.name + "' already finished at global step " +
                                         std::to_string(plan.from->global_step) +
                                         ", so this resume computes no step; found " + std::to_string(at)});
            TrainResult r;
            r.outcome = Outcome::NothingToDo;
            r.run_id = m.run.id;
            r.global_step = plan.from->global_step;
            r.last_checkpoint_id = plan.from->id;
            r.params_sha256 = plan.from->params_sha256;
            r.message = "run '" + m.run.name + "' already finished at global step " + std::to_string(r.global_step) +
                        "; nothing to resume (an earlier --checkpoint, or --epoch/--step, rolls back)";
            return r;
        }
        m.check_simulated_failure_steps(plan.start_global_step, m.run.total_steps);
        m.choose_learning_rate(plan);
    }
    m.start_job(plan);
    const std::int64_t spe = m.run.steps_per_epoch;
    // A resume that starts older than the head is a rollback: a new branch; the old one stays.
    if (plan.rollback) {
        m.branch_id = m.reg->create_branch(m.run.id, m.run.active_branch_id,
                                           plan.from ? std::optional<std::int64_t>(plan.from->id) : std::nullopt,
                                           plan.target_global_step, recorded_lr(m.cfg.lr, m.run_lr));
    }
    m.session.run_id = m.run.id;
    m.session.branch_id = m.branch_id;
    m.session.kind = !m.req.resume ? SessionKind::Train : plan.rollback ? SessionKind::Rollback : SessionKind::Resume;
    m.session.from_checkpoint_id = plan.from ? std::optional<std::int64_t>(plan.from->id) : std::nullopt;
    m.session.start_global_step = plan.start_global_step;
    m.session.target_global_step = plan.target_global_step;
    m.record_job(m.session);
    if (m.reg) {
        m.session.id = m.reg->begin_session(m.session);
        m.reg->set_run_status(m.run.id, RunStatus::Running);
        m.reg->set_run_device(m.run.id, m.device_name);
    }
    m.gs = plan.target_global_step;

    Position cont = position_of(plan.target_global_step + 1, spe);
    if (!m.req.resume) {
        m.event(EventKind::Start, "started run '" + m.run.name + "': " + m.cfg.model + " on " + m.data.description +
                                      ", " + std::to_string(m.cfg.epochs) + " epochs x " + std::to_string(spe) +
                                      " steps, device " + m.device_name + m.workers_text());
    } else {
        std::string from = plan.from ? "checkpoint #" + std::to_string(plan.from->id) + " at " +
                                           position_text(plan.from->global_step, spe, true)
                                     : std::string("the beginning (no usable checkpoint)");
        const bool restart = !plan.rollback && m.job_restarted();
        std::string msg = (plan.rollback ? "rolling back run '"
                           : restart ? m.lost_worker_text() + " was lost and torchrun restarted the job: resuming run '"
                                     : "resuming run '") +
                          m.run.name + "' from " + from;
        if (plan.target_global_step > plan.start_global_step) {
            msg += "; replaying " + std::to_string(plan.target_global_step - plan.start_global_step) + " steps to " +
                   position_text(plan.target_global_step, spe);
        }
        msg += plan.target_global_step >= m.run.total_steps
                   ? std::string("; that is the run's last step, so nothing is left to train")
                   : "; continuing at " + position_text(cont);
        if (plan.rollback)
            msg += " on a new branch (#" + std::to_string(m.reg->branches(m.run.id).back().number) +
                   " of this run; the old branch is kept)";
        if (m.req.lr_override) msg += " with learning rate " + lr_text(m.cfg.lr);
        msg += m.workers_text();
        m.event(plan.rollback ? EventKind::Rollback
                : restart     ? EventKind::Restart
                              : EventKind::Resume,
                msg, m.session.from_checkpoint_id);
        m.obs->on_message(msg);
        m.announce_device_change();
    }
    ThreadAffinity pinned(m.training_cpus);  // restored when the loop returns
    return m.train_loop(plan);
}

// Loads the resume point checked against the rate it was trained at, then
// sets the one this session trains at: --lr (a new branch), else the rate of
// the branch whose steps it continues or replays.
void Trainer::Impl::choose_learning_rate(ResumePlan& plan) {
    cfg.lr = plan.from ? branch_lr(*reg, run.id, plan.from->branch_id, run_lr) : run_lr;
    load_resume_point(plan);
    const double lr = req.lr_override.value_or(branch_lr(*reg, run.id, plan.lr_branch_id, run_lr));
    if (req.lr_override) plan.rollback = true;  // from the head too: the old rate's branch is kept
    cfg.lr = lr;
    set_learning_rate(*optimizer, lr);
}

}  // namespace savepoint
