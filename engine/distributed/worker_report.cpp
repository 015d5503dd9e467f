#include "distributed/worker_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace savepoint {

namespace {

std::string key_of(int rank) { return "report/" + std::to_string(rank); }

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f s", s);
    return buf;
}

}  // namespace

void send_worker_report(ProcessGroup& group, const WorkerReport& r) {
    const nlohmann::json j{{"notes", r.notes},
                           {"steps", r.steps},
                           {"train_seconds", r.train_seconds},
                           {"allreduce_seconds", r.allreduce_seconds},
                           {"ended", r.ended}};
    try {
        group.set(key_of(group.rank()), j.dump());
    } catch (const std::exception&) {
        // Rank 0 is gone or stopped waiting: this worker's report is lost, not its work.
    }
}

GatheredReports gather_worker_reports(ProcessGroup& group, std::chrono::milliseconds wait) {
    GatheredReports out;
    nlohmann::json workers = nlohmann::json::parse(group.workers(), nullptr, false);
    if (!workers.is_array()) workers = nlohmann::json::array();
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (auto& w : workers) {
        const int rank = w.value("rank", 0);
        if (rank == 0) continue;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        std::string who = "worker " + std::to_string(rank) + " (" + w.value("host", std::string("?")) + ", pid " +
                          std::to_string(w.value("pid", std::int64_t{0})) + ")";
        if (!group.wait_for(key_of(rank), std::max(left, std::chrono::milliseconds(1)))) {
            out.lines.push_back(who + " sent no report");
            continue;
        }
        const nlohmann::json r = nlohmann::json::parse(group.get(key_of(rank)), nullptr, false);
        if (!r.is_object()) continue;
        w["report"] = r;
        const double train = r.value("train_seconds", 0.0), ar = r.value("allreduce_seconds", 0.0);
        std::string line = who + ": " + std::to_string(r.value("steps", std::int64_t{0})) + " steps, " +
                           seconds_text(train) + " computing, " + seconds_text(ar) + " of it in the all-reduce";
        line += ", " + r.value("ended", std::string("?"));
        out.lines.push_back(line);
        for (const auto& n : r.value("notes", nlohmann::json::array()))
            if (n.is_string()) out.lines.push_back(who + " said: " + n.get<std::string>());
    }
    out.workers_json = workers.dump();
    return out;
}

}  // namespace savepoint
