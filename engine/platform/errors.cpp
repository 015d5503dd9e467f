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

InputError::InputError(std::string field, FieldRule rule, std::string found)
    : InputError(std::move(field), rule.english(), std::move(found), rule) {}

InputError::InputError(std::string field, std::string expected, std::string found, FieldRule rule)
    : InputError(std::move(field), std::move(expected), std::move(found)) {
    rule_ = std::move(rule);
}

bool StorageError::disk_full() const { return errnum_ == ENOSPC || errnum_ == EDQUOT; }

}  // namespace savepoint
