// A run rebuilt in this home from rows made elsewhere (remote/'s pull): the
// run, its branches, checkpoints, sessions and metrics, with the ids they had,
// since each checkpoint file names its own id in its header.
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
// InputError when the run's name or one of the ids is taken here (nothing is
// written then).
std::int64_t restore_run(Registry& reg, const RestoredRun& r);

// Checkpoints added to a run that exists here (a pull that brings what is
// newer on the same lineage); the head moves to `head`. One transaction.
void add_restored_checkpoints(Registry& reg, std::int64_t run_id, const RestoredRun& r);

}  // namespace savepoint
