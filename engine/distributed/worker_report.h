// What the workers of a job other than rank 0 tell it, since only rank 0 opens
// the registry: each sends, through the store, what it alone knows when its
// session ends (its notes, steps, time computing and in the all-reduce, how it
// ended); rank 0 adds each to the worker list its session records. Their
// losses and correct answers reach rank 0 every step inside the all-reduce.
// Training thread only.
#pragma once

#include "distributed/process_group.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace savepoint {

struct WorkerReport {
    std::vector<std::string> notes;  // what this worker said that rank 0 could not know
    std::int64_t steps = 0;          // steps computed this session
    double train_seconds = 0;        // computing them, all-reduce included
    double allreduce_seconds = 0;
    std::string ended;  // how its session ended (to_string(SessionEnd))
};

// Ranks 1...: never throws (rank 0 may have stopped waiting).
void send_worker_report(ProcessGroup& group, const WorkerReport& report);

// Rank 0: group.workers() with each rank's report under "report" (waiting up to
// `wait` for all of them; a rank that sent none within it keeps none), and a
// line for each report, for the log.
struct GatheredReports {
    std::string workers_json;
    std::vector<std::string> lines;
};
GatheredReports gather_worker_reports(ProcessGroup& group, std::chrono::milliseconds wait);

}  // namespace savepoint
