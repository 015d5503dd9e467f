#include "storage/durable_io.h"
#include "platform/planted_bugs.h"

#include "platform/errors.h"
#include "storage/background_sync.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace savepoint {
namespace {

std::string errno_text(int err) { return std::strerror(err); }

}  // namespace

std::uint64_t free_bytes(const std::string& dir) {
    struct statvfs st {};
    if (::statvfs(dir.c_str(), &st) != 0) return 0;
    return static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
}

std::string parent_directory(const std::string& path) {
    auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

void fsync_directory(const std::string& dir) {
    if (int err = fault_point("fsync_dir", dir))
        throw StorageError("cannot sync directory " + dir + ": " + errno_text(err), dir, err);
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        throw StorageError("cannot open directory " + dir + ": " + errno_text(err), dir, err);
    }
    if (::fsync(fd) != 0) {
        int err = errno;
        ::close(fd);
        throw StorageError("cannot sync directory " + dir + ": " + errno_text(err), dir, err);
    }
    ::close(fd);
}

void make_directories(const std::string& dir) {
    if (dir.empty()) return;
    std::string partial;
    std::size_t pos = 0;
    while (pos != std::string::npos) {
        pos = dir.find('/', pos + 1);
        partial = dir.substr(0, pos);
        if (partial.empty()) continue;
        if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
            int err = errno;
            throw StorageError("cannot create directory " + partial + ": " + errno_text(err), partial, err);
        }
    }
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw StorageError(dir + ": expected a directory, found something else", dir, ENOTDIR);
}

bool file_exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

std::uint64_t file_size(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        int err = errno;
        throw StorageError(path + ": " + errno_text(err), path, err);
    }
    return static_cast<std::uint64_t>(st.st_size);
}

void remove_durably(const std::string& path) { remove_files_durably({path}); }

void remove_files_durably(const std::vector<std::string>& paths) {
    std::vector<std::string> dirs;  // to sync: those where something was removed (a missing file is not an error)
    for (const auto& path : paths) {
        if (int err = fault_point("unlink", path))
            throw StorageError("cannot remove " + path + ": " + errno_text(err), path, err);
        if (::unlink(path.c_str()) != 0) {
            if (errno == ENOENT) continue;
            int err = errno;
            throw StorageError("cannot remove " + path + ": " + errno_text(err), path, err);
        }
        const std::string dir = parent_directory(path);
        if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
    }
    for (const auto& dir : dirs) fsync_directory(dir);
}

DurableWriter::DurableWriter(std::string final_path, std::uint64_t expected_bytes)
    : final_path_(std::move(final_path)), expected_(expected_bytes) {
    check_space(0);
    create_temp();
}

DurableWriter::DurableWriter(std::string final_path, std::uint64_t expected_bytes, const std::string& recycle)
    : final_path_(std::move(final_path)), expected_(expected_bytes) {
    struct stat st {};
    const bool usable = !recycle.empty() && parent_directory(recycle) == parent_directory(final_path_) &&
                        ::stat(recycle.c_str(), &st) == 0 && S_ISREG(st.st_mode);
    // Only the growth over the retired file's size needs free space. Checked
    // before opening it: a refusal leaves the file for retention or recovery.
    check_space(usable ? static_cast<std::uint64_t>(st.st_size) : 0);
    // An injected fault at the open is treated as a real failed open: a fresh file instead.
    if (usable && fault_point("open", recycle) == 0) fd_ = ::open(recycle.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd_ < 0) {
        if (usable) check_space(0);  // a fresh file needs all of its bytes free
        create_temp();
        return;
    }
    temp_path_ = recycle;
    recycled_ = true;
    buffer_.reserve(1 << 20);
}

void DurableWriter::check_space(std::uint64_t reusable_bytes) {
    const std::string dir = parent_directory(final_path_);
    // Refuse before writing anything: a half-written file on a full disk helps no one.
    const std::uint64_t avail = free_bytes(dir);
    const std::uint64_t margin = 64 * 1024;
    const std::uint64_t growth = expected_ > reusable_bytes ? expected_ - reusable_bytes : 0;
    const int fault = fault_point("statvfs", dir);
    if (fault != 0 && fault != ENOSPC) fail("cannot check free space in", fault, dir);
    if (int err = fault; err == ENOSPC || avail < growth + margin) {
        std::uint64_t reported = err == ENOSPC ? 0 : avail;
        throw StorageError("not enough space to write checkpoint " + final_path_ + ": needs " +
                               std::to_string(growth + margin) + " bytes, " + std::to_string(reported) +
                               " bytes free in " + dir,
                           final_path_, ENOSPC, growth + margin, reported);
    }
}

void DurableWriter::create_temp() {
    temp_path_ = final_path_ + ".tmp";
    if (int err = fault_point("open", temp_path_)) fail("cannot create", err, temp_path_);
    fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0 && errno == EEXIST) {
        // A temp file left by a crash of an earlier attempt at this very id:
        // nobody else can own it (ids are never reused and we hold the run lock).
        ::unlink(temp_path_.c_str());
        fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    }
    if (fd_ < 0) {
        int err = errno;
        temp_path_.clear();
        fail("cannot create", err, final_path_ + ".tmp");
    }
    buffer_.reserve(1 << 20);
}

