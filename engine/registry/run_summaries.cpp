// The run list's summaries: each run with its branch and session counts and its
// newest metrics, read in a few prepared statements rather than a query per
// number (the window refreshes the list about once a second).
#include "registry/registry.h"

#include "registry/registry_rows.h"
#include "registry/sqlite_stmt.h"

#include <nlohmann/json.hpp>

namespace savepoint {

std::vector<RunSummary> Registry::run_summaries() {
    std::vector<RunSummary> out;
    for (auto& r : list_runs()) {
        RunSummary s;
        s.run = std::move(r);
        out.push_back(std::move(s));
    }
    Stmt branches(db_, "SELECT COUNT(*) FROM branches WHERE run_id=?", path_);
    Stmt sessions(db_,
                  "SELECT COUNT(*), SUM(restart_count > 0), "
                  "(SELECT world_size FROM sessions WHERE run_id=?1 ORDER BY id DESC LIMIT 1), "
                  "(SELECT workers FROM sessions WHERE run_id=?1 ORDER BY id DESC LIMIT 1) "
                  "FROM sessions WHERE run_id=?1",
                  path_);
    // The newest row of each kind; the index on (run_id, session_id, global_step) keeps this cheap.
    Stmt last(db_,
              "SELECT loss, accuracy FROM metrics WHERE run_id=? AND kind=? "
              "ORDER BY session_id DESC, global_step DESC LIMIT 1",
              path_);
    for (auto& s : out) {
        branches.reset();
        branches.bind(1, s.run.id);
        if (branches.step()) s.branches = static_cast<int>(branches.i64(0));
        sessions.reset();
        sessions.bind(1, s.run.id);
        if (sessions.step()) {
            s.sessions = static_cast<int>(sessions.i64(0));
            s.restarts = static_cast<int>(sessions.i64(1));
            s.world_size = s.sessions > 0 ? static_cast<int>(sessions.i64(2)) : 1;
            if (s.world_size > 1) s.workers = parse_workers(sessions.text(3));
        }
        for (const MetricKind kind : {MetricKind::TrainingStep, MetricKind::Validation}) {
            const bool train = kind == MetricKind::TrainingStep;
            last.reset();
            last.bind(1, s.run.id).bind(2, static_cast<int>(kind));
            if (last.step()) {
                (train ? s.loss : s.val_loss) = last.f64(0);
                (train ? s.accuracy : s.val_accuracy) = last.f64(1);
            }
        }
    }
    return out;
}

std::vector<WorkerSummary> parse_workers(const std::string& workers_json) {
    std::vector<WorkerSummary> out;
    const nlohmann::json all = nlohmann::json::parse(workers_json, nullptr, false);
    if (!all.is_array()) return out;
    for (const auto& w : all) {
        if (!w.is_object()) continue;
        WorkerSummary x;
        x.rank = w.value("rank", 0);
        x.host = w.value("host", std::string());
        x.pid = w.value("pid", std::int64_t{0});
        if (const auto r = w.find("report"); r != w.end() && r->is_object()) {
            x.reported = true;
            x.steps = r->value("steps", std::int64_t{0});
            x.train_seconds = r->value("train_seconds", 0.0);
            x.allreduce_seconds = r->value("allreduce_seconds", 0.0);
            x.ended = r->value("ended", std::string());
        }
        out.push_back(std::move(x));
    }
    return out;
}

std::int64_t Registry::metric_count(std::int64_t run_id) {
    Stmt st(db_, "SELECT COUNT(*) FROM metrics WHERE run_id=?", path_);
    st.bind(1, run_id);
    return st.step() ? st.i64(0) : 0;
}

}  // namespace savepoint
