#include "platform/errors.h"

#include <cerrno>

namespace savepoint {

bool StorageError::disk_full() const { return errnum_ == ENOSPC || errnum_ == EDQUOT; }

}  // namespace savepoint
