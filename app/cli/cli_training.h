// What train and resume share: the request both build from their flags, and
// one training session run in the foreground, with its progress lines, the
// signals that become a preemption notice, and the closing report.
#pragma once

#include "cli_commands.h"
#include "training/trainer.h"

#include <ostream>
#include <string>

namespace savepoint {

// The request's run, home and simulated-failure settings, checked; train and
// resume add the rest. Throws InputError.
TrainRequest training_request(const CliFlags& f, const std::string& resolved_home);

class RemoteSync;

// Runs the session, prints how it went; returns the exit code (exit_code()).
// `remote` (may be null) uploads each checkpoint as it commits; once training
// stops it has `grace_seconds` to finish.
int run_training(TrainRequest req, std::ostream& out, std::ostream& err, bool signals, RemoteSync* remote = nullptr,
                 double grace_seconds = 0);

}  // namespace savepoint
