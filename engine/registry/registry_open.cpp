// Opening a registry: read-write (created if missing, migrated to the current
// schema, WAL with synchronous=FULL) or read-only (nothing written, for a home
// that cannot be written). The queries are in registry.cpp.
#include "registry/registry.h"

#include "platform/errors.h"
#include "registry/registry_schema.h"
#include "registry/sqlite_stmt.h"
#include "storage/durable_io.h"

#include <cstdio>
#include <cstring>

namespace savepoint {

Registry::Registry(const std::string& home) : home_(home), path_(registry_path(home)) {
    make_directories(home_);
    if (int err = fault_point("registry.open", path_))
        throw StorageError(path_ + ": cannot open registry: " + std::strerror(err), path_, err);
    if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
        int os_errno = 0;
        const std::string msg = sqlite_error_text(db_, path_, &os_errno);
        sqlite3_close(db_);
        db_ = nullptr;
        throw StorageError(path_ + ": cannot open registry: " + msg, path_, os_errno);
    }
    sqlite3_busy_timeout(db_, 10000);
    try {
        // A registry from a newer Savepoint is refused before anything writes to it
        // (switching a rollback-journal file to WAL rewrites its header).
        if (registry_schema_version(db_) > kRegistrySchemaVersion) migrate_registry(db_, path_);  // throws
        // A file that is not a database fails here with a clear message and is left as it is.
        exec_sql(db_, "PRAGMA journal_mode=WAL", path_);
        exec_sql(db_, "PRAGMA synchronous=FULL", path_);
        exec_sql(db_, "PRAGMA foreign_keys=ON", path_);
        migrate_registry(db_, path_);
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

namespace {

// A path as the body of an SQLite "file:" URI: the characters a URI gives a meaning to, escaped.
std::string uri_path(const std::string& path) {
    std::string out;
    for (char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
            out += buf;
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

Registry::Registry(const std::string& home, ReadOnly) : home_(home), path_(registry_path(home)), read_only_(true) {
    // A WAL database is read through its -wal and -shm files when they are there
    // (a registry copied while in use); without them SQLite would have to create
    // the -shm, which a read-only directory refuses, and "immutable" tells it
    // there is nothing to coordinate with.
    const bool wal = file_exists(path_ + "-wal") && file_exists(path_ + "-shm");
    const std::string uri = "file:" + uri_path(path_) + (wal ? "?mode=ro" : "?mode=ro&immutable=1");
    if (sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX, nullptr) !=
        SQLITE_OK) {
        int os_errno = 0;
        const std::string msg = sqlite_error_text(db_, path_, &os_errno, /*read_only=*/true);
        sqlite3_close(db_);
        db_ = nullptr;
        throw StorageError(path_ + ": cannot open registry read-only: " + msg, path_, os_errno);
    }
    sqlite3_busy_timeout(db_, 10000);
    int version = 0;
    try {
        version = registry_schema_version(db_);
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
    if (version != kRegistrySchemaVersion) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw StorageError(path_ + ": registry schema version: expected " + std::to_string(kRegistrySchemaVersion) +
                               ", found " + std::to_string(version) +
                               " (a read-only registry cannot be upgraded; open it once where it can be written)",
                           path_, 0);
    }
}

Registry::~Registry() {
    if (db_) sqlite3_close(db_);
}

}  // namespace savepoint
