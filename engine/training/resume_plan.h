// Decides where a resume starts: which checkpoint to load (after verifying it
// in full), how many steps to replay deterministically to reach a chosen
// epoch and step, and whether this is a rollback (a new branch).
#pragma once

#include "registry/registry.h"

#include <optional>
#include <string>
#include <vector>

namespace savepoint {

struct ResumeTarget {
    std::optional<std::int64_t> checkpoint_id;  // --checkpoint ID
    std::optional<std::int64_t> epoch, step;    // --epoch E --step S
};

struct ResumePlan {
    std::optional<CheckpointRow> from;    // nullopt: from the very beginning
    std::int64_t start_global_step = 0;   // the state loaded
    std::int64_t target_global_step = 0;  // replay up to here before training on
    bool rollback = false;                // older than the head: a new branch
    bool nothing_to_do = false;           // run already complete, and no target before its head given
    // The branch whose learning rate the replayed and new steps take (BranchRow::lr):
    // the one whose steps follow `from` on the way to the target.
    std::int64_t lr_branch_id = 0;
    std::vector<std::string> notes;  // fallbacks taken ("checkpoint #7 is corrupt: ...; using #6")
};

// Throws InputError for an unknown or damaged explicit checkpoint, or an
// out-of-range epoch/step. Marks checkpoints that fail full verification as
// 'corrupt' in the registry (they are never offered again).
ResumePlan plan_resume(Registry& registry, const RunRow& run, const ResumeTarget& target, std::int64_t epochs);
// The target's own checks (the checkpoint exists in this run and is usable;
// epoch and step in range), InputError otherwise; reads only. plan_resume
// starts with them; a resume calls them first too, before loading its dataset.
void check_resume_target(Registry& registry, const RunRow& run, const ResumeTarget& target, std::int64_t epochs);
// Where a plain resume of `run` starts: its head checkpoint's global step (0: no head).
std::int64_t head_global_step(Registry& registry, const RunRow& run);
// Whether resuming `run` at `target` starts a new branch: a checkpoint other than the
// head, or an epoch and step before the head's global step. plan_resume decides with
// it, and the window asks before one, so both say the same of every target.
bool is_rollback(const RunRow& run, std::int64_t head_global_step, const ResumeTarget& target);

}  // namespace savepoint
