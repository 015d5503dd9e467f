// The window's words for how a training session ended: the engine's reason
// (training/session_reason.h) as a translated sentence, numbers in the
// locale, naming the window's own controls (the banner's buttons, the
// Checkpoints table's "Resume from here", "New run…") where the CLI would
// name a command or a flag. GUI thread.
#pragma once

#include "training/session_reason.h"

#include <QCoreApplication>
#include <QString>

namespace savepoint::ui {

class SessionOutcomeWords {
    Q_DECLARE_TR_FUNCTIONS(savepoint::ui::SessionOutcomeWords)

public:
    // Plain text (not escaped) for the banner or the log. `rollbackButton`: the banner
    // offers "Roll back to the last good checkpoint…" (the sentence then names it).
    // Crashed and Stopped read after "Crashed (simulated):" and "Stopped:".
    static QString text(const savepoint::SessionReason& reason, bool rollbackButton = false);
    static QString diverged(const savepoint::DivergedReason& d, bool rollbackButton);
    static QString preempted(const savepoint::PreemptedReason& p);
    static QString crashed(const savepoint::CrashedReason& c);
};

}  // namespace savepoint::ui
