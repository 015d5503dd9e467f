// Read-only summaries the window needs beyond the Registry API (latest metric
// values, branch counts). Use with the calling thread's own Registry.
#pragma once

#include "registry/registry.h"

#include <vector>

namespace savepoint::ui {

struct RunSummary {
    savepoint::RunRow run;
    int branches = 1;
    int sessions = 0;
    double loss = NAN, accuracy = NAN;          // last training step
    double val_loss = NAN, val_accuracy = NAN;  // last validation
};

std::vector<RunSummary> loadRunSummaries(savepoint::Registry& reg);

// How many metric rows a run has (to decide whether to load in the background).
std::int64_t metricCount(savepoint::Registry& reg, std::int64_t run_id);

}  // namespace savepoint::ui
