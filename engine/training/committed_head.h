// The last checkpoint the session's I/O thread committed (or the one a resume
// loaded): the parent of the next save, the last good one after a divergence.
// Written by the I/O thread, read by the training thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>

namespace savepoint {

class CommittedHead {
public:
    void set(std::int64_t id, std::int64_t branch_id, std::int64_t global_step) {
        std::lock_guard<std::mutex> l(mutex_);
        id_ = id;
        branch_id_ = branch_id;
        global_step_ = global_step;
    }
    std::optional<std::int64_t> id() const {
        std::lock_guard<std::mutex> l(mutex_);
        return id_;
    }
    // The head and its global step, read together.
    std::optional<std::int64_t> id(std::int64_t* global_step) const {
        std::lock_guard<std::mutex> l(mutex_);
        *global_step = global_step_;
        return id_;
    }
    bool holds(std::int64_t branch_id, std::int64_t global_step) const {
        std::lock_guard<std::mutex> l(mutex_);
        return id_ && branch_id_ == branch_id && global_step_ == global_step;
    }

    // What the I/O thread's saves cost and leave, for progress reports and the low-disk warning.
    std::atomic<double> committed_at{0};  // wall clock of the last commit (0: none yet)
    std::atomic<double> io_seconds{0};    // writing, summed over the session
    std::atomic<std::int64_t> bytes{0};   // of the last checkpoint

private:
    mutable std::mutex mutex_;
    std::optional<std::int64_t> id_;
    std::int64_t branch_id_ = 0, global_step_ = -1;
};

}  // namespace savepoint
