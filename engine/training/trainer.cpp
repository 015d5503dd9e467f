// Trainer: the training loop. Between steps it reads the commands (pause,
// stop, crash, preempt, checkpoint now); then the step, the epoch's validation
// and the regular save. How a session starts is in session_start.cpp, how it
// ends in session_end.cpp, setup in run_setup.cpp; the shared state in trainer_impl.h.
#include "training/trainer.h"

#include "platform/io_affinity.h"
#include "training/trainer_impl.h"

namespace savepoint {

using namespace trainer_detail;

Trainer::Trainer(TrainRequest request, TrainerObserver* observer)
    : impl_(std::make_unique<Impl>(std::move(request), observer)) {}

Trainer::~Trainer() = default;

TrainResult Trainer::run() {
    Impl& m = *impl_;
    check_lr_override(m.req);  // before anything is opened
    m.read_poison_request();
    m.setup();
    m.branch.run_lr = m.cfg.lr;
    ResumePlan plan;
    if (m.req.resume) {
        plan = plan_resume(*m.reg, m.run, m.req.target, m.cfg.epochs);
        for (const auto& n : plan.notes) m.report.observer().on_message(n);
        if (m.req.lr_override) check_lr_rollback(plan, m.run);
        if (plan.nothing_to_do) return m.nothing_to_do(plan);
        m.check_simulated_failure_steps(plan.start_global_step, m.run.total_steps);
        m.choose_learning_rate(plan);
    }
    m.start_job(plan);
    m.begin_session(plan);
    m.announce_start(plan);
    ThreadAffinity pinned(m.net.training_cpus);  // restored when the loop returns
    return m.train_loop(plan);
}

void Trainer::Impl::start_loop(const ResumePlan& plan) {
    gs = plan.start_global_step;
    loop.replay_until = plan.target_global_step;
    loop.steps_at_start = gs;
    if (req.hooks.record_step_times)
        stats.step_started_at.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, run.total_steps - gs)));
    // The snapshot's buffers are allocated here, not by the first capture (StateSnapshot::reserve).
    saver.snapshot().reserve(*net.model, *net.optimizer);
    report.start(gs);
    loop.saved_at_gs = plan.from.has_value();
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
        if (crash_requested())
            return simulated_crash(CrashedReason::Cause::Requested,
                                   "simulated crash after global step " + std::to_string(gs));
        if (preempt_due()) return preempt();
        // A stop after the last step finishes the run: its final checkpoint is the
        // one the stop would write, and a stopped run with no step left could never finish.
        if (gs >= run.total_steps) break;
        if (cmd.stop) return stop_by_request();
        if (cmd.checkpoint.exchange(false) && !loop.saved_at_gs)
            loop.saved_at_gs = saver.checkpoint(CheckpointKind::Manual, false);
        if (cmd.pause) {
            pause_until_woken();
            continue;
        }
        if (saver.storage_failed()) return give_up_on_storage();
        // A background save failed: pause now (and retry), not only when the next save is due.
        if (writer && writer->has_save_error())
            loop.saved_at_gs = saver.checkpoint(CheckpointKind::Regular, true) || loop.saved_at_gs;

        const std::int64_t next_epoch = position_of(gs + 1, spe).epoch;
        if (perm_epoch != next_epoch) {
            perm = epoch_permutation(cfg.seed, next_epoch, data.train.size());
            perm_epoch = next_epoch;
        }
        train_step(perm);
        if (!nonfinite.what.empty()) return diverge();
        if (req.interrupt_at_step > 0 && gs == req.interrupt_at_step)
            return simulated_crash(CrashedReason::Cause::AtRequestedStep,
                                   "simulated crash after global step " + std::to_string(gs) +
                                       ", the step it was asked for; nothing beyond the regular checkpoints was saved");
        // Every epoch end is validated: also while replaying (the checkpoints saved
        // after a replay then carry the metrics an uninterrupted run records; the
        // session that first computed that epoch already logged its row), and
        // before a preemption notice is acted on (otherwise a resume from that
        // emergency checkpoint would never validate the epoch).
        const bool end_of_epoch = here().step == spe;
        if (end_of_epoch && !validate_epoch())
            return simulated_crash(CrashedReason::Cause::DuringValidation,
                                   "simulated crash during the validation after " + here_text(true) +
                                       "; the epoch's validation was not recorded");
        if (req.preempt_at_step > 0 && gs == req.preempt_at_step) cmd.preempt = job.preempt = true;
        if (preempt_due()) return preempt();
        save_if_due(end_of_epoch);
        if (report.flush_due()) report.flush_metrics();
        report.report_progress();
    }
    return finish_training();
}

