// The status bar's permanent fields: device, steps/s, ETA, epoch/step
// progress and the age of the last checkpoint (ticking every second).
// GUI thread only.
#pragma once

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
    void setIdle(const QString& device_hint = {});
    void setLastCheckpointAt(double wall);  // 0: none
    QString ageText() const;
    QLabel* deviceLabel() const { return device_; }
    QProgressBar* progressBar() const { return progress_; }

    static QString duration(double seconds);
    static QString phaseText(savepoint::Phase phase);

private:
    void updateAge();

    QLabel *phase_, *device_, *speed_, *eta_, *age_;
    QProgressBar* progress_;
    QTimer timer_;
    double last_ckpt_ = 0;
};

}  // namespace savepoint::ui
