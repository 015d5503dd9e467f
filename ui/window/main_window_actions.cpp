// MainWindow: the actions with their toolbar, and the menus; what the actions
// do is wired in main_window.cpp.
#include "window/main_window.h"

#include "plot/metrics_plot.h"
#include "window/translations_loader.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>
#include <QToolBar>

namespace savepoint::ui {

void MainWindow::buildActions() {
    auto add = [this](const QString& name, const QString& text, const QString& tip, auto slot,
                      const QKeySequence& key = {}) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        actions_[name] = a;
        return a;
    };
    add(QStringLiteral("newRun"), tr("New run…"), tr("Configure and start a new training run"),
        &MainWindow::showNewRunDialog, QKeySequence::New);
    add(QStringLiteral("pause"), tr("Pause"), tr("Pause or continue training at the next step"),
        &MainWindow::togglePause, Qt::Key_Space);
    add(QStringLiteral("stop"), tr("Stop"), tr("Graceful stop: write a checkpoint, then stop"),
        &MainWindow::stopTraining);
    add(QStringLiteral("checkpoint"), tr("Checkpoint now"), tr("Write a checkpoint at the next step"),
        &MainWindow::checkpointNow);
    add(QStringLiteral("crash"), tr("Simulate crash"), tr("Stop dead, as if the machine died: nothing more is saved"),
        &MainWindow::crashNow);
    add(QStringLiteral("crashAt"), tr("Crash at step"), tr("Simulate a crash after the global step set beside"),
        &MainWindow::crashAtStep);
    add(QStringLiteral("preempt"), tr("Simulate preemption"),
        tr("A preemption notice: emergency checkpoint within the grace period, then stop"), &MainWindow::preempt);
    add(QStringLiteral("resume"), tr("Resume"), tr("Resume the selected run from its latest usable checkpoint"),
        &MainWindow::resumeLatest);
    add(QStringLiteral("resumeAt"), tr("Resume at"), tr("Resume (or roll back) at the epoch and step set beside"),
        &MainWindow::resumeAtTypedPosition);
    add(QStringLiteral("exportPlot"), tr("Export plot…"), tr("Save the plots as PNG or PDF"), [this] { exportPlot(); });
    add(QStringLiteral("exportCsv"), tr("Export metrics as CSV…"), tr("Every point, raw and smoothed"),
        [this] { exportCsv(); });

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
        QMessageBox::about(
            this, tr("About Savepoint"),
            tr("<b>Savepoint %1</b><br>Watch, interrupt, roll back and resume neural-network training.<br>"
               "Home: %2")
                .arg(QApplication::applicationVersion(), home_));
    });
}

}  // namespace savepoint::ui
