// Training in this window: starting a run, resuming one (its latest checkpoint,
// a checkpoint picked in the table, a typed position, a point on the plot), the
// commands sent to the running trainer (pause, stop, crash, preempt, checkpoint
// now), a termination signal, and what the worker reports back. Owns the
// TrainerWorker: one run trains at a time per window. What the worker reports
// of the trained run goes into the window's LiveRunState, whose signals the run
// data view follows; from that state it reads which run is viewed, and from the
// checkpoint table which checkpoint is selected. Owned by MainWindow. GUI thread only.
#pragma once

#include "platform/remedy.h"

#include "bridge/data_parallel_job.h"
#include "bridge/engine_types.h"
#include "window/prompts.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>

class QSettings;
class QSpinBox;
class QTableView;
class QWidget;

namespace savepoint {
class Registry;
}

namespace savepoint::ui {

class Banner;
class CheckpointTableModel;
class LiveRunState;
class RollbackDialog;
class RunListModel;
class StatusBarFields;
class TrainerWorker;

class TrainingController : public QObject {
    Q_OBJECT
public:
    // The window's widgets this controller reads or updates (MainWindow lays them out).
    struct Widgets {
        QWidget* window = nullptr;      // parent of the New run dialog
        QSettings* settings = nullptr;  // the window's (--settings): the dialog's recent files
        RunListModel* runs = nullptr;
        CheckpointTableModel* ckpts = nullptr;
        QTableView* ckpt_view = nullptr;  // the checkpoint selected to resume from
        Banner* banner = nullptr;
        StatusBarFields* status = nullptr;
        QSpinBox* crash_step = nullptr;
        QSpinBox* grace = nullptr;
        QSpinBox* resume_epoch = nullptr;
        QSpinBox* resume_step = nullptr;
    };

    // `reg` may be null (the registry could not be opened). `live`: what this
    // controller reports of the trained run, and where it reads the viewed one.
    TrainingController(savepoint::Registry* reg, QString home, const Widgets& widgets, LiveRunState& live,
                       QObject* parent = nullptr);
    ~TrainingController() override;

    void setConfirmHandler(Confirm c) { confirm_ = std::move(c); }
    // Before run `run` trains here: remote storage to reach first (`uri`, from the
    // New run dialog; empty on a resume: the run's own, if it had one). True: the
    // gate took `start` and calls it once the store has answered.
    using RemoteGate = std::function<bool(const QString& run, const QString& uri, std::function<void()> start)>;
    void setRemoteGate(RemoteGate g) { remote_gate_ = std::move(g); }
    void setDirectoryChooser(ChooseDirectory c) { choose_directory_ = std::move(c); }

