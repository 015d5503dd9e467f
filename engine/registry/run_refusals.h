// The refusals about a run's name that more than one caller says, worded once:
// the CLI's commands and the trainer say "no run named …" alike, and the
// registry and the trainer "a run named … already exists". Each is an
// InputError about the field "run".
#pragma once

#include "platform/errors.h"

#include <string>

namespace savepoint {

// "no run named '<name>' in <home> (see: savepoint-cli runs)"
InputError no_run_named(const std::string& name, const std::string& home);

// "a run named '<name>' already exists …": with `home`, naming it and the
// command that resumes the run (the trainer, before it writes anything); with
// no home, the registry's own last guard ("use resume, or pick another name").
InputError run_already_exists(const std::string& name, const std::string& home = {});

}  // namespace savepoint
