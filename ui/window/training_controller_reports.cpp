// TrainingController: what the training worker reports (progress, metrics,
// events, saved checkpoints, storage errors, the session's end) and what the
// window says of it: the status bar, the banner, the plot's live data.
#include "window/training_controller.h"

#include "bridge/trainer_worker.h"
#include "registry/registry.h"
#include "window/banner.h"
#include "window/live_run_state.h"
#include "window/remedy_words.h"
#include "window/session_outcome_words.h"
#include "window/setting_words.h"
#include "window/status_bar.h"

#include <QLocale>

#include <cmath>

namespace savepoint::ui {

// --- worker reports -----------------------------------------------------------

void TrainingController::onProgress(const savepoint::Progress& p) {
    status_->setProgress(p);
    live_.reportProgress(p);
    // An armed step stays as the user set it; otherwise the field offers a step just ahead.
    if (armed_crash_ == 0 && crash_step_->value() <= p.global_step) crash_step_->setValue(int(p.global_step + 10));
}

void TrainingController::onMetrics(const MetricBatch& rows) { live_.reportMetrics(rows); }

void TrainingController::onEvent(const savepoint::EventRow& e) {
    using savepoint::EventKind;
    live_.noteRun(e.run_id);  // its history first, then this event
    live_.reportEvent(e);
    if (e.kind == EventKind::Rollback || e.kind == EventKind::Resume || e.kind == EventKind::Restart)
        live_.reportCheckpointsChanged();
    if (e.kind == EventKind::Error) showError(QString::fromStdString(e.message));
    if (e.kind == EventKind::Divergence) divergence_ = e;
    if (e.kind == EventKind::DeviceChanged)
        banner_->showMessage(
            Banner::Kind::Warning,
            tr("<b>Resumed on another device.</b> Checkpoint #%1 was trained on another device, GPU model or library "
               "version than this session trains on. Training goes on, but its bits will differ from a run that "
               "never stopped; the Events pane says what differs.")
                .arg(e.checkpoint_id.value_or(0)));
    if (e.kind == EventKind::LowDisk)
        banner_->showMessage(Banner::Kind::Warning,
                             tr("<b>Low disk.</b> The home's file system is running out of room for checkpoints: "
                                "%1")
                                 .arg(QString::fromStdString(e.message).toHtmlEscaped()));
}

void TrainingController::onCheckpointSaved(const savepoint::CheckpointRow& row) {
    live_.reportCheckpointsChanged();
    status_->setLastCheckpointAt(row.created_at > 0 ? row.created_at : savepoint::now_seconds());
}

void TrainingController::onStorageError(const QString& text) {
    banner_->showMessage(
        Banner::Kind::Error,
        tr("<b>A checkpoint could not be written:</b> %1<br>Training is paused; the previous checkpoint "
           "and the registry are intact. Free some space, then continue.")
            .arg(text.toHtmlEscaped()),
        tr("Continue"));
}

void TrainingController::onFinished(const WorkerOutcome& o) {
    const QString msg = QString::fromStdString(o.message);
    if (o.threw) {
        // A refused setting in the window's words and by its label in the New
        // run dialog; anything else (a file, a busy run) as the engine said it.
        // Then what to do next, by the window's own controls.
        const QString why =
            withRemedy(o.field.empty() ? msg : settingRefusalText(o.field, o.expected, o.found, o.rule), o.remedy);
        const QString text = tr("Training could not run: %1").arg(why.toHtmlEscaped());
        // Where the window has a control that does the remedy, the banner's button is it.
        const bool cpu_needs_start = o.remedy.kind == savepoint::Remedy::Kind::TrainOnCpu && refused_start_.isEmpty();
        const QString action = cpu_needs_start ? QString() : remedyActionLabel(o.remedy);
        if (action.isEmpty()) {
            showError(text);
        } else {
            preempt_done_ = false;  // the button is the remedy now, not a resume after a crash
            remedy_ = o.remedy;
            banner_->showMessage(Banner::Kind::Error, text, action);
            log(text);
        }
    } else {
        // The window's words for the engine's reason, never its English message; the
        // sentence names the rollback button only when the banner shows it.
        const bool rollback = o.outcome == savepoint::Outcome::Diverged && divergence_ && divergence_->checkpoint_id;
        const QString why = SessionOutcomeWords::text(o.reason, rollback);
        switch (o.outcome) {
            case savepoint::Outcome::Crashed:
                banner_->showMessage(
                    Banner::Kind::Warning,
                    tr("<b>Crashed</b> (simulated): %1. “Resume” continues from the latest checkpoint; to go "
                       "further back, select one in the Checkpoints table and use “Resume from here”.")
                        .arg(why.toHtmlEscaped()),
                    tr("Resume"));
                preempt_done_ = true;  // the banner's button resumes
                break;
            case savepoint::Outcome::Preempted:
                preempt_done_ = true;
                preempt_result_ = why.toHtmlEscaped();
                if (!preempt_timer_.isActive()) preempt_deadline_ = savepoint::now_seconds();
                tickPreemption();
                break;
            case savepoint::Outcome::Failed:
                showError(tr("Training failed: %1").arg(why.toHtmlEscaped()));
                break;
            case savepoint::Outcome::Stopped:
                log(tr("Stopped: %1").arg(why));
                break;
            case savepoint::Outcome::Diverged:
                // The plot marks the step; the banner offers the way back (a plain resume would diverge again).
                banner_->showMessage(Banner::Kind::Error, tr("<b>Training diverged</b>: %1").arg(why.toHtmlEscaped()),
                                     rollback ? tr("Roll back to the last good checkpoint…") : QString());
                break;
            case savepoint::Outcome::Finished:
            case savepoint::Outcome::NothingToDo:
                banner_->showMessage(Banner::Kind::Info, tr("Finished: %1").arg(why.toHtmlEscaped()));
                break;
        }
    }
    status_->setIdle(QString::fromStdString(live_.lastProgress().device));
    // An armed crash belongs to the session that ended (it fired, or the run ended before it).
    if (armed_crash_ != 0) {
        armed_crash_ = 0;
        Q_EMIT crashArmChanged(0);
    }
    live_.reportFinished();
    updateActions();
    if (quit_when_stopped_) Q_EMIT closeRequested();
}

}  // namespace savepoint::ui
