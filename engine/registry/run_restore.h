// A run rebuilt in this home from rows made elsewhere (remote/'s pull): the
// run, its branches, checkpoints, sessions and metrics. Checkpoints keep the
// ids they had, since each checkpoint file names its own id in its header;
// branches and sessions get new ones (ids count across the runs of a home).
#pragma once

#include "registry/registry.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace savepoint {

struct RestoredRun {
    RunRow run;  // name, config, steps, device, status, global_step; the id is new
    std::vector<BranchRow> branches;
    std::vector<CheckpointRow> checkpoints;  // path relative to the home; state as it is to be
    std::vector<SessionRow> sessions;
    std::vector<MetricRow> metrics;
    std::optional<std::int64_t> head;
    std::string note;  // the Recovery event recorded with it ("pulled from s3://…")
};

// Inserts it all in one transaction and returns the run's new id. Throws
// InputError when the run's name or one of its checkpoint ids is taken here
// (nothing is written then).
std::int64_t restore_run(Registry& reg, const RestoredRun& r);

// The check restore_run makes first (only the checkpoints' ids and the run's name are read).
void check_checkpoint_ids_free(Registry& reg, const RestoredRun& r);

// Checkpoints added to a run that exists here (a pull that brings what is
// newer on the same lineage); the head moves to `head`. One transaction.
// Branches are matched to this home's by when they were made and from which
// step; the others are added.
void add_restored_checkpoints(Registry& reg, std::int64_t run_id, const RestoredRun& r);

// The matching rule above: `there` (made elsewhere) is `here`.
bool restored_same_branch(const BranchRow& here, const BranchRow& there);

}  // namespace savepoint
