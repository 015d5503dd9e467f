#include "cli_errors.h"

namespace savepoint {

std::string cli_error_text(const InputError& e) {
    if (e.field().empty()) return e.what();
    return "--" + e.field() + ": " + e.says();
}

}  // namespace savepoint
