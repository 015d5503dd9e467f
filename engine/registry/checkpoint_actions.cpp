#include "registry/checkpoint_actions.h"

#include "registry/run_lock.h"
#include "storage/durable_io.h"

#include <string>

namespace savepoint {
namespace {

using Why = CheckpointRefused::Why;

CheckpointRow checkpoint_of_run(Registry& reg, const RunRow& run, std::int64_t id) {
    auto c = reg.checkpoint(id);
    if (!c || c->run_id != run.id) throw no_checkpoint_in_run(run, id);
    return *c;
}

}  // namespace

CheckpointRefused no_checkpoint_in_run(const RunRow& run, std::int64_t id, const std::string& hint) {
    return CheckpointRefused(
        Why::NotInRun, id, "a checkpoint of run '" + run.name + "'", "#" + std::to_string(id),
        "no checkpoint #" + std::to_string(id) + " in run '" + run.name + "'" + (hint.empty() ? "" : " " + hint));
}

CheckpointChange set_checkpoint_pinned(Registry& reg, const RunRow& run, std::int64_t id, bool pinned) {
    const CheckpointRow c = checkpoint_of_run(reg, run, id);
    if (pinned && !c.usable())
        throw CheckpointRefused(Why::NotCommitted, c.id, "committed", to_string(c.state),
                                "checkpoint #" + std::to_string(c.id) + " is " + to_string(c.state) +
                                    (c.state_detail.empty() ? "" : " (" + c.state_detail + ")") +
                                    "; only a committed checkpoint can be pinned",
                                c.state);
    if (c.pinned == pinned) return {c, false};
    reg.set_checkpoint_pinned(c.id, pinned);
    return {c, true};
}

CheckpointRow checkpoint_to_delete(Registry& reg, const RunRow& run, std::int64_t id) {
    CheckpointRow c = checkpoint_of_run(reg, run, id);
    // The run's row as it is now: the head may have moved since `run` was read.
    const auto now = reg.run_by_id(run.id);
    if (now && now->head_checkpoint_id == c.id)
        throw CheckpointRefused(
            Why::IsHead, c.id, "a checkpoint other than the head", "the head",
            "checkpoint #" + std::to_string(c.id) + " is the head (where training resumes); it cannot be deleted",
            c.state);
    return c;
}

CheckpointChange delete_checkpoint(Registry& reg, const RunRow& run, std::int64_t id) {
    // The run's writer lock: a training process would retire, rewrite or resume from this very
    // file meanwhile. RunBusy (naming the holder) while one trains the run, in any process.
    FileLock writer(run_lock_path(reg.home(), run.name), /*wait=*/false, "run '" + run.name + "'");
    const CheckpointRow c = checkpoint_to_delete(reg, run, id);
    if (c.state == CheckpointState::Deleted) return {c, false};
    reg.set_checkpoint_state(c.id, CheckpointState::Deleting);
    remove_durably(reg.absolute(c.path));
    reg.set_checkpoint_state(c.id, CheckpointState::Deleted);
    return {c, true};
}

}  // namespace savepoint
