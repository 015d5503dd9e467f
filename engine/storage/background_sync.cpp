#include "storage/background_sync.h"

#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <stdexcept>

namespace savepoint {

BackgroundSync::BackgroundSync() {
    thread_ = std::thread([this] { loop(); });
}

BackgroundSync::~BackgroundSync() {
    wait();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void BackgroundSync::start(int fd, int injected) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        // Not `finished_`: a sync that ended on its own but was never collected is a caller's bug too,
        // and a check that depended on how fast the disk was would catch it only sometimes.
        if (!waited_) throw std::logic_error("BackgroundSync::start: the previous sync was not waited for");
        waited_ = false;
        requested_ = true;
        fd_ = fd;
        injected_ = injected;
        entering_.store(false);
        finished_ = false;
        have_cpus_ = pthread_getaffinity_np(pthread_self(), sizeof cpus_, &cpus_) == 0;
    }
    cv_.notify_all();
    // Hand the CPU over until the helper is about to enter fdatasync. Without
    // this, a helper woken on the CPU this thread then hashes on waits out a
    // whole scheduler time slice before it even issues the fdatasync.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
    while (!entering_.load() && std::chrono::steady_clock::now() < give_up) sched_yield();
}

int BackgroundSync::wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return finished_; });
    waited_ = true;
    return result_;
}

void BackgroundSync::loop() {
    cpu_set_t current{};
    bool have_current = false;
    for (;;) {
        int fd = -1, injected = 0;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            cv_.wait(lock, [this] { return stopping_ || requested_; });
            if (!requested_) return;  // stopping, nothing pending
            requested_ = false;
            fd = fd_;
            injected = injected_;
            if (have_cpus_ && (!have_current || !CPU_EQUAL(&current, &cpus_))) {
                current = cpus_;
                have_current = pthread_setaffinity_np(pthread_self(), sizeof current, &current) == 0;
            }
        }
        entering_.store(true);
        int err = injected;
        while (err == 0 && ::fdatasync(fd) != 0) {
            if (errno == EINTR) continue;
            err = errno;
            break;
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            result_ = err;
            finished_ = true;
        }
        cv_.notify_all();
    }
}

}  // namespace savepoint
