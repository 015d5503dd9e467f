#include "window/fault_tolerance_panel.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace savepoint::ui {
namespace {

QString secs(double s) {
    if (!std::isfinite(s)) return QStringLiteral("–");
    if (s < 1) return FaultTolerancePanel::tr("%1 ms").arg(QLocale().toString(s * 1000, 'f', 1));
    if (s < 120) return FaultTolerancePanel::tr("%1 s").arg(QLocale().toString(s, 'f', 1));
    if (s < 7200) return FaultTolerancePanel::tr("%1 min").arg(QLocale().toString(s / 60, 'f', 1));
    return FaultTolerancePanel::tr("%1 h").arg(QLocale().toString(s / 3600, 'f', 2));
}

QString pct(double f) { return QLocale().toString(f * 100, 'f', 1) + QStringLiteral(" %"); }

}  // namespace

QString FaultTolerancePanel::spotSecondsText(double s) {
    // SageMaker's bill counts whole seconds; under 100 s a tenth is kept, so that
    // a short demo run does not read "Billable seconds 0".
    return QLocale().toString(s, 'f', s < 100 ? 1 : 0);
}

FaultTolerancePanel::FaultTolerancePanel(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);

    auto* cost = new QGroupBox(tr("What checkpointing and failures cost"), this);
    auto* f1 = new QFormLayout(cost);
    ckpts_ =
        addRow(f1, tr("Checkpoints written"),
               tr("Saves committed to the registry, in every session of this run; and those due while the previous "
                  "one was still being written that were skipped or taken late (the run's async policy)."));
    ckpt_time_ = addRow(f1, tr("Checkpoint writing"),
                        tr("Total time the background I/O thread spent writing, hashing and committing checkpoints, "
                           "and its share of the time spent computing steps. Training goes on meanwhile."));
    ckpt_stall_ = addRow(f1, tr("Training held up"),
                         tr("Total time the training thread waited for checkpoints: to take each snapshot, and, "
                            "with the 'wait' policy, for the previous save to be written. This is what checkpointing "
                            "cost the training directly."));
    interruptions_ =
        addRow(f1, tr("Interruptions"), tr("Sessions that ended by a crash, a preemption, a kill or a failure."));
    lost_ = addRow(f1, tr("Steps lost"),
                   tr("Steps an interruption threw away: computed after the checkpoint it left to resume from."));
    recomputed_ = addRow(f1, tr("Steps recomputed"), tr("Of the lost steps, those trained (or replayed) again."));
    by_choice_ = addRow(f1, tr("Recomputed by choice"),
                        tr("Steps given up by resuming at an earlier position (a rollback): a choice, not lost work."));
    wall_lost_ = addRow(f1, tr("Wall time lost"), tr("Lost steps times the measured time per step."));
    downtime_ = addRow(f1, tr("Downtime"),
                       tr("Time between an interruption and the next session: waiting to resume, not lost work."));
    lost_->setObjectName(QStringLiteral("stepsLostValue"));
    by_choice_->setObjectName(QStringLiteral("byChoiceValue"));
    wall_lost_->setObjectName(QStringLiteral("wallLostValue"));
    downtime_->setObjectName(QStringLiteral("downtimeValue"));
    goodput_ =
        addRow(f1, tr("Goodput"),
               tr("Useful steps (the global step reached on the current branch) divided by all steps computed."));
    goodput_->setObjectName(QStringLiteral("goodputValue"));
    // A data-parallel job's rows: shown once a session had more than one worker.
    restarts_ = addRow(f1, tr("Job restarts"),
                       tr("Times torchrun restarted every worker of the job from its last checkpoint after one was "
                          "lost."));
    worker_lost_ = addRow(f1, tr("Worker time lost"),
                          tr("Lost steps times the time per step times the workers that computed them: in a "
                             "data-parallel job one lost worker costs every worker's work since the checkpoint."));
    per_worker_hour_ = addRow(f1, tr("Goodput per worker-hour"),
                              tr("Useful steps divided by the wall time of every session times its workers."));
    restarts_->setObjectName(QStringLiteral("jobRestartsValue"));
    per_worker_hour_->setObjectName(QStringLiteral("perWorkerHourValue"));
    job_form_ = f1;
    outer->addWidget(cost);

    auto* yd = new QGroupBox(tr("Best checkpoint interval (Young/Daly)"), this);
    auto* f2 = new QFormLayout(yd);
    mtbf_ = new QDoubleSpinBox(yd);
    mtbf_->setRange(0.1, 100000);
    mtbf_->setDecimals(1);
    mtbf_->setSuffix(tr(" min"));
    mtbf_->setValue(60);
    mtbf_->setToolTip(tr("Mean time between failures to assume when none was observed."));
    // A check box's own text never wraps and would hold the side column wide; a
    // wrapping label beside a bare box lets the column narrow. Clicking the label toggles.
    const QString force_text = tr("Use the assumed MTBF even when failures were observed");
    auto* force_row = new QWidget(yd);
    auto* force_layout = new QHBoxLayout(force_row);
    force_layout->setContentsMargins(0, 0, 0, 0);
    force_mtbf_ = new QCheckBox(force_row);
    force_mtbf_->setAccessibleName(force_text);
    force_label_ = new QLabel(force_text, force_row);
    force_label_->setWordWrap(true);
    force_label_->setBuddy(force_mtbf_);
    force_label_->installEventFilter(this);
    force_layout->addWidget(force_mtbf_, 0, Qt::AlignTop);
    force_layout->addWidget(force_label_, 1);
    f2->addRow(tr("Assumed MTBF"), mtbf_);
    f2->addRow(force_row);
    cost_ = addRow(f2, tr("Checkpoint cost C"), tr("Mean write time of one checkpoint, measured."));
    mtbf_used_ =
        addRow(f2, tr("MTBF M"), tr("Observed: instance time divided by interruptions; otherwise the assumed value."));
    optimal_ =
        addRow(f2, tr("Optimal interval √(2·C·M)"),
               tr("Checkpointing this often minimizes the expected time lost to checkpoints plus recomputation."));
    outer->addWidget(yd);

    auto* spot = new QGroupBox(tr("Spot pricing estimate"), this);
    auto* f3 = new QFormLayout(spot);
    discount_ = new QDoubleSpinBox(spot);
    discount_->setRange(0, 99);
    discount_->setDecimals(0);
    discount_->setSuffix(QStringLiteral(" %"));
    discount_->setValue(70);
    discount_->setToolTip(tr("How much cheaper an interruptible (spot) instance is than on-demand."));
    f3->addRow(tr("Spot discount"), discount_);
    spot_train_ = addRow(f3, tr("Training seconds"), tr("Wall time of all sessions, including lost work."));
    spot_bill_ = addRow(f3, tr("Billable seconds"), tr("Training seconds at the spot discount."));
    spot_save_ = addRow(f3, tr("Savings"), tr("Compared with on-demand, after paying for the lost work."));
    outer->addWidget(spot);
    outer->addStretch(1);

    auto changed = [this] {
        recompute();
        Q_EMIT assumptionsChanged();
    };
    connect(mtbf_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, changed);
    connect(discount_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, changed);
    connect(force_mtbf_, &QCheckBox::toggled, this, changed);
    recompute();
}

