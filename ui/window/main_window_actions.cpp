// MainWindow: the actions with their shortcuts, the two toolbars, the menus
// with their mnemonics, the first-launch hint and the demo, and what the
// actions do: the controllers' slots (connectActions).
#include "window/main_window.h"

#include "models/run_list_model.h"
#include "plot/metrics_plot.h"
#include "window/demo_script.h"
#include "window/first_launch_hint.h"
#include "window/job_controller.h"
#include "window/run_data_view.h"
#include "window/training_controller.h"
#include "window/translations_loader.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>

#include <functional>

namespace savepoint::ui {

namespace {

// The same tip everywhere the action shows (toolbar tooltip, status bar), with its shortcut.
QString tipWithShortcut(const QString& tip, const QKeySequence& key) {
    return key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText));
}

// Widgets that use Space themselves (buttons, check boxes, tables, lists, text)
// keep it: the window's Space shortcut (Pause/Continue) acts only elsewhere.
class SpaceKeeper : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::ShortcutOverride) {
            auto* k = static_cast<QKeyEvent*>(e);
            if (k->key() == Qt::Key_Space && k->modifiers() == Qt::NoModifier) e->accept();
        }
        return QObject::eventFilter(o, e);
    }
};

// Puts the second toolbar on a row of its own only when the two do not fit side
// by side: nothing ever goes into a toolbar's » overflow.
class ToolbarWrap : public QObject {
public:
    ToolbarWrap(QMainWindow* w, QToolBar* first, QToolBar* second) : QObject(w), w_(w), a_(first), b_(second) {
        w->installEventFilter(this);
    }
    bool eventFilter(QObject* o, QEvent* e) override {
        if (o == w_ && (e->type() == QEvent::Resize || e->type() == QEvent::Show || e->type() == QEvent::LayoutRequest))
            update();
        return QObject::eventFilter(o, e);
    }
    void update() {
        const int needed = a_->sizeHint().width() + b_->sizeHint().width() + 8;
        const bool wrapped = w_->toolBarBreak(b_);
        if (needed > w_->width() && !wrapped)
            w_->insertToolBarBreak(b_);
        else if (needed <= w_->width() && wrapped)
            w_->removeToolBarBreak(b_);
    }

private:
    QMainWindow* w_;
    QToolBar* a_;
    QToolBar* b_;
};

// Runs `f` when Enter is pressed in the spin box (after it has taken the typed value).
void onEnter(QSpinBox* box, QObject* context, std::function<void()> f) {
    if (auto* edit = box->findChild<QLineEdit*>())
        QObject::connect(edit, &QLineEdit::returnPressed, context, std::move(f));
}

// Gives each action of `menu` (and its submenus) a mnemonic: the first letter
// of its text not taken yet, in whatever language the text is.
void assignMnemonics(QMenu* menu) {
    QSet<QChar> used;
    const auto actions = menu->actions();
    for (QAction* a : actions) {
        const QString t = a->text();
        const int i = t.indexOf(QLatin1Char('&'));
        if (i >= 0 && i + 1 < t.size()) used.insert(t.at(i + 1).toLower());
    }
    for (QAction* a : actions) {
        if (a->menu()) assignMnemonics(a->menu());
        QString t = a->text();
        if (a->isSeparator() || t.contains(QLatin1Char('&'))) continue;
        for (int i = 0; i < t.size(); ++i)
            if (t.at(i).isLetter() && !used.contains(t.at(i).toLower())) {
                used.insert(t.at(i).toLower());
                t.insert(i, QLatin1Char('&'));
                a->setText(t);
                break;
            }
    }
}

}  // namespace

