#include "main_window.h"

#include "background_jobs.h"
#include "banner.h"
#include "registry/checkpoint_list.h"
#include "checkpoint_table_model.h"
#include "fault_tolerance_panel.h"
#include "metrics_plot.h"
#include "checkpoint/recovery.h"
#include "registry/registry.h"
#include "run_list_model.h"
#include "status_bar.h"
#include "trainer_worker.h"
#include "translations_loader.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScreen>
#include <QSettings>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace savepoint::ui {

namespace {

// A hint that shows whole or not at all: a narrow window hides it instead of
// cutting it to a couple of letters (the plot's tooltip still says it).
class HintLabel : public QLabel {
public:
    using QLabel::QLabel;
    QSize minimumSizeHint() const override { return {0, QLabel::minimumSizeHint().height()}; }

protected:
    void paintEvent(QPaintEvent* e) override {
        if (fontMetrics().horizontalAdvance(text()) <= contentsRect().width()) QLabel::paintEvent(e);
    }
};

}  // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), opts_(std::move(options)), home_(opts_.home),
      ckpt_list_(std::make_unique<savepoint::CheckpointList>()) {
    setObjectName(QStringLiteral("SavepointMainWindow"));
    setWindowTitle(tr("Savepoint — %1").arg(home_));
    settings_ = opts_.settings_path.isEmpty() ? std::make_unique<QSettings>()
                                              : std::make_unique<QSettings>(opts_.settings_path, QSettings::IniFormat);
    confirm_ = [this](const QString& title, const QString& text) {
        return QMessageBox::question(this, title, text, QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) ==
               QMessageBox::Yes;
    };
    choose_directory_ = [this](const QString& title, const QString& start) {
        return QFileDialog::getExistingDirectory(this, title, start);
    };
    worker_ = new TrainerWorker(this);
    jobs_ = new BackgroundJobs(this);
    buildUi();
    buildActions();
    buildMenus();

    connect(worker_, &TrainerWorker::progress, this, &MainWindow::onProgress);
    connect(worker_, &TrainerWorker::metrics, this, &MainWindow::onMetrics);
    connect(worker_, &TrainerWorker::event, this, &MainWindow::onEvent);
    connect(worker_, &TrainerWorker::checkpointSaved, this, &MainWindow::onCheckpointSaved);
    connect(worker_, &TrainerWorker::storageError, this, &MainWindow::onStorageError);
    connect(worker_, &TrainerWorker::finished, this, &MainWindow::onFinished);
    connect(worker_, &TrainerWorker::message, this, &MainWindow::log);
    connect(worker_, &TrainerWorker::pausedChanged, this, &MainWindow::updateActions);
    connect(plot_, &MetricsPlot::resumeAtStepRequested, this, &MainWindow::resumeAtGlobalStep);
    connect(plot_, &MetricsPlot::checkpointClicked, this, &MainWindow::selectCheckpoint);

    try {
        reg_ = std::make_unique<savepoint::Registry>(home_.toStdString());
        const auto report = savepoint::reconcile_registry(*reg_);
        for (const auto& a : report.actions) log(tr("Recovery: %1").arg(QString::fromStdString(a)));
    } catch (const std::exception& e) {
        showError(tr("Cannot open the registry in %1: %2").arg(home_, QString::fromUtf8(e.what())));
    }
    loadSettings();
    refresh_timer_.setObjectName(QStringLiteral("refreshTimer"));  // names show in profiles
    refresh_timer_.setInterval(1000);
    connect(&refresh_timer_, &QTimer::timeout, this, [this] {
        refreshRuns();
        refreshSelected();
    });
    refresh_timer_.start();
    preempt_timer_.setObjectName(QStringLiteral("preemptTimer"));
    preempt_timer_.setInterval(250);
    connect(&preempt_timer_, &QTimer::timeout, this, &MainWindow::tickPreemption);
    refreshRuns();
    if (runs_->rowCount() > 0 && view_run_ == 0) {
        const QString last = settings_->value(QStringLiteral("ui/selectedRun")).toString();
        qint64 id = runs_->runAt(0)->run.id;
        for (int r = 0; r < runs_->rowCount(); ++r)
            if (QString::fromStdString(runs_->runAt(r)->run.name) == last) id = runs_->runAt(r)->run.id;
        selectRun(id);
    }
    updateActions();
}

