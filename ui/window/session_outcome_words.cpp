#include "window/session_outcome_words.h"

#include <QLocale>

#include <variant>

namespace savepoint::ui {

namespace {

QString num(std::int64_t n) { return QLocale().toString(static_cast<qlonglong>(n)); }

// Where a step falls, as the window says it.
QString place(const savepoint::StepPlace& p) {
    return SessionOutcomeWords::tr("epoch %1, step %2").arg(num(p.epoch), num(p.step));
}

}  // namespace

QString SessionOutcomeWords::diverged(const savepoint::DivergedReason& d, bool rollbackButton) {
    const QString at = place(d.at);
    QString s = d.value == savepoint::DivergedReason::Value::Loss
                    ? (d.nan ? tr("the loss became NaN at %1").arg(at) : tr("the loss became infinite at %1").arg(at))
                    : tr("the gradient of %1 became NaN or infinite at %2").arg(QString::fromStdString(d.tensor), at);
    const QString lr = QLocale().toString(d.learning_rate, 'g', 6);
    if (!d.good_checkpoint)
        return tr("%1. No checkpoint was saved before it: use “New run…” with a learning rate smaller than %2.")
            .arg(s, lr);
    const QString good = tr("the last good checkpoint is #%1 at %2").arg(num(*d.good_checkpoint), place(d.good_at));
    // A plain resume would diverge again: the way back is a rollback at a smaller
    // rate, which only the banner's dialog sets; without it, a new run.
    return rollbackButton ? tr("%1; %2. A plain resume would diverge again: use “Roll back to the last good "
                               "checkpoint…” with a learning rate smaller than %3.")
                                .arg(s, good, lr)
                          : tr("%1; %2. A plain resume would diverge again: use “New run…” with a learning rate "
                               "smaller than %3.")
                                .arg(s, good, lr);
}

QString SessionOutcomeWords::preempted(const savepoint::PreemptedReason& p) {
    const QString at = place(p.at), grace = num(static_cast<std::int64_t>(p.grace_seconds));
    switch (p.how) {
        case savepoint::PreemptedReason::How::AlreadySaved:
            return tr("Stopped at %1, which a checkpoint already holds.").arg(at);
        case savepoint::PreemptedReason::How::Emergency: {
            QString s = tr("Emergency checkpoint at %1 written in %2 ms of the %3 s grace period; stopped.")
                            .arg(at, num(p.save_ms), grace);
            if (p.too_late) s += QLatin1Char(' ') + tr("Too late: a real instance would have been gone.");
            return s;
        }
        case savepoint::PreemptedReason::How::NotWritten:
            return tr("Stopped at %1, but the emergency checkpoint could not be written.").arg(at);
        case savepoint::PreemptedReason::How::Follower:
            return tr("Stopped at %1; worker 0 writes the job's emergency checkpoint.").arg(at);
    }
    return {};
}

QString SessionOutcomeWords::crashed(const savepoint::CrashedReason& c) {
    const QString at = place(c.at);
    switch (c.cause) {
        case savepoint::CrashedReason::Cause::Requested:
        case savepoint::CrashedReason::Cause::AtRequestedStep:
            return tr("after %1 (global step %2); nothing beyond the regular checkpoints was saved")
                .arg(at, num(c.at.global_step));
        case savepoint::CrashedReason::Cause::DuringValidation:
            return tr("during the validation after %1; the epoch's validation was not recorded").arg(at);
        case savepoint::CrashedReason::Cause::WorkerLost:
            return c.lost_rank >= 0 ? tr("worker %1 was lost at %2").arg(num(c.lost_rank), at)
                                    : tr("a worker was lost at %1").arg(at);
    }
    return {};
}

QString SessionOutcomeWords::text(const savepoint::SessionReason& reason, bool rollbackButton) {
    if (const auto* d = std::get_if<savepoint::DivergedReason>(&reason)) return diverged(*d, rollbackButton);
    if (const auto* p = std::get_if<savepoint::PreemptedReason>(&reason)) return preempted(*p);
    if (const auto* c = std::get_if<savepoint::CrashedReason>(&reason)) return crashed(*c);
    if (const auto* f = std::get_if<savepoint::FinishedReason>(&reason))
        return tr("%1 steps, validation loss %2, accuracy %3")
            .arg(num(f->global_step), QLocale().toString(f->validation_loss, 'f', 4),
                 QLocale().toString(f->accuracy, 'f', 4));
    if (const auto* n = std::get_if<savepoint::NothingToDoReason>(&reason))
        return tr("run “%1” already finished at global step %2; nothing to resume (to roll back, select an earlier "
                  "checkpoint in the Checkpoints table and use “Resume from here”)")
            .arg(QString::fromStdString(n->run), num(n->finished_at));
    if (const auto* s = std::get_if<savepoint::StoppedReason>(&reason))
        return tr("by request at %1 (global step %2)").arg(place(s->at), num(s->at.global_step));
    if (const auto* f = std::get_if<savepoint::FailedReason>(&reason))
        return f->storage_failure.empty()
                   ? tr("checkpoints could not be written; gave up after retries")
                   : tr("checkpoints cannot be committed: %1").arg(QString::fromStdString(f->storage_failure));
    return {};
}

}  // namespace savepoint::ui
