// The status bar's permanent fields: device, steps/s, ETA, epoch/step
// progress, the age of the last checkpoint (ticking every second), and, for a
// run synced to S3-compatible storage, its upload backlog.
// GUI thread only.
#pragma once

#include "registry/checkpoint_remotes.h"
#include "training/trainer.h"

#include <QObject>
#include <QTimer>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace savepoint::ui {

class StatusBarFields : public QObject {
    Q_OBJECT
public:
    explicit StatusBarFields(QStatusBar* bar);
    void setProgress(const savepoint::Progress& p);
    // The viewed run, trained by another process (the CLI, another window): its
    // progress as the registry has it; the speed from one call to the next.
    void setTrainedElsewhere(const savepoint::RunRow& run);
    // While this window trains nothing: the viewed run as the registry has it
    // (trained elsewhere, or idle at its position), not the last run trained here.
    void followRun(const savepoint::RunRow& run);
    void setIdle(const QString& device_hint = {});
    void setLastCheckpointAt(double wall);  // 0: none
    QString ageText() const;
    // The viewed run's checkpoints in remote storage (`uri` empty: none, the field hides).
    void setRemoteBacklog(const QString& uri, const savepoint::RemoteBacklog& backlog);
    QLabel* remoteLabel() const { return remote_; }
    QLabel* deviceLabel() const { return device_; }
    QLabel* phaseLabel() const { return phase_; }
    QProgressBar* progressBar() const { return progress_; }

    static QString duration(double seconds);
    static QString phaseText(savepoint::Phase phase);
    // "epoch 2/10 · step 34/400", the progress bar's text.
    static QString stepsText(std::int64_t epoch, std::int64_t epochs, std::int64_t step, std::int64_t steps_per_epoch);

private:
    void updateAge();
    void showSteps(std::int64_t global_step, std::int64_t total_steps, std::int64_t epoch, std::int64_t epochs,
                   std::int64_t step, std::int64_t steps_per_epoch);

    QLabel *phase_, *device_, *speed_, *eta_, *age_, *remote_;
    QProgressBar* progress_;
    QTimer timer_;
    double last_ckpt_ = 0;
    // setTrainedElsewhere's last reading, for the speed.
    std::int64_t elsewhere_run_ = 0, elsewhere_step_ = 0;
    double elsewhere_at_ = 0, elsewhere_speed_ = 0;
};

}  // namespace savepoint::ui