MainWindow::~MainWindow() {
    refresh_timer_.stop();
    delete jobs_;  // waits for a history read or a verification still running; drops their results
    jobs_ = nullptr;
    if (worker_->isRunning()) {
        worker_->stop();
        worker_->wait();
    }
}

void MainWindow::buildUi() {
    auto* central = new QWidget(this);
    auto* v = new QVBoxLayout(central);
    v->setContentsMargins(6, 4, 6, 2);
    v->setSpacing(4);
    banner_ = new Banner(central);
    v->addWidget(banner_);
    v->addWidget(buildPlotControls());
    plot_ = new MetricsPlot(central);
    v->addWidget(plot_, 1);
    setCentralWidget(central);

    runs_ = new RunListModel(this);
    run_proxy_ = new QSortFilterProxyModel(this);
    run_proxy_->setSourceModel(runs_);
    run_proxy_->setSortRole(RunListModel::SortRole);
    run_view_ = new QTableView(this);
    run_view_->setObjectName(QStringLiteral("runView"));
    run_view_->setModel(run_proxy_);
    run_view_->setSortingEnabled(true);
    run_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    run_view_->setSelectionMode(QAbstractItemView::SingleSelection);
    run_view_->verticalHeader()->hide();
    run_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    run_view_->horizontalHeader()->setStretchLastSection(true);
    run_view_->setAlternatingRowColors(true);
    connect(run_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
        if (!cur.isValid()) return;
        const qint64 id = run_proxy_->data(cur, RunListModel::RunIdRole).toLongLong();
        if (id != view_run_) selectRun(id);
    });
    auto* runs_dock = new QDockWidget(tr("Runs"), this);
    runs_dock->setObjectName(QStringLiteral("runsDock"));
    runs_dock->setWidget(run_view_);
    // Never squeezed to a sliver by a small window: the plot gives way first.
    runs_dock->setMinimumWidth(260);
    addDockWidget(Qt::LeftDockWidgetArea, runs_dock);

    ft_panel_ = new FaultTolerancePanel(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(ft_panel_);
    scroll->setWidgetResizable(true);
    auto* ft_dock = new QDockWidget(tr("Fault tolerance"), this);
    ft_dock->setObjectName(QStringLiteral("faultDock"));
    ft_dock->setWidget(scroll);
    ft_dock->setMinimumWidth(260);
    addDockWidget(Qt::LeftDockWidgetArea, ft_dock);
    splitDockWidget(runs_dock, ft_dock, Qt::Vertical);
    connect(ft_panel_, &FaultTolerancePanel::assumptionsChanged, this, &MainWindow::saveSettings);

    auto* ckpt_dock = new QDockWidget(tr("Checkpoints"), this);
    ckpt_dock->setObjectName(QStringLiteral("checkpointDock"));
    ckpt_dock->setWidget(buildCheckpointPane());
    addDockWidget(Qt::BottomDockWidgetArea, ckpt_dock);

    log_ = new QPlainTextEdit(this);
    log_->setObjectName(QStringLiteral("eventLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    auto* log_dock = new QDockWidget(tr("Events"), this);
    log_dock->setObjectName(QStringLiteral("eventsDock"));
    log_dock->setWidget(log_);
    addDockWidget(Qt::BottomDockWidgetArea, log_dock);
    tabifyDockWidget(ckpt_dock, log_dock);
    ckpt_dock->raise();
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);  // the left column runs full height
    resizeDocks({runs_dock, ft_dock}, {440, 440}, Qt::Horizontal);
    resizeDocks({runs_dock, ft_dock}, {170, 700}, Qt::Vertical);
    resizeDocks({ckpt_dock}, {230}, Qt::Vertical);

    status_ = new StatusBarFields(statusBar());
    connect(banner_, &Banner::actionTriggered, this, [this] {
        if (worker_->isRunning()) {
            worker_->resume();
            banner_->hide();
        } else if (preempt_done_) {
            resumeLatest();
        }
    });
}

QWidget* MainWindow::buildPlotControls() {
    auto* w = new QWidget(this);
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(new QLabel(tr("X axis:"), w));
    xmode_ = new QComboBox(w);
    xmode_->addItems({tr("Global step"), tr("Epoch"), tr("Wall-clock time")});
    h->addWidget(xmode_);
    h->addSpacing(12);
    h->addWidget(new QLabel(tr("Smoothing:"), w));
    smoothing_ = new QSlider(Qt::Horizontal, w);
    smoothing_->setRange(0, 99);
    smoothing_->setValue(80);
    smoothing_->setMaximumWidth(160);
    smoothing_->setMinimumWidth(90);  // a narrow window or longer labels (pt_BR) must not crush it to a dot
    smoothing_->setToolTip(tr("Weight of the bias-corrected exponential moving average; the raw steps stay visible behind it."));
    smoothing_label_ = new QLabel(QStringLiteral("0.80"), w);
    h->addWidget(smoothing_);
    h->addWidget(smoothing_label_);
    h->addSpacing(12);
    log_loss_ = new QCheckBox(tr("Log scale for loss"), w);
    log_loss_->setChecked(true);
    show_raw_ = new QCheckBox(tr("Show raw steps"), w);
    show_raw_->setChecked(true);
    h->addWidget(log_loss_);
    h->addWidget(show_raw_);
    auto* reset = new QPushButton(tr("Reset zoom"), w);
    reset->setToolTip(tr("Follow all data again (also: double-click the plot). Drag to pan, wheel to zoom."));
    h->addWidget(reset);
    h->addStretch(1);
    auto* hint = new HintLabel(tr("Right-click the plot to resume from a step"), w);
    hint->setStyleSheet(QStringLiteral("color: #666;"));
    // A hint, not a control: in a narrow window it is what gives way.
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    h->addWidget(hint, 1);

    connect(xmode_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        plot_->setXMode(static_cast<XMode>(i));
    });
    connect(smoothing_, &QSlider::valueChanged, this, [this](int v) {
        smoothing_label_->setText(QLocale().toString(v / 100.0, 'f', 2));
        plot_->setSmoothing(v / 100.0);
    });
    connect(log_loss_, &QCheckBox::toggled, this, [this](bool on) { plot_->setLogLoss(on); });
    connect(show_raw_, &QCheckBox::toggled, this, [this](bool on) { plot_->setShowRaw(on); });
    connect(reset, &QPushButton::clicked, this, [this] { plot_->resetView(); });
    return w;
}

