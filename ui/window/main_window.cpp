// MainWindow: the wiring. Creates the registry connection, the LiveRunState,
// the TrainingController and the RunDataView that meet through it, and the
// other controllers; connects them to the widgets (main_window_layout.cpp
// builds those) and keeps the settings, the enabled state of the actions, the
// window's messages and the export.
#include "window/main_window.h"

#include "bridge/trainer_worker.h"
#include "checkpoint/recovery.h"
#include "models/run_list_model.h"
#include "platform/telemetry_probe.h"
#include "plot/csv_export.h"
#include "plot/metrics_plot.h"
#include "registry/registry.h"
#include "window/banner.h"
#include "window/dock_proportions.h"
#include "window/fault_tolerance_panel.h"
#include "window/job_controller.h"
#include "window/live_run_state.h"
#include "window/remote_controller.h"
#include "window/remote_field.h"
#include "window/run_comparison_view.h"
#include "window/run_data_view.h"
#include "window/system_panel.h"
#include "window/training_controller.h"

#include <QAction>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>

namespace savepoint::ui {

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), opts_(std::move(options)), home_(opts_.home) {
    setObjectName(QStringLiteral("SavepointMainWindow"));
    setWindowTitle(tr("Savepoint — %1").arg(home_));
    settings_ = opts_.settings_path.isEmpty() ? std::make_unique<QSettings>()
                                              : std::make_unique<QSettings>(opts_.settings_path, QSettings::IniFormat);
    buildUi();
    buildActions();
    buildMenus();
    openRegistry();
    createControllers();
    connectActions();
    createFirstLaunchHint();
    setConfirmHandler([this](const QString& title, const QString& text) {
        return QMessageBox::question(this, title, text, QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) ==
               QMessageBox::Yes;
    });
    setDirectoryChooser([this](const QString& title, const QString& start) {
        return QFileDialog::getExistingDirectory(this, title, start);
    });
    loadSettings();
    refresh_timer_.setObjectName(QStringLiteral("refreshTimer"));  // names show in profiles
    refresh_timer_.setInterval(1000);
    connect(&refresh_timer_, &QTimer::timeout, data_, [this] {
        data_->refreshRuns();
        data_->refreshSelected();
        compare_->followTraining();
    });
    refresh_timer_.start();
    data_->refreshRuns();
    selectInitialRun();
    updateActions();
}

MainWindow::~MainWindow() {
    refresh_timer_.stop();
    data_->shutdown();  // waits for a history read or a verification still running; drops their results
    training_->stopAndWait();
}

void MainWindow::openRegistry() {
    try {
        reg_ = std::make_unique<savepoint::Registry>(home_.toStdString());
        const auto report = savepoint::reconcile_registry(*reg_);
        for (const auto& a : report.actions) log(tr("Recovery: %1").arg(QString::fromStdString(a)));
    } catch (const std::exception& e) {
        showError(tr("Cannot open the registry in %1: %2").arg(home_, QString::fromUtf8(e.what())));
    }
}

