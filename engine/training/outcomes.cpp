// How a session ends, in words and in the registry: the names of Outcome and
// Phase, the exit code, and the session end, run status and last phase each
// Outcome maps to (switches, so a new Outcome cannot be forgotten).
#include "training/trainer_impl.h"

namespace savepoint {

int exit_code(Outcome o) {
    switch (o) {
        case Outcome::Finished:
        case Outcome::NothingToDo:
            return 0;
        case Outcome::Crashed:
        case Outcome::Preempted:
        case Outcome::Stopped:
        case Outcome::Diverged:
            return 3;
        case Outcome::Failed:
            return 1;
    }
    return 1;
}

const char* outcome_name(Outcome o) {
    switch (o) {
        case Outcome::Finished:
            return "finished";
        case Outcome::NothingToDo:
            return "finished";
        case Outcome::Crashed:
            return "interrupted";
        case Outcome::Preempted:
            return "preempted";
        case Outcome::Stopped:
            return "stopped";
        case Outcome::Failed:
            return "failed";
        case Outcome::Diverged:
            return "diverged";
    }
    return "failed";
}

const char* to_string(Phase p) {
    switch (p) {
        case Phase::Loading:
            return "loading";
        case Phase::Replaying:
            return "replaying";
        case Phase::Training:
            return "training";
        case Phase::Validating:
            return "validating";
        case Phase::Checkpointing:
            return "checkpointing";
        case Phase::Paused:
            return "paused";
        case Phase::WaitingForDisk:
            return "waiting-for-disk";
        case Phase::Done:
            return "done";
        case Phase::Interrupted:
            return "interrupted";
        case Phase::Preempted:
            return "preempted";
        case Phase::Stopped:
            return "stopped";
        case Phase::Failed:
            return "failed";
        case Phase::Diverged:
            return "diverged";
    }
    return "failed";
}

namespace trainer_detail {

// How a session that ended with `o` is recorded: its end and the run's status.
SessionEnd session_end(Outcome o) {
    switch (o) {
        case Outcome::Finished:
        case Outcome::NothingToDo:
            return SessionEnd::Finished;
        case Outcome::Crashed:
            return SessionEnd::Crash;
        case Outcome::Preempted:
            return SessionEnd::Preempted;
        case Outcome::Stopped:
            return SessionEnd::Stopped;
        case Outcome::Failed:
            return SessionEnd::Failed;
        case Outcome::Diverged:
            return SessionEnd::Diverged;
    }
    return SessionEnd::Failed;
}

RunStatus run_status(Outcome o) {
    switch (o) {
        case Outcome::Finished:
        case Outcome::NothingToDo:
            return RunStatus::Finished;
        case Outcome::Crashed:
        case Outcome::Diverged:  // resumable; the runs table's CHECK knows no 'diverged' (the session says it)
            return RunStatus::Interrupted;
        case Outcome::Preempted:
            return RunStatus::Preempted;
        case Outcome::Stopped:
            return RunStatus::Stopped;
        case Outcome::Failed:
            return RunStatus::Failed;
    }
    return RunStatus::Failed;
}

// The phase of a session's last progress report.
Phase ended_phase(Outcome o) {
    switch (o) {
        case Outcome::Finished:
        case Outcome::NothingToDo:
            return Phase::Done;
        case Outcome::Crashed:
            return Phase::Interrupted;
        case Outcome::Preempted:
            return Phase::Preempted;
        case Outcome::Stopped:
            return Phase::Stopped;
        case Outcome::Failed:
            return Phase::Failed;
        case Outcome::Diverged:
            return Phase::Diverged;
    }
    return Phase::Failed;
}

}  // namespace trainer_detail

}  // namespace savepoint
