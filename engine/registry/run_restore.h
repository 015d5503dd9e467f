// A run rebuilt in this home from rows made elsewhere (remote/'s pull): the
// run, its branches, checkpoints, sessions and metrics. Checkpoints keep the
// ids they had where they are free (each file names its own id in its
// header); branches and sessions get new ones (ids count across a home's runs).
#pragma once

#include "registry/registry.h"

#include <cstdint>
#include <map>
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
// InputError when the run's name is taken here (nothing is written then).
// Checkpoint ids in `r` are the ids their files name; one taken here by
// another run is given a new id, and its row keeps the old as file_id.
// `placed` (optional): where each checkpoint is, file id -> row id.
std::int64_t restore_run(Registry& reg, const RestoredRun& r, std::map<std::int64_t, std::int64_t>* placed = nullptr);

// Checkpoints added to a run that exists here (a pull that brings what is
// newer on the same lineage); the head moves to `head`. One transaction.
// Branches are matched to this home's by when they were made and from which
// step; the others are added. Parents are found by the ids their files name.
void add_restored_checkpoints(Registry& reg, std::int64_t run_id, const RestoredRun& r,
                              std::map<std::int64_t, std::int64_t>* placed = nullptr);

// The matching rule above: `there` (made elsewhere) is `here`.
bool restored_same_branch(const BranchRow& here, const BranchRow& there);

}  // namespace savepoint
