// The Savepoint window: run list, live plots, checkpoint table, the
// fault-tolerance panel and the training controls. Owns one TrainerWorker (one
// run trains at a time per window) and a Registry connection for the GUI
// thread; a selected run's history is read by BackgroundJobs thread with
// its own connection. Every action has a public slot so tests and the demo can drive
// the window without dialogs. GUI thread only.
#pragma once

#include "engine_types.h"
#include "plot_series_store.h"

#include <QMainWindow>
#include <QSet>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSettings;
class QSlider;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace savepoint {
class CheckpointList;
class CheckpointRefused;
class Registry;
struct VerifyResult;
}

namespace savepoint::ui {

class Banner;
class CheckpointTableModel;
class FaultTolerancePanel;
class MetricsPlot;
class BackgroundJobs;
class RunListModel;
class StatusBarFields;
class TrainerWorker;

struct MainWindowOptions {
    QString home;          // resolved home directory
    QString settings_path; // empty: the user's QSettings; else an INI file (tests)
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Asked before destructive actions; default: a QMessageBox. Tests inject one.
    using Confirm = std::function<bool(const QString& title, const QString& text)>;
    void setConfirmHandler(Confirm c) { confirm_ = std::move(c); }
    // Asked where a run's dataset is now when a resume finds its directory gone;
    // returns the directory, or empty to cancel. Default: a QFileDialog. Tests inject one.
    using ChooseDirectory = std::function<QString(const QString& title, const QString& start)>;
    void setDirectoryChooser(ChooseDirectory c) { choose_directory_ = std::move(c); }

    // For tests, the demo and the benchmark.
    MetricsPlot* plot() const { return plot_; }
    RunListModel* runModel() const { return runs_; }
    CheckpointTableModel* checkpointModel() const { return ckpts_; }
    QSortFilterProxyModel* checkpointProxy() const { return ckpt_proxy_; }
    QSortFilterProxyModel* runProxy() const { return run_proxy_; }
    QTableView* checkpointView() const { return ckpt_view_; }
    QTableView* runView() const { return run_view_; }
    TrainerWorker* worker() const { return worker_; }
    Banner* banner() const { return banner_; }
    FaultTolerancePanel* faultPanel() const { return ft_panel_; }
    StatusBarFields* statusFields() const { return status_; }
    savepoint::Registry* registry() const { return reg_.get(); }
    std::int64_t selectedRunId() const { return view_run_; }
    QString home() const { return home_; }
    QAction* action(const QString& name) const;

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
    void crashAtStep();
    void preempt();
    void checkpointNow();
    // SIGTERM or SIGINT (TerminationSignals): while training, a preemption
    // notice, and the window closes once the run has stopped; otherwise it closes.
    void handleTermination(int signal);

    void selectRun(qint64 run_id);
    void refreshRuns();
    void refreshSelected();
    void verifySelectedCheckpoint();
    void togglePinSelected();
    void deleteSelectedCheckpoint();
    void revealSelectedCheckpoint();
    bool deleteCheckpoint(qint64 id);
    void verifyCheckpoint(qint64 id);
    void selectCheckpoint(qint64 id);
    // Why the engine refused a pin or a delete, as the window says it (translated).
    static QString checkpointRefusalText(const savepoint::CheckpointRefused& e);

    void exportPlot(const QString& path = {});
    void exportCsv(const QString& path = {});
    void setLanguage(const QString& code);

Q_SIGNALS:
    void verificationFinished(qint64 id, bool ok);
    void runLoaded(qint64 run_id);

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    void buildUi();
    QWidget* buildPlotControls();
    QWidget* buildCheckpointPane();
    void buildActions();
    void buildMenus();
    void loadSettings();
    void saveSettings();
    void updateActions();
    void showError(const QString& text);
    void log(const QString& text);
    // One registry event in the Events pane, stamped with when it happened.
    void logEvent(const savepoint::EventRow& e);
    // Replaces the Events pane with the run's history from the registry.
    void showEventHistory(std::int64_t run_id);
    std::optional<savepoint::CheckpointRow> selectedCheckpoint() const;
    savepoint::TrainRequest baseRequest(const QString& name) const;

