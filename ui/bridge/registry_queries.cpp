#include "bridge/registry_queries.h"

#include "registry/sqlite_stmt.h"

namespace savepoint::ui {

std::vector<RunSummary> loadRunSummaries(savepoint::Registry& reg) {
    std::vector<RunSummary> out;
    for (auto& r : reg.list_runs()) {
        RunSummary s;
        s.run = r;
        out.push_back(std::move(s));
    }
    savepoint::Stmt branches(reg.db(), "SELECT COUNT(*) FROM branches WHERE run_id=?", reg.path());
    savepoint::Stmt sessions(reg.db(), "SELECT COUNT(*) FROM sessions WHERE run_id=?", reg.path());
    // The newest row of each kind; the index on (run_id, session_id, global_step) keeps this cheap.
    savepoint::Stmt last(reg.db(),
                         "SELECT loss, accuracy FROM metrics WHERE run_id=? AND kind=? "
                         "ORDER BY session_id DESC, global_step DESC LIMIT 1",
                         reg.path());
    for (auto& s : out) {
        branches.reset();
        branches.bind(1, s.run.id);
        if (branches.step()) s.branches = static_cast<int>(branches.i64(0));
        sessions.reset();
        sessions.bind(1, s.run.id);
        if (sessions.step()) s.sessions = static_cast<int>(sessions.i64(0));
        for (int kind = 0; kind < 2; ++kind) {
            last.reset();
            last.bind(1, s.run.id).bind(2, kind);
            if (last.step()) {
                (kind == 0 ? s.loss : s.val_loss) = last.f64(0);
                (kind == 0 ? s.accuracy : s.val_accuracy) = last.f64(1);
            }
        }
    }
    return out;
}

std::int64_t metricCount(savepoint::Registry& reg, std::int64_t run_id) {
    savepoint::Stmt st(reg.db(), "SELECT COUNT(*) FROM metrics WHERE run_id=?", reg.path());
    st.bind(1, run_id);
    return st.step() ? st.i64(0) : 0;
}

}  // namespace savepoint::ui
