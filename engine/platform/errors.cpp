#include "platform/errors.h"

#include <cerrno>

namespace savepoint {

InputError::InputError(const std::string& message) : std::runtime_error(message) {}

InputError::InputError(std::string field, std::string expected, std::string found, std::string note)
    : InputError(field, expected, found,
                 Says{"expected " + expected + ", found " + found + (note.empty() ? "" : " " + note)}) {}

InputError::InputError(std::string field, std::string expected, std::string found, Says says)
    : std::runtime_error("--" + field + ": " + says.text),
      field_(std::move(field)),
      expected_(std::move(expected)),
      found_(std::move(found)),
      says_(std::move(says.text)) {}

bool StorageError::disk_full() const { return errnum_ == ENOSPC || errnum_ == EDQUOT; }

}  // namespace savepoint
