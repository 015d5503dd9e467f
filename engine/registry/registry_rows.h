// One row mapper per table: the column list each query of a table selects,
// and the one function that turns a statement's columns into that table's row.
// Private to engine/registry/ (it speaks SQLite through sqlite_stmt.h).
#pragma once

#include "registry/registry.h"
#include "registry/sqlite_stmt.h"

#include <string>
#include <vector>

namespace savepoint {

extern const char* const kRunColumns;
extern const char* const kBranchColumns;
extern const char* const kSessionColumns;
extern const char* const kCheckpointColumns;
extern const char* const kMetricColumns;  // after the rowid, which metrics() selects first
extern const char* const kEventColumns;

// Each reads the columns of its list, in order, starting at column `first`.
RunRow read_run(const Stmt& s, int first = 0);
BranchRow read_branch(const Stmt& s, int first = 0);
SessionRow read_session(const Stmt& s, int first = 0);
CheckpointRow read_checkpoint(const Stmt& s, int first = 0);
MetricRow read_metric(const Stmt& s, int first = 0);
EventRow read_event(const Stmt& s, int first = 0);

// Inserts metric rows of a run inside the caller's transaction (append_metrics, a restored run).
void insert_metrics(sqlite3* db, const std::string& path, std::int64_t run_id, const std::vector<MetricRow>& rows);

// "SELECT <columns> FROM <table> <rest>".
std::string select_from(const char* columns, const char* table, const std::string& rest);

// Every row a statement yields, through its table's mapper.
template <typename Row>
std::vector<Row> read_all(Stmt& s, Row (*read)(const Stmt&, int)) {
    std::vector<Row> out;
    while (s.step()) out.push_back(read(s, 0));
    return out;
}

}  // namespace savepoint