    // Worker signal handlers.
    void onProgress(const savepoint::Progress& p);
    void onMetrics(const MetricBatch& rows);
    void onEvent(const savepoint::EventRow& e);
    void onCheckpointSaved(const savepoint::CheckpointRow& row);
    void onStorageError(const QString& text);
    void onFinished(const WorkerOutcome& o);
    void tickPreemption();

    void loadRunData(std::int64_t run_id);
    void showVerification(qint64 id, const savepoint::VerifyResult& v);
    void applyLoadedMetrics(std::vector<savepoint::MetricRow> rows, std::int64_t last_rowid,
                            std::vector<savepoint::CheckpointRow> checkpoints);
    void ensureBranches(const std::vector<savepoint::MetricRow>& rows);
    // Takes the viewed run's new and changed checkpoint rows (all of them on a
    // change of run); `acted_on`: a row this window just changed, re-read
    // whatever its state. Redraws the table and markers only if something changed.
    void reloadCheckpoints(std::optional<std::int64_t> acted_on = std::nullopt);
    // Feeds the table and the plot markers from ckpt_list_ (only the open rows
    // unless "Show deleted" is on: a long run's history stays out of them).
    void showCheckpoints();
    void updateFaultPanel();
    bool locateDataset(const QString& name, std::string& data_override);

    MainWindowOptions opts_;
    QString home_;
    std::unique_ptr<savepoint::Registry> reg_;
    std::unique_ptr<QSettings> settings_;
    Confirm confirm_;
    ChooseDirectory choose_directory_;

    TrainerWorker* worker_ = nullptr;
    MetricsPlot* plot_ = nullptr;
    RunListModel* runs_ = nullptr;
    QSortFilterProxyModel* run_proxy_ = nullptr;
    QTableView* run_view_ = nullptr;
    CheckpointTableModel* ckpts_ = nullptr;
    QSortFilterProxyModel* ckpt_proxy_ = nullptr;
    QTableView* ckpt_view_ = nullptr;
    FaultTolerancePanel* ft_panel_ = nullptr;
    StatusBarFields* status_ = nullptr;
    Banner* banner_ = nullptr;
    bool quit_when_stopped_ = false;  // a termination signal came while training
    QPlainTextEdit* log_ = nullptr;
    QComboBox* xmode_ = nullptr;
    QSlider* smoothing_ = nullptr;
    QLabel* smoothing_label_ = nullptr;
    QCheckBox* log_loss_ = nullptr;
    QCheckBox* show_raw_ = nullptr;
    QCheckBox* show_deleted_ = nullptr;
    QSpinBox* crash_step_ = nullptr;
    QSpinBox* grace_ = nullptr;
    QSpinBox* resume_epoch_ = nullptr;
    QSpinBox* resume_step_ = nullptr;
    QHash<QString, QAction*> actions_;

    // The run shown, and how far its data has been read.
    std::int64_t view_run_ = 0;
    std::int64_t view_spe_ = 1;
    std::int64_t last_metric_rowid_ = 0;
    bool catch_up_ = false;            // poll the viewed run once more though it is not running
    std::int64_t last_event_id_ = 0;
    std::int64_t events_shown_for_ = 0;  // the run whose history the Events pane shows
    QSet<QString> history_keys_;         // those events, so a live copy of one is not listed twice
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

    // The run this window trains.
    std::int64_t train_run_ = 0;
    savepoint::Progress last_progress_;
    savepoint::TrainConfig last_config_;
    QTimer refresh_timer_;
    QTimer preempt_timer_;
    double preempt_deadline_ = 0;
    bool preempt_done_ = false;
    QString preempt_result_;
};

}  // namespace savepoint::ui