// The training and the data view know only the LiveRunState: the training
// writes the trained run into it, the view the viewed run, and each follows the other there.
void MainWindow::createControllers() {
    live_ = new LiveRunState(runs_, this);
    TrainingController::Widgets tw;
    tw.window = this;
    tw.settings = settings_.get();
    tw.runs = runs_;
    tw.ckpts = ckpts_;
    tw.ckpt_view = ckpt_view_;
    tw.banner = banner_;
    tw.status = status_;
    tw.crash_step = crash_step_;
    tw.grace = grace_;
    tw.resume_epoch = resume_epoch_;
    tw.resume_step = resume_step_;
    training_ = new TrainingController(reg_.get(), home_, tw, *live_, this);

    RunDataView::Widgets dw;
    dw.plot = plot_;
    dw.runs = runs_;
    dw.run_proxy = run_proxy_;
    dw.run_view = run_view_;
    dw.ckpts = ckpts_;
    dw.ckpt_proxy = ckpt_proxy_;
    dw.ckpt_view = ckpt_view_;
    dw.show_deleted = show_deleted_;
    dw.ft_panel = ft_panel_;
    dw.status = status_;
    dw.banner = banner_;
    dw.log = log_;
    dw.resume_epoch = resume_epoch_;
    dw.resume_step = resume_step_;
    data_ = new RunDataView(reg_.get(), home_, dw, *live_, this);
    job_ = new JobController(reg_.get(), home_, this, this);

    connect(training_, &TrainingController::message, this, &MainWindow::log);
    connect(training_, &TrainingController::errorMessage, this, &MainWindow::showError);
    connect(training_, &TrainingController::actionsChanged, this, &MainWindow::updateActions);
    connect(training_, &TrainingController::settingsChanged, this, &MainWindow::saveSettings);
    connect(training_, &TrainingController::closeRequested, this, &QWidget::close);
    connect(banner_, &Banner::actionTriggered, training_, &TrainingController::bannerActionTriggered);
    connect(plot_, &MetricsPlot::resumeAtStepRequested, training_, &TrainingController::resumeAtGlobalStep);

    connect(training_, &TrainingController::dataParallelRequested, job_, &JobController::start);
    connect(job_, &JobController::message, this, &MainWindow::log);
    connect(job_, &JobController::errorMessage, this, &MainWindow::showError);
    connect(job_, &JobController::actionsChanged, this, &MainWindow::updateActions);
    connect(job_, &JobController::runAppeared, data_, &RunDataView::selectRun);
    remote_ = new RemoteController(home_, this);
    connect(remote_, &RemoteController::message, this, &MainWindow::log);
    connect(remote_, &RemoteController::errorMessage, this, &MainWindow::showError);
    connect(remote_, &RemoteController::pulled, this, [this](const QStringList& names) {
        data_->refreshRuns();
        if (reg_ && !names.isEmpty())
            if (const auto run = reg_->find_run(names.front().toStdString())) data_->selectRun(run->id);
    });
    // A new run with remote storage, or a resume of a run that had it: the store answers first.
    training_->setRemoteGate([this](const QString& run, const QString& uri, std::function<void()> start) {
        QString target = uri;
        if (target.isEmpty()) {
            if (!reg_ || remote_->syncedRun() == run) return false;
            const auto row = reg_->find_run(run.toStdString());
            if (!row) return false;
            target = RemoteController::previousRemote(*reg_, row->id);
            if (target.isEmpty()) return false;
        }
        remote_->syncThen(run, target, std::move(start), !uri.isEmpty());
        return true;
    });
    connect(data_, &RunDataView::message, this, &MainWindow::log);
    connect(data_, &RunDataView::errorMessage, this, &MainWindow::showError);
    connect(data_, &RunDataView::actionsChanged, this, &MainWindow::updateActions);
    connect(data_, &RunDataView::runLoaded, this, &MainWindow::nameCheckpointDock);
    system_panel_->setRegistry(reg_.get());
    connect(data_, &RunDataView::runLoaded, system_panel_, &SystemPanel::showRun);
    // NVML answers at once when there is no driver; with one, after the window is up.
    QTimer::singleShot(0, system_panel_, [panel = system_panel_] {
        panel->setGpuStatus(QString::fromStdString(savepoint::gpu_status_line(savepoint::GpuSelector{{}, 0})));
    });

    RunComparisonView::Widgets cw;
    cw.run_view = run_view_;
    cw.runs = runs_;
    cw.run_proxy = run_proxy_;
    cw.plots = plots_;
    cw.plot = compare_plot_;
    cw.table = compare_table_;
    cw.dock = compare_dock_;
    cw.checkpoint_dock = checkpoint_dock_;
    compare_ = new RunComparisonView(home_, cw, this);
    connect(compare_, &RunComparisonView::singleRunSelected, data_, &RunDataView::selectRun);
    connect(compare_, &RunComparisonView::errorMessage, this, &MainWindow::showError);
}

// The run selected when the window last closed, else the first one listed.
void MainWindow::selectInitialRun() {
    if (runs_->rowCount() > 0 && data_->viewedRunId() == 0) {
        const QString last = settings_->value(QStringLiteral("ui/selectedRun")).toString();
        qint64 id = runs_->runAt(0)->run.id;
        for (int r = 0; r < runs_->rowCount(); ++r)
            if (QString::fromStdString(runs_->runAt(r)->run.name) == last) id = runs_->runAt(r)->run.id;
        data_->selectRun(id);
    }
}

// The tab reads "Checkpoints · resnet.pt": which network these files hold.
void MainWindow::nameCheckpointDock(qint64 run_id) {
    const auto run = reg_ ? reg_->run_by_id(run_id) : std::nullopt;
    const QString model = run ? QFileInfo(RunListModel::modelOf(*run)).fileName() : QString();
    checkpoint_dock_->setWindowTitle(model.isEmpty() ? tr("Checkpoints") : tr("Checkpoints · %1").arg(model));
}

