// MainWindow: starting and resuming training, the commands sent to the
// running trainer, and what the worker reports back.
#include "main_window.h"

#include "banner.h"
#include "checkpoint_table_model.h"
#include "data/data_order.h"
#include "data/dataset.h"
#include "metrics_plot.h"
#include "new_run_dialog.h"
#include "registry/registry.h"
#include "run_list_model.h"
#include "status_bar.h"
#include "trainer_worker.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QSpinBox>
#include <QTableView>

#include <csignal>

namespace savepoint::ui {

savepoint::TrainRequest MainWindow::baseRequest(const QString& name) const {
    savepoint::TrainRequest r;
    r.home = home_.toStdString();
    r.run_name = name.toStdString();
    r.preempt_grace_seconds = grace_->value();
    return r;
}

void MainWindow::showNewRunDialog() {
    QSet<QString> names;
    for (int i = 0; i < runs_->rowCount(); ++i) names.insert(QString::fromStdString(runs_->runAt(i)->run.name));
    auto* dlg = new NewRunDialog(names, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setConfig(last_config_);
    connect(dlg, &QDialog::accepted, this, [this, dlg] { startRun(dlg->runName(), dlg->config()); });
    dlg->open();
}

bool MainWindow::startRun(const QString& name, const savepoint::TrainConfig& config) {
    if (worker_->isRunning()) {
        showError(tr("A run is already training in this window; stop it first."));
        return false;
    }
    savepoint::TrainRequest r = baseRequest(name);
    r.config = config;
    last_config_ = config;
    saveSettings();
    banner_->hide();
    train_run_ = 0;
    log(tr("Starting run “%1”…").arg(name));
    worker_->start(r);
    updateActions();
    return true;
}

bool MainWindow::resumeRun(const QString& name, const savepoint::ResumeTarget& target) {
    if (worker_->isRunning()) {
        showError(tr("A run is already training in this window; stop it before resuming."));
        return false;
    }
    savepoint::TrainRequest r = baseRequest(name);
    r.resume = true;
    r.target = target;
    if (!locateDataset(name, r.data_override)) return false;
    banner_->hide();
    preempt_timer_.stop();
    preempt_done_ = false;
    train_run_ = view_run_;
    log(tr("Resuming run “%1”…").arg(name));
    worker_->start(r);
    updateActions();
    return true;
}

// A run trained on a dataset directory that has since moved: ask where it is
// now, as `savepoint-cli resume --data NEW_DIR` does. The engine checks what
// is found there against the SHA-256s the run recorded, so a wrong directory
// is refused (naming the file) before anything is written. False: cancelled.
bool MainWindow::locateDataset(const QString& name, std::string& data_override) {
    if (!reg_) return true;
    const auto run = reg_->find_run(name.toStdString());
    if (!run) return true;  // the engine says the run does not exist
    std::string data;
    try {
        data = savepoint::TrainConfig::from_json(nlohmann::json::parse(run->config_json), "registry").data;
    } catch (const std::exception&) {
        return true;  // the engine names what is wrong with the stored config
    }
    const QString recorded = QString::fromStdString(data);
    if (savepoint::is_builtin_dataset(data) || QFileInfo(recorded).isDir()) return true;
    log(tr("Run “%1” was trained on the dataset in %2, which is not there any more.").arg(name, recorded));
    QDir start(recorded);
    while (!start.isRoot() && !start.exists()) start.setPath(QFileInfo(start.path()).path());
    const QString chosen =
        choose_directory_(tr("Where is the dataset of run “%1” now? (It was in %2)").arg(name, recorded), start.path());
    if (chosen.isEmpty()) {
        showError(tr("Not resumed: run “%1” was trained on the dataset in %2, which is not there any more. Resume "
                     "again and choose the folder it moved to.").arg(name, recorded));
        return false;
    }
    data_override = QFileInfo(chosen).absoluteFilePath().toStdString();
    log(tr("Resuming run “%1” on the dataset in %2 (checked against what it was trained on).").arg(name, chosen));
    return true;
}

static QString runName(RunListModel* m, std::int64_t id) {
    const RunSummary* r = m->runAt(m->rowOf(id));
    return r ? QString::fromStdString(r->run.name) : QString();
}

void MainWindow::resumeLatest() {
    if (view_run_ == 0) return;
    resumeRun(runName(runs_, view_run_), {});
}

void MainWindow::resumeFromSelectedCheckpoint() {
    const auto c = selectedCheckpoint();
    if (!c) {
        showError(tr("Select a checkpoint in the table first."));
        return;
    }
    if (!ckpts_->isUsable(c->id)) {
        showError(tr("Checkpoint #%1 is damaged (%2) and cannot be resumed from; pick another one.")
                      .arg(c->id)
                      .arg(CheckpointTableModel::stateText(QString::fromLatin1(to_string(c->state)))));
        return;
    }
    if (!ckpts_->isHead(c->id) &&
        !confirm_(tr("Roll back?"), tr("Resume from checkpoint #%1 (epoch %2, step %3)? It is older than the head, so "
                                       "training continues on a new branch; the current branch stays visible.")
                                        .arg(c->id).arg(c->epoch).arg(c->step)))
        return;
    savepoint::ResumeTarget t;
    t.checkpoint_id = c->id;
    resumeRun(runName(runs_, view_run_), t);
}

void MainWindow::resumeAtTypedPosition() {
    if (view_run_ == 0) return;
    savepoint::ResumeTarget t;
    t.epoch = resume_epoch_->value();
    t.step = resume_step_->value();
    resumeRun(runName(runs_, view_run_), t);
}

void MainWindow::resumeAtGlobalStep(qint64 gs) {
    if (view_run_ == 0 || worker_->isRunning()) {
        showError(tr("Stop the training first, then resume from a point on the plot."));
        return;
    }
    const savepoint::Position p = savepoint::position_of(gs, view_spe_);
    if (!confirm_(tr("Resume from the plot?"),
                  tr("Resume at epoch %1, step %2 (global step %3)? Training restarts from the nearest checkpoint "
                     "before it and replays the steps in between; later steps stay on the old branch.")
                      .arg(p.epoch).arg(p.step).arg(gs)))
        return;
    resume_epoch_->setValue(int(p.epoch));
    resume_step_->setValue(int(p.step));
    resumeAtTypedPosition();
}

void MainWindow::togglePause() {
    if (!worker_->isRunning()) return;
    if (worker_->isPaused())
        worker_->resume();
    else
        worker_->pause();
}

void MainWindow::stopTraining() {
    log(tr("Stopping: writing a checkpoint, then stopping…"));
    worker_->stop();
}

void MainWindow::crashNow() {
    log(tr("Simulating a crash now."));
    worker_->crashNow();
}

void MainWindow::crashAtStep() {
    log(tr("A crash will be simulated after global step %1.").arg(crash_step_->value()));
    worker_->crashAt(crash_step_->value());
}

void MainWindow::checkpointNow() { worker_->checkpointNow(); }

void MainWindow::preempt() {
    if (!worker_->isRunning()) return;
    preempt_deadline_ = savepoint::now_seconds() + grace_->value();
    preempt_done_ = false;
    preempt_result_.clear();
    worker_->preempt();
    tickPreemption();
    preempt_timer_.start();
}

void MainWindow::handleTermination(int signal) {
    const QString name = signal == SIGINT ? QStringLiteral("SIGINT") : QStringLiteral("SIGTERM");
    quit_when_stopped_ = worker_->isRunning();
    // A dialog waiting for an answer (the close confirmation among them) would
    // hold the window open: nobody is there to answer it.
    if (QWidget* modal = QApplication::activeModalWidget()) modal->close();
    if (!quit_when_stopped_) {
        log(tr("%1 received: closing.").arg(name));
        close();
        return;
    }
    log(tr("%1 received: a preemption notice. Savepoint closes once the emergency checkpoint is written.").arg(name));
    preempt();
}

void MainWindow::tickPreemption() {
    const double left = std::max(0.0, preempt_deadline_ - savepoint::now_seconds());
    const QString count = tr("%1 s").arg(int(std::ceil(left)));
    if (!preempt_done_) {
        banner_->showMessage(Banner::Kind::Warning,
                             tr("<b>Preemption notice.</b> The instance will be reclaimed in <b>%1</b>. "
                                "Writing an emergency checkpoint…").arg(count));
    } else if (left > 0) {
        banner_->showMessage(Banner::Kind::Warning,
                             tr("<b>Preempted.</b> %1<br>The instance would be reclaimed in <b>%2</b>.").arg(preempt_result_, count),
                             tr("Resume"));
    } else {
        preempt_timer_.stop();
        banner_->showMessage(Banner::Kind::Info,
                             tr("<b>Instance reclaimed.</b> %1<br>Resume to continue from the emergency checkpoint.").arg(preempt_result_),
                             tr("Resume"));
    }
}

// --- worker reports -----------------------------------------------------------

void MainWindow::onProgress(const savepoint::Progress& p) {
    last_progress_ = p;
    status_->setProgress(p);
    if (train_run_ != p.run_id) {
        train_run_ = p.run_id;
        refreshRuns();
        if (view_run_ != p.run_id) selectRun(p.run_id);
    }
    runs_->setLive(p.run_id, worker_->isPaused() || p.phase == "paused" ? savepoint::RunStatus::Paused : savepoint::RunStatus::Running,
                   p.global_step, p.loss, p.accuracy);
    if (crash_step_->value() <= p.global_step) crash_step_->setValue(int(p.global_step + 10));
}

void MainWindow::onMetrics(const MetricBatch& rows) {
    if (rows.empty() || train_run_ == 0 || train_run_ != view_run_) return;
    if (loading_) {
        pending_live_.insert(pending_live_.end(), rows.begin(), rows.end());
        return;
    }
    ensureBranches(rows);
    plot_->appendMetrics(rows);
}

void MainWindow::onEvent(const savepoint::EventRow& e) {
    using savepoint::EventKind;
    if (train_run_ != e.run_id) {
        train_run_ = e.run_id;
        refreshRuns();
        if (view_run_ != e.run_id) selectRun(e.run_id);  // its history first, then this event
    }
    logEvent(e);
    if (e.run_id == view_run_ && !loading_) {
        plot_->addEvent(e);
        if (e.id > last_event_id_) last_event_id_ = e.id;
    }
    if (e.kind == EventKind::Rollback || e.kind == EventKind::Resume) checkpoints_dirty_ = true;
    if (e.kind == EventKind::Error) showError(QString::fromStdString(e.message));
}

void MainWindow::onCheckpointSaved(const savepoint::CheckpointRow& row) {
    checkpoints_dirty_ = true;
    status_->setLastCheckpointAt(row.created_at > 0 ? row.created_at : savepoint::now_seconds());
}

void MainWindow::onStorageError(const QString& text) {
    banner_->showMessage(Banner::Kind::Error,
                         tr("<b>A checkpoint could not be written:</b> %1<br>Training is paused; the previous checkpoint "
                            "and the registry are intact. Free some space, then continue.").arg(text.toHtmlEscaped()),
                         tr("Continue"));
}

void MainWindow::onFinished(const WorkerOutcome& o) {
    const QString msg = QString::fromStdString(o.message);
    if (o.threw) {
        showError(tr("Training could not run: %1").arg(msg.toHtmlEscaped()));
    } else {
        switch (o.outcome) {
        case savepoint::Outcome::Crashed:
            banner_->showMessage(Banner::Kind::Warning,
                                 tr("<b>Crashed</b> (simulated): %1. Resume from the latest checkpoint, or pick one "
                                    "in the table.").arg(msg.toHtmlEscaped()), tr("Resume"));
            preempt_done_ = true;  // the banner's button resumes
            break;
        case savepoint::Outcome::Preempted:
            preempt_done_ = true;
            preempt_result_ = msg.toHtmlEscaped();
            if (!preempt_timer_.isActive()) preempt_deadline_ = savepoint::now_seconds();
            tickPreemption();
            break;
        case savepoint::Outcome::Failed: showError(tr("Training failed: %1").arg(msg.toHtmlEscaped())); break;
        case savepoint::Outcome::Stopped: log(tr("Stopped: %1").arg(msg)); break;
        case savepoint::Outcome::Finished:
        case savepoint::Outcome::NothingToDo:
            banner_->showMessage(Banner::Kind::Info, tr("Finished: %1").arg(msg.toHtmlEscaped()));
            break;
        }
    }
    status_->setIdle(QString::fromStdString(last_progress_.device));
    checkpoints_dirty_ = true;
    refreshRuns();
    refreshSelected();
    updateActions();
    if (quit_when_stopped_) close();
}

}  // namespace savepoint::ui
