// How a session ends, in words and in the registry: one table row per Outcome
// (its name, exit code, session end, run status, last phase and event), and
// the names of the phases.
#include "training/trainer_impl.h"

#include <iterator>
#include <type_traits>
#include <variant>

namespace savepoint {

namespace {

// Everything a session's Outcome decides, in one row each, in the enum's order.
struct OutcomeRow {
    Outcome outcome;
    const char* name;  // as the CLI and the registry's session rows word it
    int exit_code;     // savepoint-cli's: 0 done, 3 resumable, 1 failed
    SessionEnd session_end;
    RunStatus run_status;
    Phase last_phase;  // of the session's last progress report
    EventKind event;   // the run's event that ends the session
};

// A diverged run is resumable: its status is 'interrupted' (the runs table's CHECK
// knows no 'diverged'; the session row says it).
constexpr OutcomeRow kOutcomes[] = {
    {Outcome::Finished, "finished", 0, SessionEnd::Finished, RunStatus::Finished, Phase::Done, EventKind::Finish},
    {Outcome::NothingToDo, "finished", 0, SessionEnd::Finished, RunStatus::Finished, Phase::Done, EventKind::Finish},
    {Outcome::Crashed, "interrupted", 3, SessionEnd::Crash, RunStatus::Interrupted, Phase::Interrupted,
     EventKind::Interruption},
    {Outcome::Preempted, "preempted", 3, SessionEnd::Preempted, RunStatus::Preempted, Phase::Preempted,
     EventKind::Preemption},
    {Outcome::Stopped, "stopped", 3, SessionEnd::Stopped, RunStatus::Stopped, Phase::Stopped, EventKind::Stop},
    {Outcome::Failed, "failed", 1, SessionEnd::Failed, RunStatus::Failed, Phase::Failed, EventKind::Error},
    {Outcome::Diverged, "diverged", 3, SessionEnd::Diverged, RunStatus::Interrupted, Phase::Diverged,
     EventKind::Divergence},
};

constexpr bool rows_in_enum_order() {
    for (std::size_t i = 0; i < std::size(kOutcomes); ++i)
        if (static_cast<std::size_t>(kOutcomes[i].outcome) != i) return false;
    return std::size(kOutcomes) == static_cast<std::size_t>(Outcome::Diverged) + 1;
}
static_assert(rows_in_enum_order(), "kOutcomes needs one row per Outcome, in the enum's order");

// TrainResult::reason's alternative says the outcome: one per Outcome, in the enum's order.
static_assert(std::variant_size_v<SessionReason> == std::size(kOutcomes));
static_assert(std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Outcome::Diverged), SessionReason>,
                             DivergedReason>);
static_assert(std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Outcome::Preempted), SessionReason>,
                             PreemptedReason>);
static_assert(std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Outcome::Crashed), SessionReason>,
                             CrashedReason>);

const OutcomeRow& row(Outcome o) { return kOutcomes[static_cast<std::size_t>(o)]; }

}  // namespace

int exit_code(Outcome o) { return row(o).exit_code; }
const char* outcome_name(Outcome o) { return row(o).name; }

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

SessionEnd session_end(Outcome o) { return row(o).session_end; }
RunStatus run_status(Outcome o) { return row(o).run_status; }
Phase ended_phase(Outcome o) { return row(o).last_phase; }
EventKind ending_event(Outcome o) { return row(o).event; }

}  // namespace trainer_detail

}  // namespace savepoint
