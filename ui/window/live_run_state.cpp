#include "window/live_run_state.h"

#include "bridge/trainer_worker.h"
#include "models/run_list_model.h"

namespace savepoint::ui {

LiveRunState::LiveRunState(RunListModel* runs, QObject* parent) : QObject(parent), runs_(runs) {
    // A re-read list holds the registry's figures, older than the live ones.
    connect(runs_, &RunListModel::runsReplaced, this, [this] {
        if (isRunning() && trained_run_ != 0)
            overlay(isPaused() ? savepoint::RunStatus::Paused : savepoint::RunStatus::Running);
    });
}

bool LiveRunState::isRunning() const { return worker_ && worker_->isRunning(); }

bool LiveRunState::isPaused() const { return worker_ && worker_->isPaused(); }

void LiveRunState::noteRun(std::int64_t run_id) {
    if (trained_run_ == run_id) return;
    trained_run_ = run_id;
    Q_EMIT trainedRunChanged(run_id);
}

void LiveRunState::reportProgress(const savepoint::Progress& p) {
    last_progress_ = p;
    noteRun(p.run_id);
    // The worker may have paused since this report left the training thread.
    overlay(isPaused() || p.phase == savepoint::Phase::Paused ? savepoint::RunStatus::Paused
                                                              : savepoint::RunStatus::Running);
}

void LiveRunState::reportMetrics(const MetricBatch& rows) {
    if (rows.empty() || trained_run_ == 0) return;
    Q_EMIT liveMetrics(trained_run_, rows);
}

void LiveRunState::setViewedRun(std::int64_t run_id, std::int64_t steps_per_epoch) {
    viewed_run_ = run_id;
    viewed_spe_ = steps_per_epoch;
}

void LiveRunState::overlay(savepoint::RunStatus status) {
    runs_->setLive(trained_run_, status, last_progress_.global_step, last_progress_.loss, last_progress_.accuracy);
}

}  // namespace savepoint::ui
