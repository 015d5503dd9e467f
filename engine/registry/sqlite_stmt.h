// A prepared statement with RAII and error messages that name the registry
// file. Private to engine/registry/ (tools/check-layers.sh): the front ends
// reach the registry through registry.h.
#pragma once

#include "platform/errors.h"
#include "registry/registry.h"
#include "storage/durable_io.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace savepoint {

// Why SQLite could not open or create `file` (the registry, or its -wal/-shm
// beside it), or 0 when no cause can be named. SQLite's own errno is no help
// there: after open(O_CREAT) fails with ENOSPC it retries read-only and keeps
// that retry's ENOENT. `writing`: the connection creates files, so a full disk,
// no inodes left or an unwritable directory explain the failure; a read-only
// open needs none of that (and read-only media report no free space at all).
inline int cannot_open_cause(const std::string& file, bool writing) {
    struct stat st {};
    if (::stat(file.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return EISDIR;
    if (!writing) return 0;
    const std::string dir = parent_directory(file);
    struct statvfs fs {};
    if (::statvfs(dir.c_str(), &fs) == 0) {
        if (fs.f_files > 0 && fs.f_favail == 0) return ENOSPC;  // out of inodes
        if (fs.f_bavail == 0) return ENOSPC;
    }
    if (::access(dir.c_str(), W_OK) != 0) return errno;  // EACCES, EROFS
    return 0;
}

// SQLite's message for the last error on `db` (the registry `file`), with the
// operating system's error behind it when SQLite failed on a file: "unable to
// open database file" alone does not say that the disk is out of inodes.
// `os_errno` receives that errno (0 if none), for StorageError. `read_only`:
// how the connection was opened, when the open itself failed (SQLite cannot
// say then).
inline std::string sqlite_error_text(sqlite3* db, const std::string& file, int* os_errno = nullptr,
                                     bool read_only = false) {
    if (os_errno) *os_errno = 0;
    if (!db) return "out of memory";
    std::string msg = sqlite3_errmsg(db);
    const int primary = sqlite3_extended_errcode(db) & 0xff;
    int cause = 0;
    if (primary == SQLITE_CANTOPEN) {
        const int ro = sqlite3_db_readonly(db, "main");  // -1: no "main" yet, the open itself failed
        cause = cannot_open_cause(file, ro == -1 ? !read_only : ro == 0);
    } else if (primary == SQLITE_IOERR || primary == SQLITE_FULL) {
        cause = sqlite3_system_errno(db);
    }
    if (cause != 0) {
        msg += std::string(" (") + std::strerror(cause) + ")";
        if (os_errno) *os_errno = cause;
    }
    return msg;
}

// The last error on `db` says its pages are damaged: no retry will help.
inline bool registry_is_damaged(sqlite3* db) {
    const int primary = sqlite3_extended_errcode(db) & 0xff;
    return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB;
}

// Runs SQL without results; errors name the registry file.
inline void exec_sql(sqlite3* db, const char* sql, const std::string& path) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        sqlite3_free(err);  // the same text as sqlite3_errmsg, which sqlite_error_text extends
        int os_errno = 0;
        const std::string msg = sqlite_error_text(db, path, &os_errno);
        if (registry_is_damaged(db))
            throw RegistryDamaged(path + ": registry: " + msg + kDamagedAdvice, path, os_errno);
        throw StorageError(path + ": registry: " + msg, path, os_errno);
    }
}

class Stmt {
public:
    Stmt(sqlite3* db, const char* sql, const std::string& path) : db_(db), path_(path) {
        if (sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) != SQLITE_OK) fail("prepare");
    }
    ~Stmt() { sqlite3_finalize(st_); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    Stmt& bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(st_, i, v)); }
    Stmt& bind(int i, int v) { return check(sqlite3_bind_int64(st_, i, v)); }
    Stmt& bind(int i, double v) {
        return check(std::isnan(v) ? sqlite3_bind_null(st_, i) : sqlite3_bind_double(st_, i, v));
    }
    Stmt& bind(int i, const std::string& v) {
        return check(sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    }
    Stmt& bind(int i, const std::optional<std::int64_t>& v) {
        return check(v ? sqlite3_bind_int64(st_, i, *v) : sqlite3_bind_null(st_, i));
    }

    // True while rows come; false when done. Throws on error.
    bool step() {
        int rc = sqlite3_step(st_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        fail("step");
    }
    void run() {
        while (step()) {
        }
    }
    void reset() {
        sqlite3_reset(st_);
        sqlite3_clear_bindings(st_);
    }

    std::int64_t i64(int c) const { return sqlite3_column_int64(st_, c); }
    double f64(int c) const { return sqlite3_column_type(st_, c) == SQLITE_NULL ? NAN : sqlite3_column_double(st_, c); }
    std::string text(int c) const {
        auto* p = sqlite3_column_text(st_, c);
        return p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(st_, c)) : std::string();
    }
    std::optional<std::int64_t> opt_i64(int c) const {
        if (sqlite3_column_type(st_, c) == SQLITE_NULL) return std::nullopt;
        return sqlite3_column_int64(st_, c);
    }

private:
    Stmt& check(int rc) {
        if (rc != SQLITE_OK) fail("bind");
        return *this;
    }
    [[noreturn]] void fail(const char* what) {
        int code = sqlite3_extended_errcode(db_);
        int os_errno = 0;
        std::string msg = path_ + ": registry " + what + " failed: " + sqlite_error_text(db_, path_, &os_errno);
        int err = os_errno                        ? os_errno
                  : (code & 0xff) == SQLITE_FULL  ? 28 /* ENOSPC */
                  : (code & 0xff) == SQLITE_IOERR ? 5  /* EIO */
                                                  : 0;
        if ((code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED)
            msg += " (another Savepoint process is writing to this registry; try again)";
        if (registry_is_damaged(db_)) throw RegistryDamaged(msg + kDamagedAdvice, path_, err);
        throw StorageError(msg, path_, err);
    }

    sqlite3* db_;
    const std::string& path_;
    sqlite3_stmt* st_ = nullptr;
};

}  // namespace savepoint
