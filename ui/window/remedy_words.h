// How the window words the engine's remedy (what a user can do next about a
// refused input): by the window's own controls (the Runs list, the Checkpoints
// table, Verify, the New run dialog), never a command-line flag. Translations
// live in the RemedyWords context. GUI thread (they translate).
#pragma once

#include "platform/remedy.h"

#include <QString>

namespace savepoint::ui {

// A sentence to follow the refusal ("Choose a checkpoint of run 'a' in the
// Checkpoints table."); empty for Remedy::Kind::None.
QString remedyText(const savepoint::Remedy& remedy);

// The banner button that does the remedy in the window ("Resume 'a'", "Show its
// checkpoints", "Train on the CPU"); empty where the window has no such control.
QString remedyActionLabel(const savepoint::Remedy& remedy);

// "<why> <remedy>", or `why` alone when there is no remedy.
QString withRemedy(const QString& why, const savepoint::Remedy& remedy);

}  // namespace savepoint::ui
