// savepoint-cli export: a checkpoint's weights in a file PyTorch loads.
#include "cli_commands.h"

#include "platform/errors.h"

namespace savepoint {

int export_command(const std::string&, const std::string&, std::int64_t, const std::string&, std::ostream&,
                   std::ostream&) {
    throw InputError("export: not built yet");
}

}  // namespace savepoint
