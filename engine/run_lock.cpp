#include "run_lock.h"

#include "durable_io.h"
#include "errors.h"
#include "home.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace savepoint {

FileLock::FileLock(const std::string& path, bool wait, const std::string& what) {
    make_directories(parent_directory(path));
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw StorageError("cannot open lock file " + path + ": " + std::strerror(errno), path, errno);
    int rc = 0;
    // Negative control (tests/RELIABILITY.md): a run lock that locks nothing.
    const bool planted = !wait && planted_bug("no-run-lock");
    while (!planted && (rc = ::flock(fd_, LOCK_EX | (wait ? 0 : LOCK_NB))) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        ::close(fd_);
        fd_ = -1;
        throw RunBusy(what + " is in use by another Savepoint process (lock " + path +
                      "); wait for it to finish or stop it first");
    }
}

FileLock::~FileLock() {
    if (fd_ >= 0) ::close(fd_);
}

bool FileLock::try_hold(const std::string& path, int* fd_out) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return false;
    }
    *fd_out = fd;
    return true;
}

void FileLock::release(int fd) {
    if (fd >= 0) ::close(fd);
}

std::string run_lock_path(const std::string& home, const std::string& run_name) {
    return locks_dir(home) + "/" + run_name + ".lock";
}
std::string registry_lock_path(const std::string& home) { return locks_dir(home) + "/registry.lock"; }

}  // namespace savepoint
