// Where a session's time and saves went: kept by the training loop and its save
// policy as they happen, and handed over whole as part of TrainResult.
#pragma once

#include <cstdint>
#include <vector>

namespace savepoint {

struct SessionStats {
    // Seconds.
    std::int64_t steps = 0;   // steps computed in this session (replayed ones included)
    double loop_seconds = 0;  // from the first step to the end, everything included
    double validation_seconds = 0;
    double checkpoint_stall_seconds = 0;  // training thread blocked by checkpoints
    double train_seconds = 0;             // computing steps (the registry's sessions.train_seconds)
    double allreduce_seconds = 0;         // a data-parallel worker's gradient all-reduces (in train_seconds)
    std::int64_t allreduces = 0;
    double max_checkpoint_stall_ms = 0;
    std::int64_t checkpoints_requested = 0;
    std::int64_t copy_free_captures = 0;  // of those, how many kept the live buffers (CaptureMode)
    // The async policy at work (TrainConfig::async_policy): regular saves skipped,
    // and saves taken late with 'defer' (steps_deferred: how many steps late, summed).
    std::int64_t saves_skipped = 0, saves_deferred = 0, steps_deferred = 0;
    // Captures that first waited for the previous save to be written ('wait', or any
    // policy's manual, final or emergency save), and that waiting in all: the
    // part of checkpoint_stall_seconds the disk's speed decides.
    std::int64_t saves_waited = 0;
    double save_wait_seconds = 0;
    // With TrainHooks::record_step_times: seconds from the loop's start at which
    // each step computed in this session began. The gap to the next start is
    // that step plus whatever followed it (a checkpoint's capture, a wait).
    std::vector<double> step_started_at;
};

}  // namespace savepoint
