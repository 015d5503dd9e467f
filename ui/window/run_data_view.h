// The run shown in the window: the run list, the selected run's metrics on the
// plot, its checkpoints in the table and on the plot, its events in the Events
// pane and the fault-tolerance panel's inputs; and the checkpoint actions
// (verify, pin, delete, show the file). Small reads go through the window's
// Registry connection; a run's history and a checkpoint's hash run on
// BackgroundJobs, each job with its own connection. The run viewed is written
// into the window's LiveRunState, and what the run trained in this window
// reports arrives through that state's signals; of the training it only asks
// the state which run trains and how far. Owned by MainWindow. GUI thread only.
#pragma once

#include "bridge/engine_types.h"
#include "window/prompts.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace savepoint {
class CheckpointList;
class CheckpointRefused;
class Registry;
struct CheckpointCheck;
struct CheckpointRow;
}  // namespace savepoint

namespace savepoint::ui {

class BackgroundJobs;
class Banner;
class CheckpointTableModel;
class FaultTolerancePanel;
class LiveRunState;
class MetricsPlot;
class RunListModel;
class StatusBarFields;

class RunDataView : public QObject {
    Q_OBJECT
public:
    // The window's widgets this view fills (MainWindow lays them out).
    struct Widgets {
        MetricsPlot* plot = nullptr;
        RunListModel* runs = nullptr;
        QSortFilterProxyModel* run_proxy = nullptr;
        QTableView* run_view = nullptr;
        CheckpointTableModel* ckpts = nullptr;
        QSortFilterProxyModel* ckpt_proxy = nullptr;
        QTableView* ckpt_view = nullptr;
        QCheckBox* show_deleted = nullptr;
        FaultTolerancePanel* ft_panel = nullptr;
        StatusBarFields* status = nullptr;
        Banner* banner = nullptr;
        QPlainTextEdit* log = nullptr;     // the Events pane
        QSpinBox* resume_epoch = nullptr;  // their ranges follow the viewed run
        QSpinBox* resume_step = nullptr;
    };

    // `reg` may be null (the registry could not be opened): then nothing is shown.
    // `live`: where the viewed run is written and the trained run is followed.
    RunDataView(savepoint::Registry* reg, QString home, const Widgets& widgets, LiveRunState& live,
                QObject* parent = nullptr);
    ~RunDataView() override;

    void setConfirmHandler(Confirm c) { confirm_ = std::move(c); }
    void setFolderOpener(OpenFolder f) { open_folder_ = std::move(f); }  // default: QDesktopServices
    // Waits for a history read or a verification still running and drops their
    // results (the window is closing).
    void shutdown();

    std::int64_t viewedRunId() const;
    std::int64_t viewedStepsPerEpoch() const;
    std::optional<savepoint::CheckpointRow> selectedCheckpoint() const;

public Q_SLOTS:
    void selectRun(qint64 run_id);
    void refreshRuns();
    void refreshSelected();
    void verifySelectedCheckpoint();
    void togglePinSelected();
    void deleteSelectedCheckpoint();
    void revealSelectedCheckpoint();
    bool deleteCheckpoint(qint64 id);
    // Why the engine refused a pin or a delete, as the window says it (translated).
    static QString checkpointRefusalText(const savepoint::CheckpointRefused& e);
    void verifyCheckpoint(qint64 id);
    void selectCheckpoint(qint64 id);

Q_SIGNALS:
    void verificationFinished(qint64 id, bool ok);
    void runLoaded(qint64 run_id);
    void message(const QString& text);       // for the Events pane
    void errorMessage(const QString& text);  // for the banner and the Events pane
    void actionsChanged();                   // what can be done may have changed

private:
    // Live, from the run trained in this window (LiveRunState's signals).
    // The trained run became known or changed: list it and show it.
    void followTrainedRun(qint64 run_id);
    void appendLiveMetrics(qint64 run_id, const savepoint::ui::MetricBatch& rows);
    void addLiveEvent(const savepoint::EventRow& e);
    // A checkpoint was written, or a rollback moved the head: re-read the table at the next poll.
    void markCheckpointsDirty() { checkpoints_dirty_ = true; }
    // The training stopped: its last rows and checkpoints, now.
    void catchUpAfterTraining();

    void log(const QString& text) { Q_EMIT message(text); }
    void showError(const QString& text) { Q_EMIT errorMessage(text); }
    void updateActions() { Q_EMIT actionsChanged(); }
    // One registry event in the Events pane, stamped with when it happened.
    void logEvent(const savepoint::EventRow& e);
    // Replaces the Events pane with the run's history from the registry.
    void showEventHistory(std::int64_t run_id);
    void updateEventsHeader();
    // The delete confirmation's question, naming what is at stake.
    QString deleteQuestion(const savepoint::CheckpointRow& c) const;

    void loadRunData(std::int64_t run_id);
    void showVerification(const savepoint::CheckpointRow& row, const savepoint::CheckpointCheck& check);
    void applyLoadedMetrics(std::vector<savepoint::MetricRow> rows, std::int64_t last_rowid,
                            std::vector<savepoint::CheckpointRow> checkpoints);
    void ensureBranches(const std::vector<savepoint::MetricRow>& rows);
    // Takes the viewed run's new and changed checkpoint rows (all of them on a
    // change of run); `acted_on`: a row this window just changed, re-read
    // whatever its state. Redraws the table and markers only if something changed.
    void reloadCheckpoints(std::optional<std::int64_t> acted_on = std::nullopt);
    void refreshRemotes();
    // Feeds the table and the plot markers from ckpt_list_ (only the open rows
    // unless "Show deleted" is on: a long run's history stays out of them).
    void showCheckpoints();
    void updateFaultPanel();

    savepoint::Registry* reg_;
    QString home_;
    LiveRunState& live_;
    Confirm confirm_;
    OpenFolder open_folder_;

    MetricsPlot* plot_;
    RunListModel* runs_;
    QSortFilterProxyModel* run_proxy_;
    QTableView* run_view_;
    CheckpointTableModel* ckpts_;
    QSortFilterProxyModel* ckpt_proxy_;
    QTableView* ckpt_view_;
    QCheckBox* show_deleted_;
    FaultTolerancePanel* ft_panel_;
    StatusBarFields* status_;
    Banner* banner_;
    QPlainTextEdit* log_;
    QSpinBox* resume_epoch_;
    QSpinBox* resume_step_;

    // How far the shown run's data has been read (which run: live_.viewedRunId()).
    std::int64_t last_metric_rowid_ = 0;
    bool catch_up_ = false;  // poll the viewed run once more though it is not running
    std::int64_t last_event_id_ = 0;
    std::int64_t events_shown_for_ = 0;  // the run whose history the Events pane shows
    QSet<QString> shown_keys_;           // the events listed, so a live and a polled copy show once
    QString events_header_;              // the pane's first line, and the run it names
    QString events_run_name_;
    BackgroundJobs* jobs_ = nullptr;  // history reads and verifications, off this thread
    int load_generation_ = 0;
    // The newest load's generation, for a queued load to see it is no longer wanted.
    std::shared_ptr<std::atomic<int>> latest_load_ = std::make_shared<std::atomic<int>>(0);
    bool loading_ = false;
    std::vector<savepoint::MetricRow> pending_live_;
    bool checkpoints_dirty_ = false;
    std::unique_ptr<savepoint::CheckpointList> ckpt_list_;  // the viewed run's checkpoint rows
    std::optional<std::int64_t> shown_head_;                // the head the table was drawn with
    bool checkpoints_shown_ = false;                        // the table and markers show ckpt_list_
};

}  // namespace savepoint::ui
