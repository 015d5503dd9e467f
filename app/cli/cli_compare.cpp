// savepoint-cli compare: several runs side by side.
#include "cli_commands.h"

#include "platform/errors.h"

namespace savepoint {

int compare_command(const std::string&, const std::vector<std::string>&, bool, std::ostream&, std::ostream&) {
    throw InputError("compare: not built yet");
}

}  // namespace savepoint
