// The checkpoint rows of one run, followed without re-reading its history.
//
// A run that saves every step keeps its whole history in the registry (rows
// retired by retention stay, as 'deleted'), so a view that re-read all of it
// on every refresh spent more and more of the GUI thread (docs/PERFORMANCE.md,
// checkpoint list). A refresh here reads only the rows added since, and re-reads the
// rows that can still change: every state but 'deleted' and 'failed', which
// nothing moves a checkpoint out of. Those are a handful (kept, best, pinned,
// being written or removed) however long the run.
#pragma once

#include "registry/registry.h"

#include <cstdint>
#include <vector>

namespace savepoint {

class CheckpointList {
public:
    // Reads all of `run_id`'s rows: on a change of run, or to start over.
    void load(Registry& reg, std::int64_t run_id);
    // The same with rows read elsewhere (Registry::checkpoints, on another
    // thread and connection): a long history is read off the GUI thread.
    void load(std::int64_t run_id, std::vector<CheckpointRow> rows);
    // Takes new rows and the changes of the rows that can still change.
    // Returns whether anything differs from before.
    bool refresh(Registry& reg);
    // Re-reads one row, whatever its state: after an action on it that may
    // change a settled row (pinning a deleted checkpoint, verifying one).
    bool reread(Registry& reg, std::int64_t id);

    std::int64_t run_id() const { return run_id_; }
    const std::vector<CheckpointRow>& rows() const { return rows_; }  // by id
    // Copies of the rows not in a final state (by id): all that a view shows
    // unless asked for the retired ones.
    std::vector<CheckpointRow> open_rows() const;

private:
    bool replace(std::vector<CheckpointRow> fresh, const std::vector<std::int64_t>& asked);
    const CheckpointRow* find(std::int64_t id) const;  // by binary search on the id
    CheckpointRow* find(std::int64_t id);
    void update_open(const std::vector<std::int64_t>& candidates);

    std::int64_t run_id_ = 0;
    std::vector<CheckpointRow> rows_;
    std::vector<std::int64_t> open_;  // ids of the rows not in a final state, ascending
};

// True for the states no checkpoint leaves.
bool checkpoint_state_is_final(CheckpointState state);
// The fields a checkpoint's row can change after its insert (state, pin, path, size, hashes, timings).
bool same_checkpoint_row(const CheckpointRow& a, const CheckpointRow& b);

}  // namespace savepoint