QLabel* FaultTolerancePanel::addRow(QFormLayout* form, const QString& name, const QString& help) {
    auto* value = new QLabel(QStringLiteral("–"), this);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);  // a narrow side column wraps the value instead of cutting it mid-word
    value->setToolTip(help);
    auto* label = new QLabel(name, this);
    label->setToolTip(help);
    form->addRow(label, value);
    return value;
}

FtInputs FaultTolerancePanel::inputsFrom(const std::vector<savepoint::SessionRow>& sessions,
                                         const std::vector<savepoint::CheckpointRow>& checkpoints,
                                         std::int64_t useful_steps, double now) {
    FtInputs in;
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        const savepoint::SessionRow& s = sessions[i];
        FtSession f;
        f.start_global_step = s.start_global_step;
        f.target_global_step = s.target_global_step;
        f.end_global_step = s.end_global_step.value_or(s.start_global_step + s.steps_computed);
        f.ended_by = s.ended_by;
        f.started_at = s.started_at;
        f.ended_at = s.ended_at > 0 ? s.ended_at : 0;  // NULL (running) reads as NaN
        f.steps_computed = s.steps_computed;
        f.steps_replayed = s.steps_replayed;
        f.rollback = s.kind == savepoint::SessionKind::Rollback;
        // Running in another process, whose counters reach the registry when it
        // ends: the run's progress (written four times a second) says how far it got.
        const bool running_elsewhere =
            i + 1 == sessions.size() && !(s.ended_at > 0) && !s.end_global_step && s.steps_computed == 0;
        // Killed (kill -9, a lost worker) before its counters reached the registry:
        // recovery recorded where it ended, and it computed every step up to there.
        const bool killed_uncounted = !running_elsewhere && s.steps_computed == 0 && s.steps_replayed == 0 &&
                                      f.end_global_step > s.start_global_step;
        if (running_elsewhere) f.end_global_step = std::max(s.start_global_step, useful_steps);
        if (running_elsewhere || killed_uncounted) {
            f.steps_replayed = std::clamp(std::min(f.end_global_step, s.target_global_step) - s.start_global_step,
                                          std::int64_t(0), f.end_global_step);
            f.steps_computed =
                std::max<std::int64_t>(0, f.end_global_step - std::max(s.start_global_step, s.target_global_step));
        }
        f.resume_point_at_end = s.start_global_step;
        const double ended = f.ended_at > 0 ? f.ended_at : now;
        for (const auto& c : checkpoints)
            if (c.branch_id == s.branch_id && c.state != CheckpointState::Writing &&
                c.state != CheckpointState::Failed && c.created_at <= ended && c.global_step <= f.end_global_step)
                f.resume_point_at_end = std::max(f.resume_point_at_end, c.global_step);
        f.train_seconds = s.train_seconds;
        f.checkpoint_seconds = s.checkpoint_seconds;
        f.checkpoint_stall_seconds = s.checkpoint_stall_seconds;
        f.world_size = int(std::max<std::int64_t>(1, s.world_size));
        f.job_restart = s.restart_count > 0;
        in.sessions.push_back(f);
    }
    for (const auto& c : checkpoints) {
        if (c.state == CheckpointState::Writing || c.state == CheckpointState::Failed) continue;
        ++in.checkpoints_written;
        in.checkpoint_write_ms.push_back(c.write_ms);
        in.checkpoint_stall_ms.push_back(c.stall_ms);
    }
    in.useful_steps = useful_steps;
    in.now = now;
    return in;
}

