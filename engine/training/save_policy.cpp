#include "training/save_policy.h"

#include "data/data_order.h"
#include "training/session_clock.h"

#include <algorithm>

namespace savepoint {

using trainer_detail::Clock;
using trainer_detail::ms_since;
using trainer_detail::seconds_since;

bool capture_is_copy_free(CaptureMode mode, int training_threads, int cpus) {
    if (mode != CaptureMode::Auto) return mode == CaptureMode::CopyFree;
    return training_threads >= cpus;
}

void SavePolicy::attach(CheckpointWriter* writer, torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                        std::function<SaveRequest(CheckpointKind)> request, std::function<void()> before_capture) {
    writer_ = writer;
    model_ = &model;
    optimizer_ = &optimizer;
    request_ = std::move(request);
    before_capture_ = std::move(before_capture);
}

void SavePolicy::choose_capture(CaptureMode mode, int training_threads, int cpus) {
    snapshot_->set_copy_free(capture_is_copy_free(mode, training_threads, cpus));
}

std::string SavePolicy::here_text() const { return position_text(*s_.global_step, s_.run->steps_per_epoch); }

std::string SavePolicy::deferred_text() const { return position_text(deferred_gs_, s_.run->steps_per_epoch); }

bool SavePolicy::checkpoint(CheckpointKind kind, bool wait_until_committed) {
    if (before_capture_) before_capture_();  // for rank 0's checkpoint of this same step
    if (!writer_) return true;               // a job's other workers: rank 0 writes the job's checkpoint
    SessionStats& st = *s_.stats;
    SessionReporter& report = *s_.report;
    const auto t0 = Clock::now();
    double waited = 0;  // for the previous save: the disk's doing, not this capture's
    if (writer_->snapshot_busy()) {
        if (s_.cfg->async_policy == "skip" && kind == CheckpointKind::Regular) {
            ++st.saves_skipped;
            report.event(
                EventKind::SaveSkipped,
                "checkpoint at " + here_text() + " skipped: the previous one was still being written (policy: skip)");
            return false;
        }
        writer_->wait_for_snapshot();
        ++st.saves_waited;
        waited = seconds_since(t0);
        st.save_wait_seconds += waited;
    }
    if (deferred_gs_) note_deferred_save_taken(kind);
    if (auto err = writer_->take_save_error()) {
        // The recovery retries with a snapshot of this very step: saving again would duplicate it.
        return recover_from_storage_error(*err, kind);
    }
    report.phase = Phase::Checkpointing;
    snapshot_->capture(*model_, *optimizer_);
    const auto captured = Clock::now();
    const double stall_ms = std::chrono::duration<double, std::milli>(captured - t0).count();
    ++st.checkpoints_requested;
    if (snapshot_->last_capture_was_copy_free()) ++st.copy_free_captures;

    SaveRequest sr = request_(kind);
    sr.stall_ms = stall_ms;
    writer_->save_async(snapshot_, std::move(sr));
    if (s_.req->hooks.after_handover) s_.req->hooks.after_handover(*s_.global_step);
    const double handover_ms = ms_since(captured);
    snapshot_->note_handover_ms(handover_ms);
    st.checkpoint_stall_seconds += (stall_ms + handover_ms) / 1000;
    st.max_checkpoint_stall_ms = std::max(st.max_checkpoint_stall_ms, stall_ms + handover_ms);
    report.phase = Phase::Training;
    if (wait_until_committed) {
        writer_->wait_for_save();
        if (auto err = writer_->take_save_error()) return recover_from_storage_error(*err, kind);
    }
    return true;
}

bool SavePolicy::regular_save_due(std::int64_t at, bool end_of_epoch) const {
    const TrainConfig& cfg = *s_.cfg;
    bool due = cfg.save_every_steps > 0 ? at % cfg.save_every_steps == 0 : end_of_epoch;
    const std::int64_t blocks = s_.req->hooks.save_blocks;
    if (due && blocks > 0 && ((at - 1) / blocks) % 2 == 1) due = false;
    return due;
}

// With the 'defer' policy a save due while the previous one is still being
// written is taken at the first boundary after that one is written: training
// never waits for the disk, and the checkpoint lands a step or two late instead
// of being dropped ('skip') — it is exact all the same, since any step boundary
// is a resume point.
bool SavePolicy::regular_save(bool due) {
    if (!due && !deferred_gs_) return false;  // most steps: no lock, no string compare
    if (s_.cfg->async_policy != "defer") return due && checkpoint(CheckpointKind::Regular, false);
    if (due && deferred_gs_) {
        // Overtaken by the next due point, which stands for both: a capture at
        // a due point is that point's, on time, and a deferred one is never.
        ++s_.stats->saves_skipped;
        s_.report->event(EventKind::SaveSkipped,
                         "checkpoint due at " + deferred_text() +
                             " skipped: the previous one was still being written when the next fell due at " +
                             here_text() + " (policy: defer)");
        deferred_gs_ = 0;
    }
    if (writer_->snapshot_busy() && !writer_->has_save_error()) {
        if (due) deferred_gs_ = *s_.global_step;
        return false;
    }
    return (due || deferred_gs_) && checkpoint(CheckpointKind::Regular, false);
}

// Any capture after a deferral stands for the deferred save (a manual,
// emergency or final one too): it says how late it came.
void SavePolicy::note_deferred_save_taken(CheckpointKind kind) {
    const std::int64_t late = *s_.global_step - deferred_gs_;
    if (late > 0) {
        ++s_.stats->saves_deferred;
        s_.stats->steps_deferred += late;
        s_.report->event(EventKind::SaveDeferred,
                         "checkpoint due at " + deferred_text() + " taken " + std::to_string(late) +
                             (late == 1 ? " step" : " steps") + " later, at " + here_text() +
                             (kind == CheckpointKind::Regular ? "" : std::string(" (") + to_string(kind) + ")") +
                             ": the previous one was still being written (policy: defer)");
    }
    deferred_gs_ = 0;
}

bool SavePolicy::recover_from_storage_error(const std::string& message, CheckpointKind kind) {
    SessionReporter& report = *s_.report;
    Trainer::Commands& cmd = *s_.cmd;
    if (writer_->registry_damaged()) {
        // Not a full disk: no retry can help, and none is made.
        report.observer().on_message("checkpoint could not be committed: " + message);
        storage_failed_ = true;
        storage_failure_ = message;
        return false;
    }
    if ((cmd.stop || cmd.preempt) && !cmd.crash) {
        // Leaving anyway (a stop, or a preemption's grace period): no waiting for the
        // disk, but one attempt now, since the failure may have been an earlier save's.
        report.event(EventKind::Error,
                     "checkpoint could not be written: " + message + "; trying once more before stopping");
        report.observer().on_storage_error(message);
        report.phase = Phase::Checkpointing;
        snapshot_->capture(*model_, *optimizer_);
        const bool ok = retry(kind);
        report.phase = Phase::Training;
        return ok;
    }
    report.phase = Phase::WaitingForDisk;
    // As a pause does: the plot then shows every step up to where training waits,
    // not only those of the last quarter-second flush.
    report.flush_metrics();
    report.event(EventKind::Error, "checkpoint could not be written: " + message +
                                       "; training is paused, the previous checkpoint and the registry are intact");
    report.observer().on_storage_error(message);
    report.report_progress(true);
    for (std::int64_t attempt = 0; attempt < s_.req->storage_retries; ++attempt) {
        std::unique_lock<std::mutex> l(s_.wake->mutex);
        s_.wake->cv.wait_for(l, std::chrono::duration<double>(s_.req->storage_retry_seconds), [&cmd] {
            return cmd.resume_now.load() || cmd.stop.load() || cmd.crash.load() || cmd.preempt.load();
        });
        if (cmd.stop || cmd.crash || cmd.preempt) return false;
        cmd.resume_now = false;
        l.unlock();
        report.observer().on_message("retrying the checkpoint at " + here_text());
        report.phase = Phase::Checkpointing;
        snapshot_->capture(*model_, *optimizer_);
        // Retry synchronously on the I/O thread through the normal path.
        if (retry(kind)) {
            report.phase = Phase::Training;
            return true;
        }
    }
    storage_failed_ = true;
    return false;
}

bool SavePolicy::retry(CheckpointKind kind) {
    // A save handed over before the failure was taken may still be committing, and fail
    // too: its error is part of the failure this retry answers, not the retry's own.
    writer_->wait_for_save();
    writer_->take_save_error();
    // That save may have been of this very step (handed over before an earlier
    // save's failure was seen) and have committed: the step is saved, and
    // saving it again would commit a second checkpoint at this global step.
    if (s_.head->holds(*s_.branch_id, *s_.global_step)) return true;
    // The retry goes through the same queue; the snapshot was just captured.
    writer_->save_async(snapshot_, request_(kind));
    writer_->wait_for_save();
    if (auto err = writer_->take_save_error()) {
        s_.report->observer().on_storage_error(*err);
        s_.report->event(EventKind::Error, "retry failed: " + *err);
        return false;
    }
    return true;
}

}  // namespace savepoint
