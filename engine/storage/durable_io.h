// Durable file operations: every one passes through the fault seam
// (storage/fault_injection.h) first, so the harnesses can fail or crash it.
#pragma once

#include "storage/fault_injection.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace savepoint {

class BackgroundSync;

// Free bytes for an unprivileged writer on the filesystem holding `dir`.
std::uint64_t free_bytes(const std::string& dir);

void fsync_directory(const std::string& dir);
void make_directories(const std::string& dir);  // mkdir -p, throws StorageError
bool file_exists(const std::string& path);
std::uint64_t file_size(const std::string& path);  // throws StorageError if absent
std::string parent_directory(const std::string& path);

// Renames `from` to `to` unless `to` exists (then EEXIST, and nothing moves).
// Returns 0 or the errno. Not synced: the caller syncs the directories.
int rename_no_replace(const std::string& from, const std::string& to);

// Removes a file and makes the removal durable. Missing is not an error.
void remove_durably(const std::string& path);
// The same for several files, with one sync per directory instead of per file.
void remove_files_durably(const std::vector<std::string>& paths);

// Writes a new file with the durable protocol: temp file in the same
// directory (O_CREAT|O_EXCL), write, fsync, close, rename without replacing,
// fsync the directory. Until commit() succeeds the final path does not exist;
// destroying an uncommitted writer removes its temp file. Any failure throws
// StorageError naming the path; on ENOSPC it names the bytes needed and free.
class DurableWriter {
public:
    DurableWriter(std::string final_path, std::uint64_t expected_bytes);
    // Writes over `recycle`, a file nobody needs any more (a checkpoint that
    // retention retired), instead of creating a temp file, and renames it to
    // `final_path` at commit. Its blocks are already allocated: the overwrite
    // skips block allocation, and the retired file's unlink (freeing blocks,
    // discards) is never paid. Only the growth over its size must be free.
    // Falls back to a fresh temp file if `recycle` cannot be opened.
    DurableWriter(std::string final_path, std::uint64_t expected_bytes, const std::string& recycle);
    ~DurableWriter();
    DurableWriter(const DurableWriter&) = delete;
    DurableWriter& operator=(const DurableWriter&) = delete;

    // Writes at the current position (0 at first, then where the last write ended).
    void write(const void* data, std::size_t size);
    // Moves the position: a file may be written out of order (the checkpoint
    // format writes its tensors before the header that depends on their hash).
    void seek(std::uint64_t offset);
    // Starts flushing what was written so far on `sync`'s thread; commit()
    // waits for it, and fails if it failed. The fault seam sees it as an
    // "fsync" (so the sweeps fail and crash here too).
    void sync_in_background(BackgroundSync& sync);
    void commit();
    const std::string& temp_path() const { return temp_path_; }
    bool recycled() const { return recycled_; }
    bool renamed() const {
        return committed_;
    }  // the file is at final_path (commit got past the rename)  // writing over the file given as `recycle`
    std::uint64_t bytes_written() const { return written_; }  // in all, wherever written

private:
    void check_space(std::uint64_t reusable_bytes);  // throws StorageError (ENOSPC) before anything is written
    void create_temp();
    void flush_buffer();
    void pwrite_all(const char* data, std::size_t size, bool ignore_errors);  // at pos_, advancing it
    void start_pending_writeback();                                           // of [kick_from_, pos_)
    [[noreturn]] void fail(const std::string& what, int err, const std::string& path);

    std::string final_path_;
    std::string temp_path_;
    int fd_ = -1;
    std::uint64_t expected_ = 0;
    std::uint64_t written_ = 0;
    std::uint64_t pos_ = 0;                 // where the next write goes
    std::uint64_t end_ = 0;                 // the file's length so far: the furthest byte written
    std::uint64_t kick_from_ = 0;           // [kick_from_, pos_) is written but its writeback not started
    BackgroundSync* background_ = nullptr;  // a sync of this file in progress there
    std::string buffer_;
    bool committed_ = false;
    bool recycled_ = false;
};

}  // namespace savepoint
