// Trainer: how a session ends. Each way out of the loop (finished, stopped,
// preempted, crashed, diverged, out of disk) says why, then finish() records
// the session's end (outcomes.cpp's table) and hands back its result.
#include "training/trainer_impl.h"

namespace savepoint {

using namespace trainer_detail;

TrainResult Trainer::Impl::finish(const SessionReason& reason, const std::string& message) {
    const auto outcome = static_cast<Outcome>(reason.index());
    stop_telemetry();
    report.flush_metrics();
    if (writer) writer->wait_for_save();
    if (auto err = writer ? writer->take_save_error() : std::nullopt)
        report.observer().on_message("last checkpoint failed: " + *err);
    session.end_global_step = gs;
    session.ended_by = session_end(outcome);
    session.steps_computed = gs - loop.steps_at_start;
    session.train_seconds = stats.train_seconds;
    session.checkpoint_seconds = head.io_seconds.load();
    session.checkpoint_stall_seconds = stats.checkpoint_stall_seconds;
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
    const auto* crash = std::get_if<CrashedReason>(&reason);
    const bool lost = crash && crash->cause == CrashedReason::Cause::WorkerLost;
    report.event(ending_event(outcome), message, head.id(),
                 lost ? nlohmann::json{{"lost_worker", crash->lost_rank}}.dump() : std::string("{}"));
    if (writer) {
        writer->release_recycled_file();  // no save follows: the retired file kept for one goes
        writer->drain();
    }
    // The last progress line says how the session ended, not just that it did.
    report.phase = ended_phase(outcome);
    report.report_progress(true);
    TrainResult r;
    static_cast<SessionStats&>(r) = std::move(stats);
    r.outcome = outcome;
    r.reason = reason;
    r.message = message;
    r.run_id = run.id;
    r.global_step = gs;
    r.params_sha256 = params_sha256(*net.model);
    r.last_checkpoint_id = head.id();
    r.steps = gs - loop.steps_at_start;
    r.loop_seconds = report.seconds_since_start();
    r.allreduce_seconds = job.allreduce ? job.allreduce->seconds() : 0;
    r.allreduces = job.allreduce ? job.allreduce->calls() : 0;
    return r;
}

TrainResult Trainer::Impl::simulated_crash(CrashedReason::Cause cause, const std::string& message) {
    return finish(CrashedReason{cause, step_place(gs, run.steps_per_epoch)}, message);
}

TrainResult Trainer::Impl::stop_by_request() {
    if (!loop.saved_at_gs) saver.checkpoint(CheckpointKind::Manual, true);
    return finish(StoppedReason{step_place(gs, run.steps_per_epoch)}, "stopped by request at " + here_text(true));
}

TrainResult Trainer::Impl::give_up_on_storage() {
    return finish(FailedReason{saver.storage_failure()},
                  saver.storage_failure().empty() ? "checkpoints could not be written; gave up after retries"
                                                  : "checkpoints cannot be committed: " + saver.storage_failure());
}

TrainResult Trainer::Impl::finish_training() {
    if (!loop.saved_at_gs) saver.checkpoint(CheckpointKind::Final, true);
    return finish(FinishedReason{gs, report.val_loss, report.val_accuracy},
                  std::to_string(gs) + " steps, validation loss " + std::to_string(report.val_loss) + ", accuracy " +
                      std::to_string(report.val_accuracy));
}

TrainResult Trainer::Impl::diverge() {
    // The save of an earlier step may still be committing: the last good checkpoint is the one it writes.
    if (writer) writer->wait_for_save();
    std::int64_t good_gs = 0;
    const std::optional<std::int64_t> good = head.id(&good_gs);
    DivergedReason why;
    why.value = nonfinite.what == "loss" ? DivergedReason::Value::Loss : DivergedReason::Value::Gradient;
    static const std::string kGradientOf = "the gradient of ";
    if (why.value == DivergedReason::Value::Gradient)
        why.tensor =
            nonfinite.what.rfind(kGradientOf, 0) == 0 ? nonfinite.what.substr(kGradientOf.size()) : nonfinite.what;
    why.nan = why.value == DivergedReason::Value::Loss && std::isnan(nonfinite.loss);
    why.at = step_place(gs + 1, run.steps_per_epoch);
    why.good_checkpoint = good;
    if (good) why.good_at = step_place(good_gs, run.steps_per_epoch);
    why.learning_rate = cfg.lr;
    why.run = run.name;
    const std::string what = nonfinite.what == "loss"
                                 ? std::string(std::isnan(nonfinite.loss) ? "loss became NaN" : "loss became infinite")
                                 : nonfinite.what + " became NaN or infinite";
    std::string msg = what + " at " + position_text(gs + 1, run.steps_per_epoch) + "; ";
    msg += good ? "the last good checkpoint is #" + std::to_string(*good) + " at " +
                      position_text(good_gs, run.steps_per_epoch) + " (roll back to it with a smaller learning rate)"
                : std::string("no checkpoint was saved before it (train again with a smaller learning rate)");
    return finish(why, msg);
}

TrainResult Trainer::Impl::preempt() {
    const auto t0 = Clock::now();
    report.event(EventKind::PreemptionNotice, "preemption notice at " + here_text(true) + voters_text() +
                                                  "; grace period " +
                                                  std::to_string(static_cast<int>(req.preempt_grace_seconds)) + " s");
    // Already saved here (a regular save at this very step, or the checkpoint a
    // resume started from, when the notice came before its first step): nothing
    // to write, once that save has committed. If it failed, the emergency
    // checkpoint is written after all.
    bool already = loop.saved_at_gs;
    if (already && writer) {
        writer->wait_for_save();
        if (auto err = writer->take_save_error()) {
            report.event(EventKind::Error,
                         "checkpoint at " + here_text() + " failed (" + *err + "); writing an emergency one");
            already = false;
        }
    }
    const bool ok = already || saver.checkpoint(CheckpointKind::Emergency, true);
    const double took = seconds_since(t0);
    PreemptedReason why;
    why.at = step_place(gs, run.steps_per_epoch);
    why.grace_seconds = req.preempt_grace_seconds;
    if (follower()) {
        why.how = PreemptedReason::How::Follower;
        return finish(why, "preempted at " + here_text() + "; rank 0 writes the job's emergency checkpoint; stopped");
    }
    std::string msg = already ? "preempted at " + here_text() + ", which a checkpoint already holds; stopped"
                      : ok
                          ? "emergency checkpoint at " + here_text() + " written in " +
                                std::to_string(static_cast<int>(took * 1000)) + " ms of the " +
                                std::to_string(static_cast<int>(req.preempt_grace_seconds)) + " s grace period; stopped"
                          : "preempted at " + here_text() + " but the emergency checkpoint could not be written";
    if (ok && took > req.preempt_grace_seconds) msg += " (too late: a real instance would have been gone)";
    why.how = already ? PreemptedReason::How::AlreadySaved
              : ok    ? PreemptedReason::How::Emergency
                      : PreemptedReason::How::NotWritten;
    why.save_ms = static_cast<std::int64_t>(took * 1000);
    why.too_late = ok && !already && took > req.preempt_grace_seconds;
    return finish(why, msg);
}

}  // namespace savepoint
