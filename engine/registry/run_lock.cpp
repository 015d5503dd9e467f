#include "registry/run_lock.h"
#include "platform/planted_bugs.h"

#include "platform/errors.h"
#include "registry/home.h"
#include "storage/durable_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace savepoint {

FileLock::FileLock(const std::string& path, bool wait, const std::string& what) {
    make_directories(parent_directory(path));
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw StorageError("cannot open lock file " + path + ": " + std::strerror(errno), path, errno);
    int rc = 0;
    // Negative control (docs/RELIABILITY.md): a run lock that locks nothing.
    const bool planted = !wait && planted_bug(PlantedBug::NoRunLock);
    while (!planted && (rc = ::flock(fd_, LOCK_EX | (wait ? 0 : LOCK_NB))) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        const std::string holder = holder_text(fd_);
        ::close(fd_);
        fd_ = -1;
        throw RunBusy(what + " is in use by another Savepoint process (" + holder + "lock " + path +
                      "); wait for it to finish or stop it first");
    }
    // Who holds a run, for the message above in another process: flock cannot
    // say, the file can. Best effort: the lock is the flock, not these bytes.
    // Only a run's lock (a writer's, held for the whole run); the registry's is
    // taken for moments by commands that must leave the home as it was. Emptied
    // again on release, so a refused command leaves the file as it found it.
    if (!wait) {
        const std::string pid = std::to_string(::getpid()) + "\n";
        names_holder_ = ::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, pid.data(), pid.size(), 0) > 0;
    }
}

// "process 1234; " when the lock file names a live process, else "". Recovery
// holds run locks for a moment without writing its own pid, so a name is only
// a hint, said as the process the file names.
std::string FileLock::holder_text(int fd) {
    char buf[32] = {};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return std::string();
    char* end = nullptr;
    const long pid = std::strtol(buf, &end, 10);
    if (pid <= 0 || end == buf || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM)) return std::string();
    return "process " + std::to_string(pid) + "; ";
}

FileLock::~FileLock() {
    if (fd_ < 0) return;
    if (names_holder_) (void)!::ftruncate(fd_, 0);  // still holding it: no other writer sees it empty early
    ::close(fd_);
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
