#include "window/training_controller.h"

#include "bridge/trainer_worker.h"
#include "data/data_order.h"
#include "data/dataset.h"
#include "models/checkpoint_table_model.h"
#include "models/run_list_model.h"
#include "registry/registry.h"
#include "training/branch_lr.h"
#include "training/resume_plan.h"
#include "training/run_settings.h"
#include "window/banner.h"
#include "window/live_run_state.h"
#include "window/new_run_dialog.h"
#include "window/rollback_dialog.h"
#include "window/setting_words.h"
#include "window/status_bar.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSet>
#include <QSpinBox>

#include <cmath>
#include <csignal>

namespace savepoint::ui {

TrainingController::TrainingController(savepoint::Registry* reg, QString home, const Widgets& w, LiveRunState& live,
                                       QObject* parent)
    : QObject(parent),
      reg_(reg),
      home_(std::move(home)),
      live_(live),
      window_(w.window),
      settings_(w.settings),
      runs_(w.runs),
      ckpts_(w.ckpts),
      ckpt_view_(w.ckpt_view),
      banner_(w.banner),
      status_(w.status),
      crash_step_(w.crash_step),
      grace_(w.grace),
      resume_epoch_(w.resume_epoch),
      resume_step_(w.resume_step) {
    worker_ = new TrainerWorker(this);
    live_.setWorker(worker_);
    connect(worker_, &TrainerWorker::progress, this, &TrainingController::onProgress);
    connect(worker_, &TrainerWorker::metrics, this, &TrainingController::onMetrics);
    connect(worker_, &TrainerWorker::event, this, &TrainingController::onEvent);
    connect(worker_, &TrainerWorker::checkpointSaved, this, &TrainingController::onCheckpointSaved);
    connect(worker_, &TrainerWorker::storageError, this, &TrainingController::onStorageError);
    connect(worker_, &TrainerWorker::finished, this, &TrainingController::onFinished);
    connect(worker_, &TrainerWorker::message, this, &TrainingController::message);
    connect(worker_, &TrainerWorker::pausedChanged, this, &TrainingController::actionsChanged);
    preempt_timer_.setObjectName(QStringLiteral("preemptTimer"));
    preempt_timer_.setInterval(250);
    connect(&preempt_timer_, &QTimer::timeout, this, &TrainingController::tickPreemption);
}

TrainingController::~TrainingController() { stopAndWait(); }

bool TrainingController::isRunning() const { return worker_->isRunning(); }

bool TrainingController::isPaused() const { return worker_->isPaused(); }

void TrainingController::stopAndWait() {
    if (worker_->isRunning()) {
        worker_->stop();
        worker_->wait();
    }
}

savepoint::TrainRequest TrainingController::baseRequest(const QString& name) const {
    savepoint::TrainRequest r;
    r.home = home_.toStdString();
    r.run_name = name.toStdString();
    r.preempt_grace_seconds = grace_->value();
    r.interrupt_at_step = armed_crash_;
    return r;
}

void TrainingController::showNewRunDialog() {
    QSet<QString> names;
    for (int i = 0; i < runs_->rowCount(); ++i) names.insert(QString::fromStdString(runs_->runAt(i)->run.name));
    auto* dlg = new NewRunDialog(names, *settings_, window_);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setConfig(last_config_);
    dlg->setParallel(last_parallel_);
    dlg->setRemote(last_remote_);
    connect(dlg, &QDialog::accepted, this, [this, dlg] {
        last_parallel_ = dlg->parallel();
        last_remote_ = dlg->remote();
        if (last_parallel_.workers <= 1) {
            const QString name = dlg->runName();
            const savepoint::TrainConfig config = dlg->config();
            if (!remote_gate_ || !remote_gate_(name, last_remote_, [this, name, config] { startRun(name, config); }))
                startRun(name, config);
            return;
        }
        last_config_ = dlg->config();
        Q_EMIT settingsChanged();
        Q_EMIT dataParallelRequested(dlg->runName(), dlg->config(), last_parallel_);
    });
    dlg->open();
}

bool TrainingController::startRun(const QString& name, const savepoint::TrainConfig& config) {
    if (worker_->isRunning()) {
        showError(tr("A run is already training in this window; stop it first."));
        return false;
    }
    savepoint::TrainRequest r = baseRequest(name);
    r.config = config;
    last_config_ = config;
    Q_EMIT settingsChanged();
    banner_->hide();
    divergence_.reset();
    remedy_.reset();
    refused_start_ = name;
    live_.expectRun(0);
    log(tr("Starting run “%1”…").arg(name));
    worker_->start(r);
    updateActions();
    return true;
}

bool TrainingController::resumeRun(const QString& name, const savepoint::ResumeTarget& target) {
    return startResume(name, target, std::nullopt);
}

bool TrainingController::startResume(const QString& name, const savepoint::ResumeTarget& target,
                                     std::optional<double> lr) {
    if (worker_->isRunning()) {
        showError(tr("A run is already training in this window; stop it before resuming."));
        return false;
    }
    if (remote_gate_ && remote_gate_(name, {}, [this, name, target, lr] { startResume(name, target, lr); }))
        return true;
    savepoint::TrainRequest r = baseRequest(name);
    r.resume = true;
    r.target = target;
    r.lr_override = lr;
    if (!locateDataset(name, r.data_override)) return false;
    banner_->hide();
    divergence_.reset();
    remedy_.reset();
    refused_start_.clear();  // a resume: "Train on the CPU" has no new run to start
    preempt_timer_.stop();
    preempt_done_ = false;
    live_.expectRun(live_.viewedRunId());
    log(tr("Resuming run “%1”…").arg(name));
    worker_->start(r);
    updateActions();
    return true;
}

// A run trained on a dataset directory that has since moved: ask where it is
// now, as `savepoint-cli resume --data NEW_DIR` does. The engine checks what
// is found there against the SHA-256s the run recorded, so a wrong directory
// is refused (naming the file) before anything is written. False: cancelled.
bool TrainingController::locateDataset(const QString& name, std::string& data_override) {
    if (!reg_) return true;
    const auto run = reg_->find_run(name.toStdString());
    if (!run) return true;  // the engine says the run does not exist
    const auto settings = savepoint::try_run_settings(*run);
    if (!settings) return true;  // the engine names what is wrong with the stored config
    const std::string& data = settings->data;
    const QString recorded = QString::fromStdString(data);
    if (savepoint::is_builtin_dataset(data) || QFileInfo(recorded).isDir()) return true;
    log(tr("Run “%1” was trained on the dataset in %2, which is not there any more.").arg(name, recorded));
    QDir start(recorded);
    while (!start.isRoot() && !start.exists()) start.setPath(QFileInfo(start.path()).path());
    const QString chosen =
        choose_directory_(tr("Where is the dataset of run “%1” now? (It was in %2)").arg(name, recorded), start.path());
    if (chosen.isEmpty()) {
        showError(tr("Not resumed: run “%1” was trained on the dataset in %2, which is not there any more. Resume "
                     "again and choose the folder it moved to.")
                      .arg(name, recorded));
        return false;
    }
    data_override = QFileInfo(chosen).absoluteFilePath().toStdString();
    log(tr("Resuming run “%1” on the dataset in %2 (checked against what it was trained on).").arg(name, chosen));
    return true;
}

namespace {
QString runName(RunListModel* m, std::int64_t id) {
    const RunSummary* r = m->runAt(m->rowOf(id));
    return r ? QString::fromStdString(r->run.name) : QString();
}
}  // namespace

void TrainingController::resumeLatest() {
    if (live_.viewedRunId() == 0) return;
    resumeRun(runName(runs_, live_.viewedRunId()), {});
}

void TrainingController::resumeFromSelectedCheckpoint() {
    const auto c = ckpts_->currentIn(*ckpt_view_);
    if (!c) {
        showError(tr("Select a checkpoint in the table first."));
        return;
    }
    if (!ckpts_->isUsable(c->id)) {
        showError(tr("Checkpoint #%1 is damaged (%2) and cannot be resumed from; pick another one.")
                      .arg(c->id)
                      .arg(CheckpointTableModel::stateText(c->state)));
        return;
    }
    savepoint::ResumeTarget t;
    t.checkpoint_id = c->id;
    if (!confirmRollback(t, c->global_step)) return;
    resumeRun(runName(runs_, live_.viewedRunId()), t);
}

void TrainingController::resumeAtTypedPosition() {
    if (live_.viewedRunId() == 0) return;
    savepoint::ResumeTarget t;
    t.epoch = resume_epoch_->value();
    t.step = resume_step_->value();
    const std::int64_t gs = savepoint::global_step_of(*t.epoch, *t.step, live_.viewedStepsPerEpoch());
    if (!confirmRollback(t, gs)) return;
    resumeRun(runName(runs_, live_.viewedRunId()), t);
}

void TrainingController::resumeAtGlobalStep(qint64 gs) {
    if (live_.viewedRunId() == 0 || worker_->isRunning()) {
        showError(tr("Stop the training first, then resume from a point on the plot."));
        return;
    }
    const savepoint::Position p = savepoint::position_of(gs, live_.viewedStepsPerEpoch());
    resume_epoch_->setValue(int(p.epoch));
    resume_step_->setValue(int(p.step));
    resumeAtTypedPosition();
}

bool TrainingController::confirmRollback(const savepoint::ResumeTarget& target, std::int64_t target_gs) {
    if (!reg_) return true;
    const auto run = reg_->run_by_id(live_.viewedRunId());
    if (!run) return true;  // the engine says what is wrong
    if (!savepoint::is_rollback(*run, savepoint::head_global_step(*reg_, *run), target)) return true;
    const savepoint::Position p = savepoint::position_of(target_gs, live_.viewedStepsPerEpoch());
    const QLocale l;
    const int past = int(std::max<std::int64_t>(0, run->global_step - target_gs));
    return confirm_(
        tr("Roll back?"),
        tr("Resume at epoch %1, step %2 (global step %3)? This starts a new branch; the current branch, "
           "with %Ln step(s) past this point, stays in history.",
           nullptr, past)
            .arg(l.toString(qlonglong(p.epoch)), l.toString(qlonglong(p.step)), l.toString(qlonglong(target_gs))));
}

void TrainingController::togglePause() {
    if (!worker_->isRunning()) return;
    if (worker_->isPaused())
        worker_->resume();
    else
        worker_->pause();
}

void TrainingController::stopTraining() {
    log(tr("Stopping: writing a checkpoint, then stopping…"));
    worker_->stop();
}

void TrainingController::crashNow() {
    log(tr("Simulating a crash now."));
    worker_->crashNow();
}

void TrainingController::crashAtStep() { setCrashArmed(true); }

void TrainingController::armCrashAt(qint64 global_step) {
    crash_step_->setValue(int(global_step));
    setCrashArmed(true);
}

void TrainingController::setCrashArmed(bool armed) {
    const std::int64_t step = armed ? crash_step_->value() : 0;
    if (step == armed_crash_) return;
    armed_crash_ = step;
    if (worker_->isRunning()) worker_->crashAt(step);  // 0 disarms
    if (armed)
        log(tr("A crash will be simulated after global step %1.").arg(QLocale().toString(qlonglong(step))));
    else
        log(tr("The armed crash is disarmed."));
    Q_EMIT crashArmChanged(step);
}

void TrainingController::checkpointNow() { worker_->checkpointNow(); }

void TrainingController::preempt() {
    if (!worker_->isRunning()) return;
    preempt_deadline_ = savepoint::now_seconds() + grace_->value();
    preempt_done_ = false;
    preempt_result_.clear();
    worker_->preempt();
    tickPreemption();
    preempt_timer_.start();
}

void TrainingController::handleTermination(int signal) {
    const QString name = signal == SIGINT ? QStringLiteral("SIGINT") : QStringLiteral("SIGTERM");
    quit_when_stopped_ = worker_->isRunning();
    // A dialog waiting for an answer (the close confirmation among them) would
    // hold the window open: nobody is there to answer it.
    if (QWidget* modal = QApplication::activeModalWidget()) modal->close();
    if (!quit_when_stopped_) {
        log(tr("%1 received: closing.").arg(name));
        Q_EMIT closeRequested();
        return;
    }
    log(tr("%1 received: a preemption notice. Savepoint closes once the emergency checkpoint is written.").arg(name));
    preempt();
}

void TrainingController::tickPreemption() {
    const double left = std::max(0.0, preempt_deadline_ - savepoint::now_seconds());
    const QString count = tr("%1 s").arg(int(std::ceil(left)));
    if (!preempt_done_) {
        banner_->showMessage(Banner::Kind::Warning,
                             tr("<b>Preemption notice.</b> The instance will be reclaimed in <b>%1</b>. "
                                "Writing an emergency checkpoint…")
                                 .arg(count));
    } else if (left > 0) {
        banner_->showMessage(
            Banner::Kind::Warning,
            tr("<b>Preempted.</b> %1<br>The instance would be reclaimed in <b>%2</b>.").arg(preempt_result_, count),
            tr("Resume"));
    } else {
        preempt_timer_.stop();
        banner_->showMessage(Banner::Kind::Info,
                             tr("<b>Instance reclaimed.</b> %1<br>Resume to continue from the emergency checkpoint.")
                                 .arg(preempt_result_),
                             tr("Resume"));
    }
}

void TrainingController::bannerActionTriggered() {
    if (worker_->isRunning()) {
        worker_->resume();
        banner_->hide();
    } else if (preempt_done_) {
        resumeLatest();
    } else if (divergence_) {
        offerRollback();
    } else if (remedy_) {
        applyRemedy();
    }
}

void TrainingController::applyRemedy() {
    using K = savepoint::Remedy::Kind;
    const savepoint::Remedy r = *remedy_;
    remedy_.reset();
    banner_->hide();
    const QString run = QString::fromStdString(r.run);
    switch (r.kind) {
        case K::ResumeRun:
        case K::DataMoved:
            resumeRun(run, {});
            break;
        case K::ListCheckpoints:
        case K::RollBackFirst:
            if (const auto row = reg_ ? reg_->find_run(r.run) : std::nullopt) live_.showRun(row->id);
            break;
        case K::TrainOnCpu: {
            savepoint::TrainConfig c = last_config_;
            c.device = "cpu";
            startRun(refused_start_, c);
            break;
        }
        default:
            break;
    }
}

// The rate that diverged: the branch's own (resume --lr) or the run's.
double TrainingController::divergedLr() const {
    const double default_lr = savepoint::TrainConfig{}.lr;
    if (!reg_ || !divergence_) return default_lr;
    const auto run = reg_->run_by_id(divergence_->run_id);
    if (!run) return default_lr;
    const auto settings = savepoint::try_run_settings(*run);
    return savepoint::branch_lr(*reg_, run->id, run->active_branch_id, settings ? settings->lr : default_lr);
}

void TrainingController::offerRollback() {
    if (!divergence_ || !divergence_->checkpoint_id) return;
    const std::int64_t id = *divergence_->checkpoint_id;
    const auto c = reg_ ? reg_->checkpoint(id) : std::nullopt;
    const QString where = c ? tr("epoch %1, step %2").arg(c->epoch).arg(c->step) : QString();
    delete rollback_dialog_;
    rollback_dialog_ = new RollbackDialog(id, where, divergedLr(), window_);
    rollback_dialog_->setAttribute(Qt::WA_DeleteOnClose);
    connect(rollback_dialog_, &QObject::destroyed, this, [this] { rollback_dialog_ = nullptr; });
    connect(rollback_dialog_, &RollbackDialog::rollbackRequested, this, &TrainingController::rollBackAfterDivergence);
    rollback_dialog_->show();
}

void TrainingController::rollBackAfterDivergence(double lr) {
    if (!divergence_ || !divergence_->checkpoint_id) return;
    const auto run = reg_ ? reg_->run_by_id(divergence_->run_id) : std::nullopt;
    if (!run) return;
    savepoint::ResumeTarget t;
    t.checkpoint_id = divergence_->checkpoint_id;
    live_.expectRun(run->id);
    startResume(QString::fromStdString(run->name), t, lr);
}

}  // namespace savepoint::ui