void MainWindow::setConfirmHandler(Confirm c) {
    confirm_ = c;
    training_->setConfirmHandler(c);
    data_->setConfirmHandler(std::move(c));
}

void MainWindow::setDirectoryChooser(ChooseDirectory c) { training_->setDirectoryChooser(std::move(c)); }

TrainerWorker* MainWindow::worker() const { return training_->worker(); }

std::int64_t MainWindow::selectedRunId() const { return data_->viewedRunId(); }

// --- the window's own actions -------------------------------------------------------

void MainWindow::openRemoteRuns(const QString& given) {
    QString uri = given;
    QString problem;
    while (uri.isEmpty() || !(problem = checkRemoteUri(uri, true)).isEmpty()) {
        if (!given.isEmpty()) return showError(problem);
        bool ok = false;
        const QString label = tr("Runs under this address are downloaded into this window's home, every file checked "
                                 "against its SHA-256 first:") +
                              (problem.isEmpty() ? QString() : QStringLiteral("\n\n") + problem);
        uri = QInputDialog::getText(this, tr("Open runs from remote storage"), label, QLineEdit::Normal,
                                    uri.isEmpty() ? QStringLiteral("s3://") : uri, &ok)
                  .trimmed();
        if (!ok) return;
        if (uri.isEmpty()) uri = QStringLiteral("s3://");
    }
    remote_->pull(uri);
}

// --- settings, actions, messages ---------------------------------------------------

void MainWindow::setLanguage(const QString& code) {
    settings_->setValue(QStringLiteral("ui/language"), code);
    banner_->showMessage(Banner::Kind::Info, tr("The language changes the next time Savepoint starts."));
}

QAction* MainWindow::action(const QString& name) const { return actions_.value(name); }

void MainWindow::loadSettings() {
    QSettings& s = *settings_;
    if (!restoreGeometry(s.value(QStringLiteral("ui/geometry")).toByteArray())) {
        // First start: the size the layout is made for, or most of a smaller screen.
        const QRect avail = screen() ? screen()->availableGeometry() : QRect(0, 0, 1560, 960);
        const QSize size(std::min(1560, avail.width() * 9 / 10), std::min(960, avail.height() * 9 / 10));
        resize(size);
        move(avail.center() - QPoint(size.width() / 2, size.height() / 2));
    }
    restoreState(s.value(QStringLiteral("ui/state")).toByteArray());
    compare_dock_->setVisible(false);  // a window closed while comparing opens on one run
    // The docks' shares of the window, not the pixels restoreState put back.
    QList<double> shares;
    for (const QVariant& v : s.value(QStringLiteral("ui/dockShares")).toList()) shares << v.toDouble();
    dock_shares_->setShares(shares);
    xmode_->setCurrentIndex(s.value(QStringLiteral("plot/xmode"), 0).toInt());
    smoothing_->setValue(s.value(QStringLiteral("plot/smoothing"), 80).toInt());
    log_loss_->setChecked(s.value(QStringLiteral("plot/logLoss"), true).toBool());
    show_raw_->setChecked(s.value(QStringLiteral("plot/showRaw"), true).toBool());
    grace_->setValue(s.value(QStringLiteral("training/graceSeconds"), 30).toInt());
    ft_panel_->setAssumedMtbfSeconds(s.value(QStringLiteral("faults/mtbfSeconds"), 3600).toDouble());
    ft_panel_->setSpotDiscount(s.value(QStringLiteral("faults/spotDiscount"), 0.7).toDouble());
    ft_panel_->setForceAssumedMtbf(s.value(QStringLiteral("faults/forceMtbf"), false).toBool());
    // Apply even when the stored values equal the widgets' defaults (no change signal then).
    plot_->setXMode(static_cast<XMode>(xmode_->currentIndex()));
    plot_->setSmoothing(smoothing_->value() / 100.0);
    plot_->setLogLoss(log_loss_->isChecked());
    plot_->setShowRaw(show_raw_->isChecked());
    smoothing_label_->setText(QLocale().toString(smoothing_->value() / 100.0, 'f', 2));
    const QString cfg = s.value(QStringLiteral("training/lastConfig")).toString();
    savepoint::TrainConfig last_config;
    if (!cfg.isEmpty()) {
        try {
            last_config = savepoint::TrainConfig::from_json(nlohmann::json::parse(cfg.toStdString()), "settings");
        } catch (const std::exception&) {
            last_config = {};
        }
    } else {
        last_config.data = "synthetic";
    }
    training_->setLastConfig(last_config);
}

