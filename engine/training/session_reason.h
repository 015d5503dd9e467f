// Why a session ended, as data: one struct per Outcome with the fields that
// outcome has (position, checkpoint, learning rate, grace period...). The
// engine's own TrainResult::message is a flag-free English sentence for logs
// and the registry; each front end words the reason for its users (the CLI
// with the command to type, the window with its controls and tr()).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace savepoint {

// A global step and where it falls: (epoch, step within it).
struct StepPlace {
    std::int64_t global_step = 0, epoch = 1, step = 0;
};
StepPlace step_place(std::int64_t global_step, std::int64_t steps_per_epoch);

struct FinishedReason {
    std::int64_t global_step = 0;
    double validation_loss = 0, accuracy = 0;
};
struct NothingToDoReason {
    std::string run;
    std::int64_t finished_at = 0;  // the run's last global step
};
struct CrashedReason {
    enum class Cause {
        Requested,         // request_crash() (the window's or a test's)
        AtRequestedStep,   // TrainRequest::interrupt_at_step
        DuringValidation,  // during the validation after `at`: the epoch's row was not recorded
        WorkerLost,        // a data-parallel worker was lost
    } cause = Cause::Requested;
    StepPlace at;
    int lost_rank = -1;                              // WorkerLost: -1 when the transport does not say
    bool follower = false;                           // WorkerLost: this process is not rank 0
    std::optional<std::int64_t> restart_checkpoint;  // WorkerLost on rank 0: torchrun restarts from it
    std::string transport;                           // WorkerLost: what the transport said
};
struct PreemptedReason {
    enum class How {
        AlreadySaved,  // a checkpoint already holds this step
        Emergency,     // an emergency checkpoint was written
        NotWritten,    // the emergency checkpoint could not be written
        Follower,      // not rank 0: rank 0 writes the job's checkpoint
    } how = How::Emergency;
    StepPlace at;
    std::int64_t save_ms = 0;  // Emergency: how long the write took
    double grace_seconds = 0;  // how long the notice gave
    bool too_late = false;     // Emergency: the write took longer than the grace period
};
struct StoppedReason {
    StepPlace at;
};
struct FailedReason {
    std::string storage_failure;  // why checkpoints cannot be committed; empty: retries ran out
};
struct DivergedReason {
    enum class Value { Loss, Gradient } value = Value::Loss;
    std::string tensor;  // Gradient: the parameter whose gradient it was ("fc1.bias")
    bool nan = false;    // Loss: NaN (true) or infinite; a gradient is checked for both at once
    StepPlace at;        // the step that diverged (its update was not made)
    std::optional<std::int64_t> good_checkpoint;  // the last good checkpoint, if one was saved
    StepPlace good_at;
    double learning_rate = 0;  // the rate that diverged
    std::string run;
};

using SessionReason = std::variant<FinishedReason, NothingToDoReason, CrashedReason, PreemptedReason, StoppedReason,
                                   FailedReason, DivergedReason>;

}  // namespace savepoint