QWidget* MainWindow::buildCheckpointPane() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    auto button = [&](const QString& name, const QString& text, const QString& tip, void (MainWindow::*slot)()) {
        auto* b = new QPushButton(text, w);
        b->setObjectName(name);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, slot);
        bar->addWidget(b);
        return b;
    };
    button(QStringLiteral("resumeHereButton"), tr("Resume from here"),
           tr("Continue training from the selected checkpoint; older than the head, this is a rollback onto a new branch."),
           &MainWindow::resumeFromSelectedCheckpoint);
    button(QStringLiteral("verifyButton"), tr("Verify"), tr("Check the file's size, footer and checksum (built from SHA-256s; see the README's file format)."),
           &MainWindow::verifySelectedCheckpoint);
    button(QStringLiteral("pinButton"), tr("Pin / unpin"), tr("Pinned checkpoints are never deleted by retention."),
           &MainWindow::togglePinSelected);
    button(QStringLiteral("deleteButton"), tr("Delete…"), tr("Delete the file (never the head)."),
           &MainWindow::deleteSelectedCheckpoint);
    button(QStringLiteral("revealButton"), tr("Show file"), tr("Open the folder holding the checkpoint file."),
           &MainWindow::revealSelectedCheckpoint);
    bar->addStretch(1);
    show_deleted_ = new QCheckBox(tr("Show deleted"), w);
    bar->addWidget(show_deleted_);
    v->addLayout(bar);

    ckpts_ = new CheckpointTableModel(this);
    ckpt_proxy_ = new QSortFilterProxyModel(this);
    ckpt_proxy_->setSourceModel(ckpts_);
    ckpt_proxy_->setSortRole(CheckpointTableModel::SortRole);
    ckpt_view_ = new QTableView(w);
    ckpt_view_->setObjectName(QStringLiteral("checkpointView"));
    ckpt_view_->setModel(ckpt_proxy_);
    ckpt_view_->setSortingEnabled(true);
    ckpt_view_->sortByColumn(CheckpointTableModel::GlobalStep, Qt::DescendingOrder);
    ckpt_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    ckpt_view_->setSelectionMode(QAbstractItemView::SingleSelection);
    ckpt_view_->verticalHeader()->hide();
    ckpt_view_->verticalHeader()->setDefaultSectionSize(22);
    ckpt_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    ckpt_view_->horizontalHeader()->setStretchLastSection(false);
    ckpt_view_->setAlternatingRowColors(true);
    connect(ckpt_view_, &QTableView::doubleClicked, this, &MainWindow::resumeFromSelectedCheckpoint);
    connect(show_deleted_, &QCheckBox::toggled, this, [this](bool on) {
        ckpts_->setShowDeleted(on);
        showCheckpoints();  // the table holds only the open rows while this is off
    });
    v->addWidget(ckpt_view_, 1);
    return w;
}