DurableWriter::~DurableWriter() {
    // The helper may still be in fdatasync on this descriptor: never close it under it.
    if (background_) background_->wait();
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void DurableWriter::fail(const std::string& what, int err, const std::string& path) {
    if (err == ENOSPC || err == EDQUOT) {
        std::uint64_t avail = free_bytes(parent_directory(final_path_));
        throw StorageError(what + " " + path + ": " + errno_text(err) + " (checkpoint needs " +
                               std::to_string(expected_) + " bytes, " + std::to_string(avail) + " bytes free)",
                           path, err, expected_, avail);
    }
    throw StorageError(what + " " + path + ": " + errno_text(err), path, err);
}

void DurableWriter::write(const void* data, std::size_t size) {
    if (size >= (256 << 10)) {
        flush_buffer();
        if (int err = fault_point("write", temp_path_)) fail("cannot write", err, temp_path_);
        pwrite_all(static_cast<const char*>(data), size, false);
        // Together with any small pieces flushed before it: one request, not several.
        start_pending_writeback();
        return;
    }
    buffer_.append(static_cast<const char*>(data), size);
    if (buffer_.size() >= (1 << 20)) flush_buffer();
}

void DurableWriter::pwrite_all(const char* p, std::size_t size, bool ignore_errors) {
    while (size > 0) {
        ssize_t n = ::pwrite(fd_, p, size, static_cast<off_t>(pos_));
        if (n < 0) {
            if (errno == EINTR) continue;
            if (ignore_errors) return;
            fail("cannot write", errno, temp_path_);
        }
        p += n;
        size -= static_cast<std::size_t>(n);
        pos_ += static_cast<std::uint64_t>(n);
        written_ += static_cast<std::uint64_t>(n);
        end_ = std::max(end_, pos_);
    }
}

void DurableWriter::seek(std::uint64_t offset) {
    flush_buffer();
    start_pending_writeback();
    pos_ = kick_from_ = offset;
}

void DurableWriter::sync_in_background(BackgroundSync& sync) {
    flush_buffer();
    start_pending_writeback();
    const int injected = fault_point("fsync", temp_path_);
    if (planted_bug(PlantedBug::SkipFsync)) return;
    sync.start(fd_, injected);
    background_ = &sync;
}

void DurableWriter::start_pending_writeback() {
    // Hand [kick_from_, pos_) to the disk now, so it is written while the
    // caller hashes the next piece; the syncs then wait for less. Durability
    // still rests on them: this neither waits nor reports errors (a failure
    // here shows up there).
#ifdef __linux__
    if (pos_ > kick_from_)
        ::sync_file_range(fd_, static_cast<off_t>(kick_from_), static_cast<off_t>(pos_ - kick_from_),
                          SYNC_FILE_RANGE_WRITE);
#endif
    kick_from_ = pos_;
}

void DurableWriter::flush_buffer() {
    if (buffer_.empty()) return;
    // Negative control (docs/RELIABILITY.md): a failed write is dropped silently.
    const bool ignore_errors = planted_bug(PlantedBug::IgnoreWriteError);
    if (int err = fault_point("write", temp_path_)) {
        if (!ignore_errors) fail("cannot write", err, temp_path_);
        buffer_.clear();
        return;
    }
    pwrite_all(buffer_.data(), buffer_.size(), ignore_errors);
    buffer_.clear();
}

void DurableWriter::commit() {
    flush_buffer();
    if (background_) {
        // Its failure is this file's: the page cache state is unknown, abandon the file.
        const int err = background_->wait();
        background_ = nullptr;
        if (err != 0) fail("cannot sync", err, temp_path_);
    }
    // A recycled file may have been longer than this checkpoint.
    if (recycled_ && ::ftruncate(fd_, static_cast<off_t>(end_)) != 0) fail("cannot truncate", errno, temp_path_);
    // fsync failure: the page cache state is unknown, so never retry on this
    // descriptor; the whole file is abandoned (destructor unlinks it).
    if (int err = fault_point("fsync", temp_path_)) fail("cannot sync", err, temp_path_);
    if (!planted_bug(PlantedBug::SkipFsync) && ::fsync(fd_) != 0) fail("cannot sync", errno, temp_path_);
    int fd = fd_;
    fd_ = -1;
    if (int err = fault_point("close", temp_path_)) {
        ::close(fd);
        fail("cannot close", err, temp_path_);
    }
    if (::close(fd) != 0) fail("cannot close", errno, temp_path_);
    if (int err = fault_point("rename", final_path_)) fail("cannot rename to", err, final_path_);
    if (int err = rename_no_replace(temp_path_, final_path_)) fail("cannot rename to", err, final_path_);
    committed_ = true;
    fsync_directory(parent_directory(final_path_));
}

int rename_no_replace(const std::string& from, const std::string& to) {
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
    const int err = errno;
    if (err != EINVAL && err != ENOSYS) return err;
    // Filesystems without RENAME_NOREPLACE: link() also refuses to replace.
    if (::link(from.c_str(), to.c_str()) != 0) return errno;
    ::unlink(from.c_str());
    return 0;
}

}  // namespace savepoint
