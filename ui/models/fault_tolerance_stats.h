// The arithmetic of the fault-tolerance panel, kept free of Qt widgets and of
// the registry (it takes only the registry's SessionEnd words, row_states.h) so
// it can be unit-tested with numbers worked out by hand.
// Pure value type: build the inputs, call compute(), read the outputs.
#pragma once

#include "registry/row_states.h"

#include <cstdint>
#include <vector>

namespace savepoint::ui {

struct FtSession {
    std::int64_t start_global_step = 0;      // state loaded (checkpoint position)
    std::int64_t target_global_step = 0;     // replayed up to here before training on
    std::int64_t end_global_step = 0;        // last step completed
    SessionEnd ended_by = SessionEnd::None;  // None while running
    double started_at = 0, ended_at = 0;     // wall clock; ended_at 0 while running
    std::int64_t steps_computed = 0;         // steps trained in this session (new + recomputed)
    std::int64_t steps_replayed = 0;         // steps replayed to reach a typed epoch/step
    double train_seconds = 0;                // compute time of the steps
    double checkpoint_seconds = 0;           // checkpoint write time (I/O thread)
    double checkpoint_stall_seconds = 0;     // time the training thread was blocked capturing state
    // Started at an earlier position by choice (a rollback: SessionKind::Rollback):
    // what the session before it computed past that position was given up, not lost.
    bool rollback = false;
    // Where a plain resume would have started when this session ended: its
    // branch's newest checkpoint then, or its own start (-1: unknown).
    std::int64_t resume_point_at_end = -1;
    // A data-parallel job's session: its workers, and whether torchrun started
    // it after a lost worker (every worker's time counts, and every worker's loss).
    int world_size = 1;
    bool job_restart = false;
};

struct FtInputs {
    std::vector<FtSession> sessions;          // in the order they ran
    std::int64_t checkpoints_written = 0;     // committed saves (any later state)
    std::vector<double> checkpoint_write_ms;  // per save, for the mean cost
    std::vector<double> checkpoint_stall_ms;  // per save, the training thread's wait for it
    // Saves the async policy skipped or took late because the previous one was
    // still being written (the run's save_skipped / save_deferred events).
    std::int64_t saves_skipped = 0, saves_deferred = 0;
    std::int64_t useful_steps = 0;  // global step reached on the active lineage
    // Where a resume would start (the run's head checkpoint's global step; -1:
    // unknown). Work an interrupted last session did past it counts as lost
    // now, not only once a later session has resumed.
    std::int64_t resume_point_global_step = -1;
    double now = 0;                      // for a session still running
    double assumed_mtbf_seconds = 3600;  // used when no failure was observed (or forced)
    bool force_assumed_mtbf = false;
    double spot_discount = 0.7;            // 0.7: spot costs 30 % of on-demand
    double seconds_per_step_override = 0;  // 0: measured
};

struct FtStats {
    std::int64_t checkpoints_written = 0;
    double checkpoint_seconds = 0;  // total write time
    double checkpoint_stall_seconds = 0;
    double checkpoint_share = 0;      // checkpoint_seconds / train_seconds
    double stall_share = 0;           // checkpoint_stall_seconds / train_seconds: what saves cost training
    double train_seconds = 0;         // compute time of all steps
    int interruptions = 0;            // sessions ended by crash, preemption, kill or failure
    std::int64_t steps_computed = 0;  // every step trained or replayed, in every session
    // Computed beyond the point an interruption left to resume from (a rollback's
    // choice is not counted: steps_by_choice).
    std::int64_t steps_lost = 0;
    std::int64_t steps_recomputed = 0;  // of those, trained again (or replayed) by a later session
    std::int64_t steps_by_choice = 0;   // given up by rollbacks, to be recomputed by choice
    double seconds_per_step = 0;
    double wall_seconds_lost = 0;  // lost steps x seconds per step (waiting to resume is not lost work)
    double downtime_seconds = 0;   // between an interruption and the next session: waiting, shown apart
    std::int64_t useful_steps = 0;
    double goodput = 1;  // useful / computed
    double mean_checkpoint_cost_seconds = 0;
    double mtbf_seconds = 0;
    bool mtbf_observed = false;
    double optimal_interval_seconds = 0;  // Young/Daly: sqrt(2 C M)
    double optimal_interval_steps = 0;
    double instance_seconds = 0;  // wall time of all sessions ("training seconds")
    double billable_seconds = 0;  // at the spot discount
    double savings_fraction = 0;
    double savings_seconds = 0;
    // Data-parallel jobs (a single process counts as one worker).
    int max_world_size = 1;
    int job_restarts = 0;            // sessions torchrun started after a lost worker
    double worker_seconds = 0;       // wall time of each session times its workers
    double worker_seconds_lost = 0;  // lost steps x seconds per step x the workers that computed them
    double useful_steps_per_worker_hour = 0;
};

// Young (1974) / Daly (2006) first-order optimum: the checkpoint interval that
// minimizes expected lost time for checkpoint cost C and mean time between failures M.
double young_daly_interval(double cost_seconds, double mtbf_seconds);

// Ended by a crash, a preemption, a kill or a failure (a stop or the finish is not one).
bool is_interruption(SessionEnd ended_by);

FtStats compute_fault_tolerance(const FtInputs& in);

}  // namespace savepoint::ui
