// The teaching panel: what checkpointing cost, what the interruptions cost,
// and what Young/Daly and spot pricing say about it. Shows FtStats computed by
// compute_fault_tolerance(); the user-set assumptions (MTBF, spot discount)
// live here and are persisted by the main window. GUI thread only.
#pragma once

#include "models/fault_tolerance_stats.h"
#include "registry/registry.h"

#include <QWidget>

class QLabel;
class QDoubleSpinBox;
class QCheckBox;
class QFormLayout;

namespace savepoint::ui {

class FaultTolerancePanel : public QWidget {
    Q_OBJECT
public:
    explicit FaultTolerancePanel(QWidget* parent = nullptr);

    // Builds the inputs from the registry rows of one run.
    static FtInputs inputsFrom(const std::vector<savepoint::SessionRow>& sessions,
                               const std::vector<savepoint::CheckpointRow>& checkpoints, std::int64_t useful_steps,
                               double now);
    void setInputs(const FtInputs& in);
    const FtStats& stats() const { return stats_; }
    const FtInputs& inputs() const { return in_; }

    double assumedMtbfSeconds() const;
    void setAssumedMtbfSeconds(double s);
    double spotDiscount() const;
    void setSpotDiscount(double d);
    bool forceAssumedMtbf() const;
    void setForceAssumedMtbf(bool on);

    // The spot figures' seconds: whole from 100 s on, to a tenth below.
    static QString spotSecondsText(double s);

Q_SIGNALS:
    void assumptionsChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void recompute();
    QLabel* addRow(QFormLayout* form, const QString& name, const QString& help);

    FtInputs in_;
    FtStats stats_;
    QDoubleSpinBox* mtbf_ = nullptr;
    QCheckBox* force_mtbf_ = nullptr;
    QLabel* force_label_ = nullptr;
    QDoubleSpinBox* discount_ = nullptr;
    QLabel *ckpts_, *ckpt_time_, *ckpt_stall_, *interruptions_, *lost_, *recomputed_, *by_choice_, *wall_lost_,
        *downtime_, *goodput_, *cost_, *mtbf_used_, *optimal_, *spot_train_, *spot_bill_, *spot_save_, *restarts_,
        *worker_lost_, *per_worker_hour_;
    QFormLayout* job_form_ = nullptr;
};

}  // namespace savepoint::ui