QAction* MainWindow::action(const QString& name) const { return actions_.value(name); }

void MainWindow::buildActions() {
    auto add = [this](const QString& name, const QString& text, const QString& tip, auto slot, const QKeySequence& key = {}) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        actions_[name] = a;
        return a;
    };
    add(QStringLiteral("newRun"), tr("New run…"), tr("Configure and start a new training run"), &MainWindow::showNewRunDialog, QKeySequence::New);
    add(QStringLiteral("pause"), tr("Pause"), tr("Pause or continue training at the next step"), &MainWindow::togglePause, Qt::Key_Space);
    add(QStringLiteral("stop"), tr("Stop"), tr("Graceful stop: write a checkpoint, then stop"), &MainWindow::stopTraining);
    add(QStringLiteral("checkpoint"), tr("Checkpoint now"), tr("Write a checkpoint at the next step"), &MainWindow::checkpointNow);
    add(QStringLiteral("crash"), tr("Simulate crash"), tr("Stop dead, as if the machine died: nothing more is saved"), &MainWindow::crashNow);
    add(QStringLiteral("crashAt"), tr("Crash at step"), tr("Simulate a crash after the global step set beside"), &MainWindow::crashAtStep);
    add(QStringLiteral("preempt"), tr("Simulate preemption"), tr("A preemption notice: emergency checkpoint within the grace period, then stop"), &MainWindow::preempt);
    add(QStringLiteral("resume"), tr("Resume"), tr("Resume the selected run from its latest usable checkpoint"), &MainWindow::resumeLatest);
    add(QStringLiteral("resumeAt"), tr("Resume at"), tr("Resume (or roll back) at the epoch and step set beside"), &MainWindow::resumeAtTypedPosition);
    add(QStringLiteral("exportPlot"), tr("Export plot…"), tr("Save the plots as PNG or PDF"), [this] { exportPlot(); });
    add(QStringLiteral("exportCsv"), tr("Export metrics as CSV…"), tr("Every point, raw and smoothed"), [this] { exportCsv(); });

    auto* tb = addToolBar(tr("Training"));
    tb->setObjectName(QStringLiteral("trainingToolbar"));
    tb->setToolButtonStyle(Qt::ToolButtonTextOnly);
    tb->addAction(actions_[QStringLiteral("newRun")]);
    tb->addSeparator();
    tb->addAction(actions_[QStringLiteral("pause")]);
    tb->addAction(actions_[QStringLiteral("stop")]);
    tb->addAction(actions_[QStringLiteral("checkpoint")]);
    tb->addSeparator();
    tb->addAction(actions_[QStringLiteral("crash")]);
    tb->addAction(actions_[QStringLiteral("crashAt")]);
    crash_step_ = new QSpinBox(tb);
    crash_step_->setRange(1, 1000000000);
    crash_step_->setToolTip(tr("Global step after which the simulated crash happens"));
    tb->addWidget(crash_step_);
    tb->addAction(actions_[QStringLiteral("preempt")]);
    grace_ = new QSpinBox(tb);
    grace_->setRange(1, 3600);
    grace_->setValue(30);
    grace_->setPrefix(tr("grace "));
    grace_->setSuffix(tr(" s"));
    grace_->setToolTip(tr("Grace period of the preemption notice (applies to the next start or resume)"));
    tb->addWidget(grace_);
    tb->addSeparator();
    tb->addAction(actions_[QStringLiteral("resume")]);
    tb->addAction(actions_[QStringLiteral("resumeAt")]);
    resume_epoch_ = new QSpinBox(tb);
    resume_epoch_->setRange(1, 1000000);
    resume_epoch_->setPrefix(tr("epoch "));
    resume_step_ = new QSpinBox(tb);
    resume_step_->setRange(0, 1000000000);
    resume_step_->setPrefix(tr("step "));
    tb->addWidget(resume_epoch_);
    tb->addWidget(resume_step_);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(actions_[QStringLiteral("newRun")]);
    file->addSeparator();
    file->addAction(actions_[QStringLiteral("exportPlot")]);
    file->addAction(actions_[QStringLiteral("exportCsv")]);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* train = menuBar()->addMenu(tr("&Training"));
    for (const char* n : {"pause", "stop", "checkpoint", "crash", "crashAt", "preempt", "resume", "resumeAt"})
        train->addAction(actions_[QString::fromLatin1(n)]);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());
    view->addAction(tr("Reset zoom"), plot_, &MetricsPlot::resetView);
    QMenu* settings = menuBar()->addMenu(tr("&Settings"));
    QMenu* lang = settings->addMenu(tr("Language"));
    auto* group = new QActionGroup(this);
    const QString current = settings_->value(QStringLiteral("ui/language"), QStringLiteral("system")).toString();
    QStringList codes{QStringLiteral("system")};
    codes << availableLanguages();
    for (const QString& code : codes) {
        QAction* a = lang->addAction(code == QLatin1String("system") ? tr("System default") : languageName(code));
        a->setCheckable(true);
        a->setChecked(code == current);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] { setLanguage(code); });
    }
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("About Savepoint"), this, [this] {
        QMessageBox::about(this, tr("About Savepoint"),
                           tr("<b>Savepoint %1</b><br>Watch, interrupt, roll back and resume neural-network training.<br>"
                              "Home: %2").arg(QApplication::applicationVersion(), home_));
    });
}

