// The registry's schema and its migrations. PRAGMA user_version holds the
// version; each migration runs in one transaction, so a failed upgrade leaves
// the file exactly as it was.
#pragma once

#include <sqlite3.h>

#include <string>

namespace savepoint {

constexpr int kRegistrySchemaVersion = 7;

// Brings the database at `path` (already open as `db`) to `target` version.
// Throws StorageError / InputError (newer schema than this build knows).
void migrate_registry(sqlite3* db, const std::string& path, int target = kRegistrySchemaVersion);

int registry_schema_version(sqlite3* db);

}  // namespace savepoint
