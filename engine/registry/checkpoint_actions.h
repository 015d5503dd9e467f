// What a user may do to one checkpoint of a run — pin it, unpin it, delete it —
// with the rules both front ends keep (the CLI's pin/unpin, the window's
// buttons): a rule lives here once, so the two cannot disagree.
//
// A refusal is a CheckpointRefused (an InputError about the field
// "checkpoint"), thrown before anything is changed; the CLI says it as
// "--checkpoint: …", the window words why() as a sentence of its own. Use from
// the thread that owns `reg`.
#pragma once

#include "platform/errors.h"
#include "registry/registry.h"

#include <cstdint>
#include <optional>
#include <string>

namespace savepoint {

class CheckpointRefused : public InputError {
public:
    enum class Why {
        NotInRun,      // no such checkpoint in the run
        NotCommitted,  // pinning one that has no usable file (writing, deleted, corrupt…)
        IsHead,        // deleting the checkpoint training resumes from
    };
    CheckpointRefused(Why why, std::int64_t id, std::string expected, std::string found, std::string says,
                      std::optional<CheckpointState> state = std::nullopt)
        : InputError("checkpoint", std::move(expected), std::move(found), Says{std::move(says)}),
          why_(why),
          id_(id),
          state_(state) {}
    Why why() const { return why_; }
    std::int64_t checkpoint_id() const { return id_; }
    // The checkpoint's state when it was refused (none: no such checkpoint in the run),
    // so a front end can word it without reading found().
    std::optional<CheckpointState> state() const { return state_; }

private:
    Why why_;
    std::int64_t id_;
    std::optional<CheckpointState> state_;
};

// "no checkpoint #<id> in run '<name>'", then `hint` when there is one
// (resume adds where to see the run's checkpoints): one wording for pin,
// unpin, delete and resume.
CheckpointRefused no_checkpoint_in_run(const RunRow& run, std::int64_t id, const std::string& hint = {});

struct CheckpointChange {
    CheckpointRow before;  // the row as it was
    bool changed = false;  // false: it already was as asked (pinned, unpinned, deleted)
};

// Pins or unpins checkpoint `id` of `run`. Refused: no checkpoint `id` in the
// run; pinning one that is not committed (a pin keeps a file from retention,
// and a checkpoint without a usable file has none to keep).
CheckpointChange set_checkpoint_pinned(Registry& reg, const RunRow& run, std::int64_t id, bool pinned);

// The checks of delete_checkpoint alone, for a front end that asks the user
// before deleting: the row to delete, or a CheckpointRefused.
CheckpointRow checkpoint_to_delete(Registry& reg, const RunRow& run, std::int64_t id);

// Deletes checkpoint `id` of `run` by retention's protocol: mark it 'deleting',
// remove its file durably, mark it 'deleted' (recovery finishes a half-done
// one); the row stays in the history. Refused: no checkpoint `id` in the run;
// the run's head (where training resumes). Throws RunBusy while a process
// trains the run (it holds the run's lock), and StorageError when the file
// cannot be removed (the row is left 'deleting' for recovery).
CheckpointChange delete_checkpoint(Registry& reg, const RunRow& run, std::int64_t id);

}  // namespace savepoint
