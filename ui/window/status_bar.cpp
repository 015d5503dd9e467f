#include "window/status_bar.h"

#include "data/data_order.h"
#include "models/number_format.h"

#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QStatusBar>

#include <cmath>

namespace savepoint::ui {

StatusBarFields::StatusBarFields(QStatusBar* bar) : QObject(bar) {
    phase_ = new QLabel(bar);
    device_ = new QLabel(bar);
    speed_ = new QLabel(bar);
    eta_ = new QLabel(bar);
    age_ = new QLabel(bar);
    remote_ = new QLabel(bar);
    remote_->setObjectName(QStringLiteral("remoteBacklog"));
    remote_->hide();
    progress_ = new QProgressBar(bar);
    // As wide as the longest text it shows for a usual run, no wider: at 1024 px the
    // fields to its right stay in the window.
    progress_->setMinimumWidth(progress_->fontMetrics().horizontalAdvance(stepsText(10, 10, 18750, 18750)) + 24);
    // The phase gives way first: the run list shows the run and its state too.
    phase_->setMinimumWidth(0);
    phase_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    progress_->setMaximumHeight(18);
    progress_->setTextVisible(true);
    device_->setToolTip(tr("Where the model trains"));
    speed_->setToolTip(tr("Training steps per second in this session"));
    eta_->setToolTip(tr("Estimated time until the last step"));
    age_->setToolTip(tr("Time since the last checkpoint was committed: the work a crash now would lose"));
    bar->addWidget(phase_, 1);
    for (QWidget* w : {static_cast<QWidget*>(device_), static_cast<QWidget*>(speed_), static_cast<QWidget*>(eta_),
                       static_cast<QWidget*>(progress_), static_cast<QWidget*>(age_), static_cast<QWidget*>(remote_)})
        bar->addPermanentWidget(w);
    timer_.setObjectName(QStringLiteral("checkpointAgeTimer"));  // names show in profiles
    timer_.setInterval(1000);
    connect(&timer_, &QTimer::timeout, this, &StatusBarFields::updateAge);
    timer_.start();
    setIdle();
}

QString StatusBarFields::duration(double s) {
    if (!std::isfinite(s) || s < 0) return QStringLiteral("–");
    const qint64 t = qint64(std::llround(s));
    const QLocale loc;
    if (t < 60) return tr("%1 s").arg(loc.toString(t));
    if (t < 3600) return tr("%1 min %2 s").arg(loc.toString(t / 60), loc.toString(t % 60));
    return tr("%1 h %2 min").arg(loc.toString(t / 3600), loc.toString((t % 3600) / 60));
}

QString StatusBarFields::phaseText(savepoint::Phase p) {
    using savepoint::Phase;
    switch (p) {
        case Phase::Loading:
            return tr("Loading");
        case Phase::Replaying:
            return tr("Replaying to the chosen step");
        case Phase::Training:
            return tr("Training");
        case Phase::Validating:
            return tr("Validating");
        case Phase::Checkpointing:
            return tr("Checkpointing");
        case Phase::Paused:
            return tr("Paused");
        case Phase::WaitingForDisk:
            return tr("Waiting for disk space");
        case Phase::Done:
            return tr("Done");
        case Phase::Interrupted:
            return tr("Interrupted (crash)");
        case Phase::Preempted:
            return tr("Preempted");
        case Phase::Stopped:
            return tr("Stopped");
        case Phase::Failed:
            return tr("Failed");
        case Phase::Diverged:
            return tr("Diverged (NaN or infinite loss)");
    }
    return QString::fromLatin1(to_string(p));
}

void StatusBarFields::setProgress(const savepoint::Progress& p) {
    phase_->setText(tr("%1 — %2").arg(QString::fromStdString(p.run), phaseText(p.phase)));
    device_->setText(tr("Device: %1").arg(QString::fromStdString(p.device)));
    speed_->setText(tr("%1 steps/s").arg(QLocale().toString(p.steps_per_second, 'f', 1)));
    // Nothing to estimate once it has ended, or while it waits on someone.
    eta_->setText(
        tr("ETA %1").arg(p.ended() || p.phase == savepoint::Phase::Paused || p.phase == savepoint::Phase::WaitingForDisk
                             ? QStringLiteral("–")
                             : duration(p.eta_seconds)));
    const QLocale loc;
    if (p.phase == savepoint::Phase::Validating && p.validation_total > 0) {
        // The bar follows the validation pass while it runs (steps stand still meanwhile).
        progress_->setRange(0, int(p.validation_total));
        progress_->setValue(int(p.validated));
        progress_->setFormat(
            tr("validating %1/%2")
                .arg(loc.toString(qlonglong(p.validated)), loc.toString(qlonglong(p.validation_total))));
    } else {
        showSteps(p.global_step, p.total_steps, p.epoch, p.epochs, p.step, p.steps_per_epoch);
    }
    if (p.last_checkpoint_at > 0) last_ckpt_ = p.last_checkpoint_at;
    updateAge();
}

void StatusBarFields::showSteps(std::int64_t global_step, std::int64_t total_steps, std::int64_t epoch,
                                std::int64_t epochs, std::int64_t step, std::int64_t steps_per_epoch) {
    progress_->setRange(0, int(std::max<std::int64_t>(1, total_steps)));
    progress_->setValue(int(global_step));
    progress_->setFormat(stepsText(epoch, epochs, step, steps_per_epoch));
}

QString StatusBarFields::stepsText(std::int64_t epoch, std::int64_t epochs, std::int64_t step,
                                   std::int64_t steps_per_epoch) {
    return tr("epoch %1/%2 · step %3/%4")
        .arg(localeCount(epoch), localeCount(epochs), localeCount(step), localeCount(steps_per_epoch));
}

void StatusBarFields::setTrainedElsewhere(const savepoint::RunRow& run) {
    const double now = savepoint::now_seconds();
    if (elsewhere_run_ != run.id) {
        elsewhere_run_ = run.id;
        elsewhere_speed_ = 0;
    } else if (run.global_step > elsewhere_step_ && now > elsewhere_at_) {
        elsewhere_speed_ = double(run.global_step - elsewhere_step_) / (now - elsewhere_at_);
    }
    if (elsewhere_step_ != run.global_step || elsewhere_at_ == 0) {
        elsewhere_step_ = run.global_step;
        elsewhere_at_ = now;
    }
    const QLocale loc;
    phase_->setText(tr("%1 — training in another process").arg(QString::fromStdString(run.name)));
    device_->setText(run.device.empty() ? tr("Device: –") : tr("Device: %1").arg(QString::fromStdString(run.device)));
    speed_->setText(elsewhere_speed_ > 0 ? tr("%1 steps/s").arg(loc.toString(elsewhere_speed_, 'f', 1))
                                         : tr("– steps/s"));
    eta_->setText(tr("ETA %1").arg(elsewhere_speed_ > 0
                                       ? duration(double(run.total_steps - run.global_step) / elsewhere_speed_)
                                       : QStringLiteral("–")));
    const std::int64_t spe = std::max<std::int64_t>(1, run.steps_per_epoch);
    const savepoint::Position p = savepoint::position_of(run.global_step, spe);
    showSteps(run.global_step, run.total_steps, p.epoch, (run.total_steps + spe - 1) / spe, p.step, spe);
}

void StatusBarFields::followRun(const savepoint::RunRow& run) {
    if (run.status == savepoint::RunStatus::Running) {
        setTrainedElsewhere(run);
        return;
    }
    setIdle(QString::fromStdString(run.device));
    const std::int64_t spe = std::max<std::int64_t>(1, run.steps_per_epoch);
    const savepoint::Position p = savepoint::position_of(run.global_step, spe);
    showSteps(run.global_step, run.total_steps, p.epoch, (run.total_steps + spe - 1) / spe, p.step, spe);
}

void StatusBarFields::setIdle(const QString& device_hint) {
    elsewhere_run_ = 0;
    phase_->setText(tr("Idle"));
    device_->setText(device_hint.isEmpty() ? tr("Device: –") : tr("Device: %1").arg(device_hint));
    speed_->setText(tr("– steps/s"));
    eta_->setText(tr("ETA –"));
}

void StatusBarFields::setLastCheckpointAt(double wall) {
    last_ckpt_ = wall;
    updateAge();
}

QString StatusBarFields::ageText() const { return age_->text(); }

void StatusBarFields::setRemoteBacklog(const QString& uri, const savepoint::RemoteBacklog& b) {
    remote_->setVisible(!uri.isEmpty());
    if (uri.isEmpty()) return;
    const std::int64_t waiting = b.pending + b.failed;
    remote_->setText(waiting == 0 ? tr("S3: all %1 uploaded").arg(localeCount(b.uploaded))
                                  : tr("S3: %1 uploaded, %2 waiting (%3 MB)")
                                        .arg(localeCount(b.uploaded), localeCount(waiting),
                                             QLocale().toString(double(b.pending_bytes) / 1e6, 'f', 1)));
    // Failed uploads are retried, but the user should see that the store is not taking them.
    remote_->setStyleSheet(b.failed > 0 ? QStringLiteral("color: #b02020;") : QString());
    remote_->setToolTip(tr("Checkpoints copied to %1: %2 uploaded, %3 pending, %4 failed (retried)")
                            .arg(uri, localeCount(b.uploaded), localeCount(b.pending), localeCount(b.failed)));
}

void StatusBarFields::updateAge() {
    if (last_ckpt_ <= 0) {
        age_->setText(tr("No checkpoint yet"));
        return;
    }
    const double age = savepoint::now_seconds() - last_ckpt_;
    age_->setText(tr("Last checkpoint %1 ago").arg(duration(std::max(0.0, age))));
}

}  // namespace savepoint::ui
