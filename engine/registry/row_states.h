// The words a registry row is in, as enums: code compares these, never string
// literals. The database keeps the words themselves (to_string / parse_*), so
// a registry reads the same before and after. parse_* throws RegistryDamaged
// on a word no Savepoint writes.
#pragma once

#include <string>

namespace savepoint {

enum class RunStatus { Created, Running, Paused, Finished, Interrupted, Preempted, Stopped, Failed };
enum class CheckpointState { Writing, Committed, Deleting, Deleted, Corrupt, Missing, Failed };
enum class CheckpointKind { Regular, Emergency, Final, Manual };
enum class SessionKind { Train, Resume, Rollback };
// How a session ended; None while it runs (an empty word in the database).
enum class SessionEnd { None, Finished, Crash, Preempted, Stopped, Failed, Killed, Interrupted, Diverged };
enum class EventKind {
    Start,
    Checkpoint,
    SaveSkipped,
    SaveDeferred,
    Interruption,
    PreemptionNotice,
    Preemption,
    Resume,
    Rollback,
    Finish,
    Stop,
    Error,
    Recovery,
    Pause,
    Continue,
    Divergence,     // the loss or a gradient became NaN or infinite; training stopped before the update
    Restart,        // torchrun restarted a data-parallel job after it lost a worker; it resumed on its own
    DeviceChanged,  // a resume trains on another device, GPU model or library than its checkpoint: other bits
    Throttled,      // the GPU slowed its clocks (power cap, heat)
    LowDisk,        // the home's file system is running out of room for checkpoints
};
// Stored as the integer itself.
enum class MetricKind : int { TrainingStep = 0, Validation = 1 };

const char* to_string(RunStatus v);
const char* to_string(CheckpointState v);
const char* to_string(CheckpointKind v);
const char* to_string(SessionKind v);
const char* to_string(SessionEnd v);
const char* to_string(EventKind v);

RunStatus parse_run_status(const std::string& word);
CheckpointState parse_checkpoint_state(const std::string& word);
CheckpointKind parse_checkpoint_kind(const std::string& word);
SessionKind parse_session_kind(const std::string& word);
SessionEnd parse_session_end(const std::string& word);
EventKind parse_event_kind(const std::string& word);
MetricKind parse_metric_kind(long long value);

}  // namespace savepoint
