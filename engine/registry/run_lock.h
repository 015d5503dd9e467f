// Advisory locks with flock(2): the kernel drops them when the holder dies,
// even by kill -9, so a crashed writer never leaves a stale lock behind.
//  - RunLock: one writer per run (training, resume, pin/delete).
//  - the registry lock serialises recovery passes between processes.
#pragma once

#include <string>

namespace savepoint {

class FileLock {
public:
    // Blocking when `wait`, else throws RunBusy if another process holds it.
    FileLock(const std::string& path, bool wait, const std::string& what);
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

    // Non-throwing probe: true if the lock could be taken (and is now held).
    static bool try_hold(const std::string& path, int* fd_out);
    static void release(int fd);

private:
    static std::string holder_text(int fd);
    int fd_ = -1;
    bool names_holder_ = false;  // this process wrote its pid into the file
};

std::string run_lock_path(const std::string& home, const std::string& run_name);
std::string registry_lock_path(const std::string& home);

}  // namespace savepoint
