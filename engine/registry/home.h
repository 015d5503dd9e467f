// Where Savepoint keeps its registry and checkpoint files: --home, else
// $SAVEPOINT_HOME, else $XDG_DATA_HOME/savepoint, else ~/.local/share/savepoint.
#pragma once

#include <string>

namespace savepoint {

std::string resolve_home(const std::string& explicit_home);
std::string checkpoint_dir_relative(const std::string& run_name);  // "checkpoints/<run>/"
std::string quarantine_dir(const std::string& home);
std::string locks_dir(const std::string& home);

}  // namespace savepoint