void FaultTolerancePanel::setInputs(const FtInputs& in) {
    in_ = in;
    recompute();
}

bool FaultTolerancePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == force_label_ && event->type() == QEvent::MouseButtonRelease &&
        static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton && force_mtbf_->isEnabled())
        force_mtbf_->toggle();
    return QWidget::eventFilter(watched, event);
}

double FaultTolerancePanel::assumedMtbfSeconds() const { return mtbf_->value() * 60; }
void FaultTolerancePanel::setAssumedMtbfSeconds(double s) { mtbf_->setValue(s / 60); }
double FaultTolerancePanel::spotDiscount() const { return discount_->value() / 100; }
void FaultTolerancePanel::setSpotDiscount(double d) { discount_->setValue(d * 100); }
bool FaultTolerancePanel::forceAssumedMtbf() const { return force_mtbf_->isChecked(); }
void FaultTolerancePanel::setForceAssumedMtbf(bool on) { force_mtbf_->setChecked(on); }

void FaultTolerancePanel::recompute() {
    in_.assumed_mtbf_seconds = assumedMtbfSeconds();
    in_.force_assumed_mtbf = forceAssumedMtbf();
    in_.spot_discount = spotDiscount();
    stats_ = compute_fault_tolerance(in_);
    const FtStats& s = stats_;
    const QLocale loc;
    ckpts_->setText(in_.saves_skipped || in_.saves_deferred ? tr("%1 (%2 skipped, %3 taken late)")
                                                                  .arg(loc.toString(qlonglong(s.checkpoints_written)),
                                                                       loc.toString(qlonglong(in_.saves_skipped)),
                                                                       loc.toString(qlonglong(in_.saves_deferred)))
                                                            : loc.toString(qlonglong(s.checkpoints_written)));
    ckpt_time_->setText(tr("%1 (%2 of compute time)").arg(secs(s.checkpoint_seconds), pct(s.checkpoint_share)));
    ckpt_stall_->setText(tr("%1 (%2 of compute time)").arg(secs(s.checkpoint_stall_seconds), pct(s.stall_share)));
    interruptions_->setText(loc.toString(s.interruptions));
    lost_->setText(loc.toString(qlonglong(s.steps_lost)));
    recomputed_->setText(loc.toString(qlonglong(s.steps_recomputed)));
    by_choice_->setText(loc.toString(qlonglong(s.steps_by_choice)));
    wall_lost_->setText(secs(s.wall_seconds_lost));
    downtime_->setText(secs(s.downtime_seconds));
    // Nothing computed yet: no ratio to show (not "100 % (0 useful of 0 computed)").
    goodput_->setText(s.steps_computed > 0 ? tr("%1 (%2 useful of %3 computed)")
                                                 .arg(pct(s.goodput), loc.toString(qlonglong(s.useful_steps)),
                                                      loc.toString(qlonglong(s.steps_computed)))
                                           : tr("no training yet"));
    cost_->setText(secs(s.mean_checkpoint_cost_seconds));
    mtbf_used_->setText(s.mtbf_observed ? tr("%1 (observed)").arg(secs(s.mtbf_seconds))
                                        : tr("%1 (assumed)").arg(secs(s.mtbf_seconds)));
    optimal_->setText(s.optimal_interval_seconds > 0
                          ? tr("%1 ≈ every %2 steps")
                                .arg(secs(s.optimal_interval_seconds))
                                .arg(loc.toString(std::max(1.0, std::round(s.optimal_interval_steps)), 'f', 0))
                          : tr("needs a measured checkpoint"));
    for (QLabel* l : {restarts_, worker_lost_, per_worker_hour_}) job_form_->setRowVisible(l, s.max_world_size > 1);
    restarts_->setText(loc.toString(s.job_restarts));
    worker_lost_->setText(secs(s.worker_seconds_lost));
    per_worker_hour_->setText(s.worker_seconds > 0 ? tr("%1 useful steps (%2 worker-hours)")
                                                         .arg(loc.toString(s.useful_steps_per_worker_hour, 'f', 0),
                                                              loc.toString(s.worker_seconds / 3600, 'f', 3))
                                                   : tr("no training yet"));
    spot_train_->setText(spotSecondsText(s.instance_seconds));
    spot_bill_->setText(spotSecondsText(s.billable_seconds));
    spot_save_->setText(tr("%1 (%2 s)").arg(pct(s.savings_fraction), spotSecondsText(s.savings_seconds)));
}

}  // namespace savepoint::ui