void MainWindow::buildActions() {
    auto add = [this](const QString& name, const QString& text, const QString& tip, const QKeySequence& key = {}) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setToolTip(tipWithShortcut(tip, key));
        a->setStatusTip(tip);
        if (!key.isEmpty()) a->setShortcut(key);
        actions_[name] = a;
        return a;
    };
    add(QStringLiteral("newRun"), tr("New run…"), tr("Configure and start a new training run"), QKeySequence::New);
    // Start: the New run dialog, filled with the last run's settings (starting
    // without showing them would train a run the user has not seen).
    add(QStringLiteral("start"), tr("Start…"), tr("Configure and start a new training run"), Qt::Key_F5);
    add(QStringLiteral("pause"), tr("Pause"), tr("Pause or continue training at the next step"), Qt::Key_Space);
    add(QStringLiteral("stop"), tr("Stop"), tr("Graceful stop: write a checkpoint, then stop"),
        QKeySequence(Qt::SHIFT | Qt::Key_F5));
    add(QStringLiteral("checkpoint"), tr("Checkpoint now"), tr("Write a checkpoint at the next step"),
        QKeySequence(Qt::CTRL | Qt::Key_S));
    add(QStringLiteral("crash"), tr("Simulate crash"), tr("Stop dead, as if the machine died: nothing more is saved"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
    // Checked while a crash is armed; unchecking disarms it.
    QAction* crash_at =
        add(QStringLiteral("crashAt"), tr("Crash at step"), tr("Simulate a crash after the global step set beside"));
    crash_at->setCheckable(true);
    add(QStringLiteral("preempt"), tr("Simulate preemption"),
        tr("A preemption notice: emergency checkpoint within the grace period, then stop"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    add(QStringLiteral("killWorker"), tr("Kill a worker…"),
        tr("SIGKILL one worker of the data-parallel job, as if its machine were lost"))
        ->setVisible(false);  // only while a job runs, in the crash's place
    add(QStringLiteral("resume"), tr("Resume"), tr("Resume the selected run from its latest usable checkpoint"),
        QKeySequence(Qt::CTRL | Qt::Key_R));
    add(QStringLiteral("resumeAt"), tr("Resume at"), tr("Resume (or roll back) at the epoch and step set beside"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    add(QStringLiteral("openRemote"), tr("Open runs from remote storage…"),
        tr("Download runs synced to S3-compatible storage (s3://bucket/prefix) into this home, to resume them here"));
    add(QStringLiteral("exportPlot"), tr("Export plot…"), tr("Save the plots as PNG or PDF"));
    add(QStringLiteral("exportCsv"), tr("Export metrics as CSV…"), tr("Every point, raw and smoothed"));
    add(QStringLiteral("demo"), tr("Run the demo"), tr("A one-minute synthetic run: a crash, then a rollback"));

    // The main actions, in one toolbar that fits 1024 pixels in every language.
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
    tb->addAction(actions_[QStringLiteral("killWorker")]);
    tb->addAction(actions_[QStringLiteral("preempt")]);
    tb->addSeparator();
    tb->addAction(actions_[QStringLiteral("resume")]);

    // The armed and typed positions, beside it or, in a narrow window, below it.
    auto* pos = addToolBar(tr("Positions"));
    pos->setObjectName(QStringLiteral("positionsToolbar"));
    pos->setToolButtonStyle(Qt::ToolButtonTextOnly);
    pos->addAction(crash_at);
    crash_step_ = new QSpinBox(pos);
    crash_step_->setRange(1, 1000000000);
    crash_step_->setObjectName(QStringLiteral("crashStepField"));
    crash_step_->setToolTip(tr("Global step after which the simulated crash happens"));
    pos->addWidget(crash_step_);
    grace_ = new QSpinBox(pos);
    grace_->setObjectName(QStringLiteral("graceField"));
    grace_->setRange(1, 3600);
    grace_->setValue(30);
    grace_->setPrefix(tr("grace "));
    grace_->setSuffix(tr(" s"));
    grace_->setToolTip(tr("Grace period of the preemption notice (applies to the next start or resume)"));
    pos->addWidget(grace_);
    pos->addSeparator();
    pos->addAction(actions_[QStringLiteral("resumeAt")]);
    resume_epoch_ = new QSpinBox(pos);
    resume_epoch_->setObjectName(QStringLiteral("resumeEpochField"));
    resume_epoch_->setRange(1, 1000000);
    resume_epoch_->setPrefix(tr("epoch "));
    resume_step_ = new QSpinBox(pos);
    resume_step_->setObjectName(QStringLiteral("resumeStepField"));
    resume_step_->setRange(0, 1000000000);
    resume_step_->setPrefix(tr("step "));
    pos->addWidget(resume_epoch_);
    pos->addWidget(resume_step_);
    new ToolbarWrap(this, tb, pos);
    nameForAccessibility();
}

void MainWindow::connectActions() {
    auto on = [this](const char* name, auto* receiver, auto slot) {
        connect(actions_[QString::fromLatin1(name)], &QAction::triggered, receiver, slot);
    };
    on("newRun", training_, &TrainingController::showNewRunDialog);
    on("start", training_, &TrainingController::showNewRunDialog);
    on("pause", training_, &TrainingController::togglePause);
    // A job is stopped, and preempted, by the spot notice to all its workers.
    on("stop", this, [this] { job_->isRunning() ? job_->stop() : training_->stopTraining(); });
    on("checkpoint", training_, &TrainingController::checkpointNow);
    on("crash", training_, &TrainingController::crashNow);
    on("crashAt", training_, &TrainingController::setCrashArmed);
    on("preempt", this, [this] { job_->isRunning() ? job_->stop() : training_->preempt(); });
    on("killWorker", job_, &JobController::killWorker);
    on("resume", training_, &TrainingController::resumeLatest);
    on("resumeAt", training_, &TrainingController::resumeAtTypedPosition);
    on("openRemote", this, [this] { openRemoteRuns(); });
    on("exportPlot", this, [this] { exportPlot(); });
    on("exportCsv", this, [this] { exportCsv(); });
    on("demo", this, &MainWindow::runDemo);

    auto clicked = [this](const char* name, auto* receiver, auto slot) {
        connect(checkpoint_buttons_.value(QString::fromLatin1(name)), &QPushButton::clicked, receiver, slot);
    };
    clicked("resumeHereButton", training_, &TrainingController::resumeFromSelectedCheckpoint);
    clicked("verifyButton", data_, &RunDataView::verifySelectedCheckpoint);
    clicked("pinButton", data_, &RunDataView::togglePinSelected);
    clicked("deleteButton", data_, &RunDataView::deleteSelectedCheckpoint);
    clicked("revealButton", data_, &RunDataView::revealSelectedCheckpoint);
    connect(ckpt_view_, &QTableView::doubleClicked, training_, &TrainingController::resumeFromSelectedCheckpoint);

    // Enter in a field acts: arms the crash there, or resumes there (asking first if that rolls back).
    onEnter(crash_step_, training_, [this] { training_->setCrashArmed(true); });
    for (QSpinBox* box : {resume_epoch_, resume_step_})
        onEnter(box, training_, [this] {
            if (actions_[QStringLiteral("resumeAt")]->isEnabled()) training_->resumeAtTypedPosition();
        });
}

// Names for screen readers: the plots, tables and fields have no visible label of their own.
void MainWindow::nameForAccessibility() {
    plot_->setAccessibleName(tr("Metrics plots"));
    plot_->lossPlot()->setAccessibleName(tr("Loss plot"));
    plot_->accuracyPlot()->setAccessibleName(tr("Accuracy plot"));
    run_view_->setAccessibleName(tr("Runs"));
    ckpt_view_->setAccessibleName(tr("Checkpoints"));
    log_->setAccessibleName(tr("Events"));
    crash_step_->setAccessibleName(tr("Global step after which the simulated crash happens"));
    grace_->setAccessibleName(tr("Grace period of the preemption notice (applies to the next start or resume)"));
    resume_epoch_->setAccessibleName(tr("Epoch to resume at"));
    resume_step_->setAccessibleName(tr("Step to resume at (the last completed step of that epoch)"));
    auto* keeper = new SpaceKeeper(this);
    keeper->setObjectName(QStringLiteral("spaceKeeper"));
    for (QWidget* w : findChildren<QWidget*>())
        if (qobject_cast<QAbstractButton*>(w) || qobject_cast<QAbstractItemView*>(w) || qobject_cast<QComboBox*>(w) ||
            qobject_cast<QPlainTextEdit*>(w))
            w->installEventFilter(keeper);
    for (QToolBar* tb : findChildren<QToolBar*>())
        for (QAction* a : tb->actions())
            if (QWidget* b = tb->widgetForAction(a); b && b->accessibleName().isEmpty() && !a->isSeparator())
                b->setAccessibleName(a->iconText());
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(actions_[QStringLiteral("newRun")]);
    file->addAction(actions_[QStringLiteral("openRemote")]);
    file->addSeparator();
    file->addAction(actions_[QStringLiteral("exportPlot")]);
    file->addAction(actions_[QStringLiteral("exportCsv")]);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* train = menuBar()->addMenu(tr("&Training"));
    train->setObjectName(QStringLiteral("trainingMenu"));
    train->addAction(actions_[QStringLiteral("start")]);
    train->addSeparator();
    for (const char* n :
         {"pause", "stop", "checkpoint", "crash", "killWorker", "crashAt", "preempt", "resume", "resumeAt"})
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
    help->addAction(actions_[QStringLiteral("demo")]);
    help->addAction(tr("About Savepoint"), this, [this] {
        QMessageBox::about(
            this, tr("About Savepoint"),
            tr("<b>Savepoint %1</b><br>Watch, interrupt, roll back and resume neural-network training.<br>"
               "Home: %2")
                .arg(QApplication::applicationVersion(), home_));
    });
    for (QMenu* m : {file, train, view, settings, help}) assignMnemonics(m);
}

// What the actions show beyond enabled or not: Pause or Continue, the armed
// crash, and the first-launch hint (no run yet, none training).
void MainWindow::updateControls() {
    QAction* pause = actions_[QStringLiteral("pause")];
    const QString text = training_->isPaused() ? tr("Continue") : tr("Pause");
    if (QString(pause->text()).remove(QLatin1Char('&')) != text) {
        pause->setText(text);
        if (auto* m = findChild<QMenu*>(QStringLiteral("trainingMenu"))) assignMnemonics(m);
    }
    actions_[QStringLiteral("crashAt")]->setEnabled(true);  // armed while idle, it applies to the next start or resume
    if (first_launch_) first_launch_->setVisible(runs_->rowCount() == 0 && !training_->isRunning());
}

void MainWindow::createFirstLaunchHint() {
    first_launch_ = new FirstLaunchHint(plot_);
    connect(first_launch_, &FirstLaunchHint::newRunClicked, training_, &TrainingController::showNewRunDialog);
    connect(first_launch_, &FirstLaunchHint::demoClicked, this, &MainWindow::runDemo);
    if (QObject* keeper = findChild<QObject*>(QStringLiteral("spaceKeeper")))
        for (QWidget* b : first_launch_->findChildren<QPushButton*>()) b->installEventFilter(keeper);
    connect(training_, &TrainingController::crashArmChanged, this, [this](qint64 step) {
        actions_[QStringLiteral("crashAt")]->setChecked(step != 0);
        plot_->setArmedCrashStep(step);
    });
}

void MainWindow::runDemo() {
    if (training_->isRunning()) {
        showError(tr("A run is already training in this window; stop it first."));
        return;
    }
    auto* demo = new DemoScript(this, QString(), this);
    connect(demo, &DemoScript::done, demo, &QObject::deleteLater);
    demo->start();
}

}  // namespace savepoint::ui