    TrainerWorker* worker() const { return worker_; }
    bool isRunning() const;
    bool isPaused() const;
    // The configuration the New run dialog starts from (kept in the settings).
    const savepoint::TrainConfig& lastConfig() const { return last_config_; }
    void setLastConfig(const savepoint::TrainConfig& c) { last_config_ = c; }
    RollbackDialog* rollbackDialog() const { return rollback_dialog_; }  // open after a divergence, else null
    // A termination signal came while training: the window closes once the run has stopped.
    bool quitWhenStopped() const { return quit_when_stopped_; }
    // Graceful stop (a checkpoint is written), and waits for it.
    void stopAndWait();
    // The global step after which the armed crash happens (0: none armed).
    std::int64_t armedCrashStep() const { return armed_crash_; }

public Q_SLOTS:
    void showNewRunDialog();
    bool startRun(const QString& name, const savepoint::TrainConfig& config);
    bool resumeRun(const QString& name, const savepoint::ResumeTarget& target);
    void resumeLatest();
    void resumeFromSelectedCheckpoint();
    void resumeAtTypedPosition();
    void resumeAtGlobalStep(qint64 global_step);
    void togglePause();
    void stopTraining();
    void crashNow();
    // Arms a crash after the global step in the field (the running trainer's,
    // else the next start's); it lasts for one training session.
    void crashAtStep();
    void setCrashArmed(bool armed);
    void armCrashAt(qint64 global_step);  // sets the field, then arms
    void preempt();
    void checkpointNow();
    // SIGTERM or SIGINT (TerminationSignals): while training, a preemption
    // notice, and the window closes once the run has stopped; otherwise it closes.
    void handleTermination(int signal);
    // The banner's button: continue after a storage error, or resume after a crash or preemption.
    void bannerActionTriggered();
    // After a divergence: the dialog that rolls back to the last good checkpoint
    // with a smaller learning rate (the banner's button opens it).
    void offerRollback();

Q_SIGNALS:
    void message(const QString& text);         // for the Events pane
    void errorMessage(const QString& text);    // for the banner and the Events pane
    void actionsChanged();                     // running, paused or stopped
    void settingsChanged();                    // a new last configuration to keep
    void closeRequested();                     // after a termination signal
    void crashArmChanged(qint64 global_step);  // the armed crash's step, 0 when none is armed
    // The New run dialog asked for more than one worker: a job for the JobController.
    void dataParallelRequested(const QString& name, const savepoint::TrainConfig& config,
                               const savepoint::ui::DataParallelSpec& spec);

private:
    void log(const QString& text) { Q_EMIT message(text); }
    void showError(const QString& text) { Q_EMIT errorMessage(text); }
    void updateActions() { Q_EMIT actionsChanged(); }
    savepoint::TrainRequest baseRequest(const QString& name) const;
    bool locateDataset(const QString& name, std::string& data_override);
    // Before a resume of the viewed run at `target` (global step `target_gs`): a
    // rollback (the engine's is_rollback) asks first, saying what stays behind;
    // every rollback path asks this same question. True: go ahead.
    bool confirmRollback(const savepoint::ResumeTarget& target, std::int64_t target_gs);
    bool startResume(const QString& name, const savepoint::ResumeTarget& target, std::optional<double> lr);
    void rollBackAfterDivergence(double lr);
    double divergedLr() const;
    // The banner's button after a refusal: what remedy_ says, by the window's own controls.
    void applyRemedy();
    void tickPreemption();

    // Worker signal handlers.
    void onProgress(const savepoint::Progress& p);
    void onMetrics(const MetricBatch& rows);
    void onEvent(const savepoint::EventRow& e);
    void onCheckpointSaved(const savepoint::CheckpointRow& row);
    void onStorageError(const QString& text);
    void onFinished(const WorkerOutcome& o);

    savepoint::Registry* reg_;
    QString home_;
    LiveRunState& live_;
    Confirm confirm_;
    RemoteGate remote_gate_;
    QString last_remote_;
    ChooseDirectory choose_directory_;

    QWidget* window_;
    QSettings* settings_;
    RunListModel* runs_;
    CheckpointTableModel* ckpts_;
    QTableView* ckpt_view_;
    Banner* banner_;
    StatusBarFields* status_;
    QSpinBox* crash_step_;
    QSpinBox* grace_;
    QSpinBox* resume_epoch_;
    QSpinBox* resume_step_;

    TrainerWorker* worker_ = nullptr;
    bool quit_when_stopped_ = false;  // a termination signal came while training
    savepoint::TrainConfig last_config_;
    DataParallelSpec last_parallel_{1, 3, {}};
    QTimer preempt_timer_;
    double preempt_deadline_ = 0;
    bool preempt_done_ = false;
    // A refused start's remedy that the banner's button does (remedy_words.h), and
    // the start it refused (a new run: its name, for "Train on the CPU").
    std::optional<savepoint::Remedy> remedy_;
    QString refused_start_;
    // The last divergence of the run trained here (its event names the last good checkpoint).
    std::optional<savepoint::EventRow> divergence_;
    RollbackDialog* rollback_dialog_ = nullptr;
    QString preempt_result_;
    std::int64_t armed_crash_ = 0;
};

}  // namespace savepoint::ui