void MainWindow::setLanguage(const QString& code) {
    settings_->setValue(QStringLiteral("ui/language"), code);
    banner_->showMessage(Banner::Kind::Info, tr("The language changes the next time Savepoint starts."));
}

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
    if (!cfg.isEmpty()) {
        try {
            last_config_ = savepoint::TrainConfig::from_json(nlohmann::json::parse(cfg.toStdString()), "settings");
        } catch (const std::exception&) {
            last_config_ = {};
        }
    } else {
        last_config_.data = "synthetic";
    }
}

void MainWindow::saveSettings() {
    QSettings& s = *settings_;
    s.setValue(QStringLiteral("ui/geometry"), saveGeometry());
    s.setValue(QStringLiteral("ui/state"), saveState());
    s.setValue(QStringLiteral("plot/xmode"), xmode_->currentIndex());
    s.setValue(QStringLiteral("plot/smoothing"), smoothing_->value());
    s.setValue(QStringLiteral("plot/logLoss"), log_loss_->isChecked());
    s.setValue(QStringLiteral("plot/showRaw"), show_raw_->isChecked());
    s.setValue(QStringLiteral("training/graceSeconds"), grace_->value());
    s.setValue(QStringLiteral("training/lastConfig"), QString::fromStdString(last_config_.to_json().dump()));
    s.setValue(QStringLiteral("faults/mtbfSeconds"), ft_panel_->assumedMtbfSeconds());
    s.setValue(QStringLiteral("faults/spotDiscount"), ft_panel_->spotDiscount());
    s.setValue(QStringLiteral("faults/forceMtbf"), ft_panel_->forceAssumedMtbf());
    if (const RunSummary* r = runs_->runAt(runs_->rowOf(view_run_)))
        s.setValue(QStringLiteral("ui/selectedRun"), QString::fromStdString(r->run.name));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (worker_->isRunning()) {
        // After SIGTERM (handleTermination) nobody is asked: the run is being preempted already.
        if (!quit_when_stopped_ && !confirm_(tr("Training is running"),
                                             tr("Stop training gracefully (write a checkpoint) and quit?"))) {
            e->ignore();
            return;
        }
        worker_->stop();
        worker_->wait();
    }
    saveSettings();
    e->accept();
}

