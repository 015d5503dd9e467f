// How savepoint-cli words the end of a training session: the engine's reason
// (training/session_reason.h) with the command or flag a terminal user types
// next; the engine's flag-free message where the CLI adds nothing.
#pragma once

#include "training/trainer.h"

#include <string>

namespace savepoint {

// The text after "OUTCOME: " on the CLI's last line.
std::string cli_outcome_text(const TrainResult& r);

}  // namespace savepoint
