// How savepoint-cli words the engine's errors about a user's input.
#pragma once

#include "platform/errors.h"

#include <string>

namespace savepoint {

// "--<field>: <what the engine says>" for an error about a setting (the
// setting's command-line name is its field); a file's or dataset's message as
// it is; then the engine's remedy as a command to type.
std::string cli_error_text(const InputError& e);

}  // namespace savepoint
