// Flushing a file's data on a helper thread while the caller keeps working.
//
// A save writes the tensors, then hashes them before the header and footer
// can be written. The disk's cache flush costs about as much again, and it
// only starts when fsync is called: done one after the other, the two add up.
// fdatasync of the tensors on this thread lets the flush run during the hash,
// and the final fsync has only the header and footer left, which shortens
// every save (docs/PERFORMANCE.md, background sync).
//
// The helper sleeps in the kernel nearly all the time: it needs a CPU for
// microseconds, and takes the caller's CPUs so it never lands on the training
// core. start() returns once the helper is about to call fdatasync, so a
// caller busy hashing on the same CPU cannot keep it from starting.
#pragma once

#include <sched.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace savepoint {

class BackgroundSync {
public:
    BackgroundSync();
    ~BackgroundSync();  // waits for a sync in progress, then stops the helper
    BackgroundSync(const BackgroundSync&) = delete;
    BackgroundSync& operator=(const BackgroundSync&) = delete;

    // Starts fdatasync(fd). One at a time: the previous must have been waited for.
    // `fd` must stay open until wait() returns. `injected`: an errno from the
    // fault seam, reported by the helper instead of syncing, so that an
    // injected failure takes the same way back as a real one.
    void start(int fd, int injected = 0);
    // Blocks until the sync started last has finished; returns its errno (0: success).
    int wait();

private:
    void loop();

    std::mutex mutex_;
    std::condition_variable cv_;
    bool requested_ = false;  // a request waits for the helper to take it
    int fd_ = -1;
    int injected_ = 0;
    std::atomic<bool> entering_{false};  // the helper's last step before fdatasync: no lock, no syscall after it
    bool finished_ = true;
    bool waited_ = true;  // wait() has collected the last sync's result
    int result_ = 0;
    bool stopping_ = false;
    cpu_set_t cpus_{};
    bool have_cpus_ = false;
    std::thread thread_;
};

}  // namespace savepoint