void MainWindow::saveSettings() {
    QSettings& s = *settings_;
    s.setValue(QStringLiteral("ui/geometry"), saveGeometry());
    s.setValue(QStringLiteral("ui/state"), saveState());
    QVariantList shares;
    for (double v : dock_shares_->shares()) shares << v;
    s.setValue(QStringLiteral("ui/dockShares"), shares);
    s.setValue(QStringLiteral("plot/xmode"), xmode_->currentIndex());
    s.setValue(QStringLiteral("plot/smoothing"), smoothing_->value());
    s.setValue(QStringLiteral("plot/logLoss"), log_loss_->isChecked());
    s.setValue(QStringLiteral("plot/showRaw"), show_raw_->isChecked());
    s.setValue(QStringLiteral("training/graceSeconds"), grace_->value());
    s.setValue(QStringLiteral("training/lastConfig"), QString::fromStdString(training_->lastConfig().to_json().dump()));
    s.setValue(QStringLiteral("faults/mtbfSeconds"), ft_panel_->assumedMtbfSeconds());
    s.setValue(QStringLiteral("faults/spotDiscount"), ft_panel_->spotDiscount());
    s.setValue(QStringLiteral("faults/forceMtbf"), ft_panel_->forceAssumedMtbf());
    if (const RunSummary* r = runs_->runAt(runs_->rowOf(data_->viewedRunId())))
        s.setValue(QStringLiteral("ui/selectedRun"), QString::fromStdString(r->run.name));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (training_->isRunning()) {
        // After SIGTERM (handleTermination) nobody is asked: the run is being preempted already.
        if (!training_->quitWhenStopped() &&
            !confirm_(tr("Training is running"), tr("Stop training gracefully (write a checkpoint) and quit?"))) {
            e->ignore();
            return;
        }
        training_->stopAndWait();
    }
    if (job_->isRunning()) {
        if (!confirm_(tr("A data-parallel job is running"),
                      tr("Send it the preemption notice (every worker writes one checkpoint) and quit?"))) {
            e->ignore();
            return;
        }
        job_->stop();  // the job waits for its workers as the window closes
    }
    saveSettings();
    e->accept();
}

void MainWindow::updateActions() {
    const bool job = job_->isRunning();
    const bool running = training_->isRunning() || job;
    const std::int64_t view_run = data_->viewedRunId();
    const bool have_run = view_run != 0;
    for (const char* n : {"pause", "checkpoint", "crash", "crashAt"})
        actions_[QString::fromLatin1(n)]->setEnabled(training_->isRunning());
    // A job is stopped, or preempted, by the notice to all its workers; it crashes by losing one.
    for (const char* n : {"stop", "preempt"}) actions_[QString::fromLatin1(n)]->setEnabled(running);
    actions_[QStringLiteral("crash")]->setVisible(!job);
    actions_[QStringLiteral("killWorker")]->setVisible(job);
    actions_[QStringLiteral("killWorker")]->setEnabled(job);
    for (const char* n : {"resume", "resumeAt"}) actions_[QString::fromLatin1(n)]->setEnabled(have_run && !running);
    // A finished run has nothing left to resume; rolling it back (Resume at, or from a checkpoint) still works.
    const RunSummary* viewed = have_run ? runs_->runAt(runs_->rowOf(view_run)) : nullptr;
    if (viewed && viewed->run.status == savepoint::RunStatus::Finished)
        actions_[QStringLiteral("resume")]->setEnabled(false);
    actions_[QStringLiteral("newRun")]->setEnabled(!running);
    actions_[QStringLiteral("start")]->setEnabled(!running);
    updateControls();
}

void MainWindow::showError(const QString& text) {
    banner_->showMessage(Banner::Kind::Error, text);
    log(text);
}

void MainWindow::log(const QString& text) {
    log_->appendPlainText(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss  ")) + text);
}

// --- export ---------------------------------------------------------------------

void MainWindow::exportPlot(const QString& path_in) {
    QString path = path_in;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Export plot"), QStringLiteral("savepoint-plot.png"),
                                            tr("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    if (plot_->exportImage(path))
        log(tr("Plot saved to %1").arg(path));
    else
        showError(tr("Cannot write %1").arg(path));
}

void MainWindow::exportCsv(const QString& path_in) {
    QString path = path_in;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Export metrics"), QStringLiteral("savepoint-metrics.csv"),
                                            tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    const QString err = exportMetricsCsv(plot_->store(), path);
    if (err.isEmpty())
        log(tr("Metrics saved to %1").arg(path));
    else
        showError(err);
}

}  // namespace savepoint::ui
