#include "window/status_bar.h"

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
    progress_ = new QProgressBar(bar);
    progress_->setMinimumWidth(360);  // "epoch 10/10 · step 1875/1875" fits without clipping
    progress_->setMaximumHeight(18);
    progress_->setTextVisible(true);
    device_->setToolTip(tr("Where the model trains"));
    speed_->setToolTip(tr("Training steps per second in this session"));
    eta_->setToolTip(tr("Estimated time until the last step"));
    age_->setToolTip(tr("Time since the last checkpoint was committed: the work a crash now would lose"));
    bar->addWidget(phase_, 1);
    for (QWidget* w : {static_cast<QWidget*>(device_), static_cast<QWidget*>(speed_), static_cast<QWidget*>(eta_),
                       static_cast<QWidget*>(progress_), static_cast<QWidget*>(age_)})
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
    if (t < 60) return tr("%1 s").arg(t);
    if (t < 3600) return tr("%1 min %2 s").arg(t / 60).arg(t % 60);
    return tr("%1 h %2 min").arg(t / 3600).arg((t % 3600) / 60);
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
    progress_->setRange(0, int(std::max<std::int64_t>(1, p.total_steps)));
    progress_->setValue(int(p.global_step));
    progress_->setFormat(tr("epoch %1/%2 · step %3/%4").arg(p.epoch).arg(p.epochs).arg(p.step).arg(p.steps_per_epoch));
    if (p.last_checkpoint_at > 0) last_ckpt_ = p.last_checkpoint_at;
    updateAge();
}

void StatusBarFields::setIdle(const QString& device_hint) {
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

void StatusBarFields::updateAge() {
    if (last_ckpt_ <= 0) {
        age_->setText(tr("No checkpoint yet"));
        return;
    }
    const double age = savepoint::now_seconds() - last_ckpt_;
    age_->setText(tr("Last checkpoint %1 ago").arg(duration(std::max(0.0, age))));
}

}  // namespace savepoint::ui