void MainWindow::updateActions() {
    const bool running = worker_->isRunning();
    const bool have_run = view_run_ != 0;
    const bool viewing_trained = running && view_run_ == train_run_;
    actions_[QStringLiteral("pause")]->setText(worker_->isPaused() ? tr("Continue") : tr("Pause"));
    for (const char* n : {"pause", "stop", "checkpoint", "crash", "crashAt", "preempt"})
        actions_[QString::fromLatin1(n)]->setEnabled(running);
    for (const char* n : {"resume", "resumeAt"}) actions_[QString::fromLatin1(n)]->setEnabled(have_run && !running);
    // A finished run has nothing left to resume; rolling it back (Resume at, or from a checkpoint) still works.
    const RunSummary* viewed = have_run ? runs_->runAt(runs_->rowOf(view_run_)) : nullptr;
    if (viewed && viewed->run.status == savepoint::RunStatus::Finished) actions_[QStringLiteral("resume")]->setEnabled(false);
    actions_[QStringLiteral("newRun")]->setEnabled(!running);
    Q_UNUSED(viewing_trained);
}

void MainWindow::showError(const QString& text) {
    banner_->showMessage(Banner::Kind::Error, text);
    log(text);
}

void MainWindow::log(const QString& text) {
    log_->appendPlainText(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss  ")) + text);
}

namespace {
QString eventKey(const savepoint::EventRow& e) {
    return QString::fromLatin1(to_string(e.kind)) + QLatin1Char('|') + QString::number(e.global_step) + QLatin1Char('|') +
           QString::fromStdString(e.message);
}
}  // namespace

void MainWindow::logEvent(const savepoint::EventRow& e) {
    if (e.run_id == events_shown_for_ && history_keys_.contains(eventKey(e))) return;  // listed with the history
    // Live events are reported before the I/O thread stamps them.
    const QDateTime at = e.created_at > 0 ? QDateTime::fromMSecsSinceEpoch(qint64(e.created_at * 1000))
                                          : QDateTime::currentDateTime();
    // Today's events by time alone, older ones with their date.
    const QString stamp = at.date() == QDate::currentDate() ? at.toString(QStringLiteral("HH:mm:ss"))
                                                            : at.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    log_->appendPlainText(stamp + QStringLiteral("  [") + QString::fromLatin1(to_string(e.kind)) + QStringLiteral("] ") +
                          QString::fromStdString(e.message));
}

void MainWindow::showEventHistory(std::int64_t run_id) {
    if (!reg_ || run_id == events_shown_for_) return;
    std::vector<savepoint::EventRow> events;
    std::optional<savepoint::RunRow> run;
    try {
        run = reg_->run_by_id(run_id);
        events = reg_->events(run_id);
    } catch (const std::exception& e) {
        showError(tr("Cannot read the registry: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    if (!run) return;
    log_->clear();
    events_shown_for_ = 0;
    history_keys_.clear();
    log_->appendPlainText(tr("Run “%1”: %n event(s) recorded in the registry", nullptr, int(events.size()))
                              .arg(QString::fromStdString(run->name)));
    for (const auto& e : events) logEvent(e);
    for (const auto& e : events) history_keys_.insert(eventKey(e));
    events_shown_for_ = run_id;
}

}  // namespace savepoint::ui
