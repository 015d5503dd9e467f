// The Savepoint window: lays out the run list, the live plots, the checkpoint
// table, the fault-tolerance panel, the Events pane and the training controls,
// and wires them to the classes that do the work: a TrainingController
// (starting, resuming and interrupting the run this window trains), a
// RunDataView (the selected run's metrics, checkpoints and events), which meet
// through one LiveRunState, and the job, remote and comparison controllers.
// Keeps the settings, the menus and the export actions. The actions connect to
// the controllers; tests and the demo call the controllers through the
// accessors below, without dialogs. GUI thread only.
#pragma once

#include "bridge/engine_types.h"
#include "window/prompts.h"

#include <QHash>
#include <QMainWindow>
#include <QTimer>

#include <memory>

class QAction;
class QCheckBox;
class QComboBox;
class QDockWidget;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSettings;
class QSlider;
class QSortFilterProxyModel;
class QSpinBox;
class QStackedWidget;
class QTableView;

namespace savepoint {
class Registry;
}

namespace savepoint::ui {

class Banner;
class CheckpointTableModel;
class ComparisonPlot;
class ComparisonTableModel;
class DockProportions;
class FirstLaunchHint;
class FaultTolerancePanel;
class JobController;
class LiveRunState;
class RemoteController;
class MetricsPlot;
class RunComparisonView;
class RunDataView;
class RunListModel;
class StatusBarFields;
class SystemPanel;
class TrainerWorker;
class TrainingController;

struct MainWindowOptions {
    QString home;           // resolved home directory
    QString settings_path;  // empty: the user's QSettings; else an INI file (tests)
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Asked before destructive actions; default: a QMessageBox. Tests inject one.
    using Confirm = savepoint::ui::Confirm;
    void setConfirmHandler(Confirm c);
    // Asked where a run's dataset is now when a resume finds its directory gone;
    // returns the directory, or empty to cancel. Default: a QFileDialog. Tests inject one.
    using ChooseDirectory = savepoint::ui::ChooseDirectory;
    void setDirectoryChooser(ChooseDirectory c);

    // For tests, the demo and the benchmark.
    MetricsPlot* plot() const { return plot_; }
    RunListModel* runModel() const { return runs_; }
    CheckpointTableModel* checkpointModel() const { return ckpts_; }
    QSortFilterProxyModel* checkpointProxy() const { return ckpt_proxy_; }
    QSortFilterProxyModel* runProxy() const { return run_proxy_; }
    QTableView* checkpointView() const { return ckpt_view_; }
    QTableView* runView() const { return run_view_; }
    TrainerWorker* worker() const;
    Banner* banner() const { return banner_; }
    FaultTolerancePanel* faultPanel() const { return ft_panel_; }
    SystemPanel* systemPanel() const { return system_panel_; }
    StatusBarFields* statusFields() const { return status_; }
    savepoint::Registry* registry() const { return reg_.get(); }
    std::int64_t selectedRunId() const;
    QString home() const { return home_; }
    QAction* action(const QString& name) const;
    TrainingController* training() const { return training_; }
    RunDataView* runData() const { return data_; }
    // The run trained here and the run viewed, as both of those share them.
    LiveRunState* liveRun() const { return live_; }
    // Two or more runs selected in the run list (run_comparison_view.h).
    RunComparisonView* comparison() const { return compare_; }
    JobController* jobs() const { return job_; }
    RemoteController* remote() const { return remote_; }
    ComparisonPlot* comparisonPlot() const { return compare_plot_; }
    ComparisonTableModel* comparisonModel() const { return compare_table_; }

public Q_SLOTS:
    // The window's own actions (the others are the controllers' slots).
    // A one-minute synthetic run with a crash and a rollback (the first-launch hint offers it).
    void runDemo();
    // File ▸ Open runs from remote storage…: pulls the runs under `uri` (asked when empty) into this home.
    void openRemoteRuns(const QString& uri = {});
    void exportPlot(const QString& path = {});
    void exportCsv(const QString& path = {});
    void setLanguage(const QString& code);

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    // Layout (main_window_layout.cpp).
    void buildUi();
    QWidget* buildPlotControls();
    QWidget* buildCheckpointPane();
    void buildComparisonDock();
    // Actions, toolbar and menus (main_window_actions.cpp).
    void buildActions();
    // What the actions, the checkpoint pane's buttons and the Enter key in the
    // position fields do: the controllers' slots (once they exist).
    void connectActions();
    void buildMenus();
    void nameForAccessibility();
    void createFirstLaunchHint();
    void updateControls();

    // Wiring (main_window.cpp).
    void openRegistry();
    void createControllers();
    void selectInitialRun();
    void loadSettings();
    void saveSettings();
    void nameCheckpointDock(qint64 run_id);
    void updateActions();
    void showError(const QString& text);
    void log(const QString& text);

    MainWindowOptions opts_;
    QString home_;
    std::unique_ptr<savepoint::Registry> reg_;
    std::unique_ptr<QSettings> settings_;
    Confirm confirm_;

    LiveRunState* live_ = nullptr;  // where training_ and data_ meet
    TrainingController* training_ = nullptr;
    JobController* job_ = nullptr;        // a data-parallel job under torchrun
    RemoteController* remote_ = nullptr;  // S3-compatible storage
    RunDataView* data_ = nullptr;
    RunComparisonView* compare_ = nullptr;

    MetricsPlot* plot_ = nullptr;
    QStackedWidget* plots_ = nullptr;  // the run's plot, or the comparison's
    ComparisonPlot* compare_plot_ = nullptr;
    ComparisonTableModel* compare_table_ = nullptr;
    QDockWidget* compare_dock_ = nullptr;
    QDockWidget* checkpoint_dock_ = nullptr;
    RunListModel* runs_ = nullptr;
    QSortFilterProxyModel* run_proxy_ = nullptr;
    QTableView* run_view_ = nullptr;
    CheckpointTableModel* ckpts_ = nullptr;
    QSortFilterProxyModel* ckpt_proxy_ = nullptr;
    QTableView* ckpt_view_ = nullptr;
    FaultTolerancePanel* ft_panel_ = nullptr;
    SystemPanel* system_panel_ = nullptr;
    StatusBarFields* status_ = nullptr;
    DockProportions* dock_shares_ = nullptr;
    Banner* banner_ = nullptr;
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
    FirstLaunchHint* first_launch_ = nullptr;
    QHash<QString, QAction*> actions_;
    QHash<QString, QPushButton*> checkpoint_buttons_;  // by object name
    QTimer refresh_timer_;
};

}  // namespace savepoint::ui
