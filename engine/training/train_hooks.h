// What only tests and benchmarks set on a training request: switches that
// measure or order the trainer's inner workings. A front end leaves them as
// they are; none changes the bits a run trains to.
#pragma once

#include <cstdint>
#include <functional>

namespace savepoint {

struct TrainHooks {
    // Record when each step of the loop starts (SessionStats::step_started_at),
    // for bench_train's account of where a checkpoint's overhead goes.
    bool record_step_times = false;
    // bench_train's interleaved measurement: regular saves fall due only in
    // every other block of this many global steps (steps 1..N save, N+1..2N
    // do not, ...), so one run holds both conditions side by side and the
    // machine's drift from one run to the next cancels out. 0: all of them.
    std::int64_t save_blocks = 0;
    // Called on the training thread right after a save of global step `gs` is
    // handed to the I/O thread, to order it against what that thread is doing
    // (test_storage_retry).
    std::function<void(std::int64_t gs)> after_handover;
};

}  // namespace savepoint
