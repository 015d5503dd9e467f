// What this window's training and the run it shows share, held in one place:
// the run trained here (which one, how far, paused or not) and the run viewed
// (which one, its steps per epoch). TrainingController writes the first half
// and RunDataView the second; each reads the other's half and follows its
// signals, and neither holds the other. It alone writes the run list's live
// overlay (the trained run's status, step, loss and accuracy): on each
// progress report, and again whenever the list is re-read. Owned by
// MainWindow. GUI thread only.
#pragma once

#include "bridge/engine_types.h"

#include <QObject>

namespace savepoint::ui {

class RunListModel;
class TrainerWorker;

class LiveRunState : public QObject {
    Q_OBJECT
public:
    LiveRunState(RunListModel* runs, QObject* parent = nullptr);

    // --- the run trained here; TrainingController writes it ---
    // The worker that trains here: whether it runs and is paused are its own.
    void setWorker(const TrainerWorker* worker) { worker_ = worker; }
    bool isRunning() const;
    bool isPaused() const;
    // The run trained here (0 until known).
    std::int64_t trainedRunId() const { return trained_run_; }
    // Whether `run_id` is training in this window now.
    bool trains(std::int64_t run_id) const { return isRunning() && trained_run_ == run_id; }
    const savepoint::Progress& lastProgress() const { return last_progress_; }
    // The run a start (0) or a resume is about to train, before the worker names it.
    void expectRun(std::int64_t run_id) { trained_run_ = run_id; }
    // The worker named the run it trains: trainedRunChanged when it is another one.
    void noteRun(std::int64_t run_id);
    // A progress report: kept, its run noted, and the run list's row updated.
    void reportProgress(const savepoint::Progress& p);
    void reportMetrics(const MetricBatch& rows);
    void reportEvent(const savepoint::EventRow& e) { Q_EMIT liveEvent(e); }
    void reportCheckpointsChanged() { Q_EMIT checkpointsChanged(); }
    void reportFinished() { Q_EMIT trainingFinished(); }
    // A control asked to see a run's checkpoints (a remedy's button): the data view selects it.
    void showRun(std::int64_t run_id) { Q_EMIT runToShow(run_id); }

    // --- the run viewed; RunDataView writes it ---
    void setViewedRun(std::int64_t run_id, std::int64_t steps_per_epoch);
    std::int64_t viewedRunId() const { return viewed_run_; }
    std::int64_t viewedStepsPerEpoch() const { return viewed_spe_; }

Q_SIGNALS:
    // The trained run became known or changed: its history first, then its live data.
    void trainedRunChanged(qint64 run_id);
    void liveMetrics(qint64 run_id, const savepoint::ui::MetricBatch& rows);
    void liveEvent(const savepoint::EventRow& e);
    // A checkpoint was written, or a rollback or resume moved the head.
    void checkpointsChanged();
    // The training stopped: its last rows and checkpoints are in the registry.
    void trainingFinished();
    void runToShow(qint64 run_id);

private:
    // Lays the trained run's live figures over its row (after the list was re-read too).
    void overlay(savepoint::RunStatus status);

    RunListModel* runs_;
    const TrainerWorker* worker_ = nullptr;
    std::int64_t trained_run_ = 0;
    savepoint::Progress last_progress_;
    std::int64_t viewed_run_ = 0;
    std::int64_t viewed_spe_ = 1;
};

}  // namespace savepoint::ui