void Trainer::Impl::train_step(const std::vector<std::int64_t>& perm) {
    const bool replaying = gs < loop.replay_until;
    report.phase = replaying ? Phase::Replaying : Phase::Training;
    const auto t0 = Clock::now();
    if (req.hooks.record_step_times)
        stats.step_started_at.push_back(std::chrono::duration<double>(t0 - report.started()).count());
    const Position next = position_of(gs + 1, run.steps_per_epoch);
    if (gs + 1 == nonfinite.poison_at) net.stepper->poison_next_step(nonfinite.poison_kind);
    net.stepper->vote_stop(cmd.preempt);  // a data-parallel job stops where every rank heard of it
    StepResult r = net.stepper->step(perm, next.step);
    job.preempt_voters |= r.stop_voters;
    job.preempt = job.preempt || r.stop_voters != 0;
    if (!r.nonfinite.empty()) {
        // Not a step: nothing was updated, and gs still names the last good one.
        nonfinite.what = std::move(r.nonfinite);
        nonfinite.loss = r.loss;
        return;
    }
    stats.train_seconds += seconds_since(t0);
    ++gs;
    loop.saved_at_gs = false;
    report.loss = r.loss;
    report.accuracy = r.accuracy;
    if (gs > loop.replay_until)
        report.metric({session.id, branch.id, MetricKind::TrainingStep, gs, next.epoch, next.step, r.loss, r.accuracy,
                       now_seconds()});
    else
        ++session.steps_replayed;
}

// Between its batches a validation pass reports how far it is, pauses when
// asked and ends at a crash; a stop or preemption waits for its end (it is
// short: docs/PERFORMANCE.md, validation), so the epoch's row is recorded.
bool Trainer::Impl::validate_epoch() {
    report.phase = Phase::Validating;
    const auto v0 = Clock::now();
    double paused_seconds = 0;
    auto between = [&](std::int64_t done, std::int64_t total) {
        report.validated = done;
        report.validation_total = total;
        report.report_progress(true);  // a few batches a pass: each one reported
        if (cmd.crash) return false;
        if (cmd.pause && !cmd.stop && !cmd.preempt) {
            const auto p0 = Clock::now();
            report.flush_metrics();
            pause_until_woken();
            paused_seconds += seconds_since(p0);
            report.phase = Phase::Validating;
            if (cmd.crash) return false;
        }
        return true;
    };
    const std::optional<EvalResult> e = net.stepper->evaluate(between);
    stats.validation_seconds += seconds_since(v0) - paused_seconds;
    report.validated = report.validation_total = 0;
    if (!e) return false;
    report.val_loss = e->loss;
    report.val_accuracy = e->accuracy;
    if (gs >= loop.replay_until) {
        const Position p = here();
        report.metric(
            {session.id, branch.id, MetricKind::Validation, gs, p.epoch, p.step, e->loss, e->accuracy, now_seconds()});
        report.flush_metrics();
    }
    return true;
}

void Trainer::Impl::save_if_due(bool end_of_epoch) {
    if (gs > loop.replay_until && gs < run.total_steps && saver.regular_save(saver.regular_save_due(gs, end_of_epoch)))
        loop.saved_at_gs = true;
}

void Trainer::Impl::pause_until_woken() {
    report.phase = Phase::Paused;
    report.flush_metrics();
    report.report_progress(true);
    report.event(EventKind::Pause, "paused at " + here_text());
    std::unique_lock<std::mutex> l(wake.mutex);
    // Timed, because a signal handler sets these flags without notifying.
    while (!wake.cv.wait_for(l, std::chrono::milliseconds(200),
                             [this] { return !cmd.pause || cmd.stop || cmd.crash || cmd.preempt; })) {
    }
    report.phase = Phase::Training;
    if (!cmd.pause) report.event(EventKind::Continue, "continued at " + here_text());
}

}  // namespace savepoint
