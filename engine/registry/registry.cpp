#include "registry/registry.h"

#include "platform/errors.h"
#include "registry/registry_rows.h"
#include "registry/registry_schema.h"
#include "registry/run_refusals.h"
#include "registry/sqlite_stmt.h"
#include "storage/durable_io.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>

namespace savepoint {
namespace {

// A query for whole checkpoint rows: `rest` follows "FROM checkpoints".
std::string select_checkpoints(const char* rest) { return select_from(kCheckpointColumns, "checkpoints", rest); }

std::vector<CheckpointRow> read_checkpoints(Stmt& s) { return read_all(s, read_checkpoint); }

}  // namespace

std::string checkpoint_file_name(std::int64_t id) {
    char name[48];
    std::snprintf(name, sizeof name, "ckpt-%08lld.svpt", static_cast<long long>(id));
    return name;
}

double now_seconds() {
    using namespace std::chrono;
    return duration_cast<duration<double>>(system_clock::now().time_since_epoch()).count();
}

std::string registry_path(const std::string& home) { return home + "/registry.sqlite"; }

void Registry::begin() { exec_sql(db_, "BEGIN IMMEDIATE", path_); }
void Registry::commit() {
    if (int err = fault_point("registry.commit", path_))
        throw StorageError(path_ + ": registry commit failed: " + std::strerror(err), path_, err);
    exec_sql(db_, "COMMIT", path_);
}
void Registry::rollback() noexcept { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }

Registry::Transaction::Transaction(Registry& reg) : reg_(reg) { reg_.begin(); }

Registry::Transaction::~Transaction() {
    if (!done_) reg_.rollback();
}

void Registry::Transaction::commit() {
    reg_.commit();
    done_ = true;
}

Registry::RelaxedCommits::RelaxedCommits(Registry& reg) : reg_(reg) {
    exec_sql(reg_.db_, "PRAGMA synchronous=NORMAL", reg_.path_);
}

Registry::RelaxedCommits::~RelaxedCommits() {
    // Cannot fail in a way worth throwing from a destructor: the pragma touches no file.
    sqlite3_exec(reg_.db_, "PRAGMA synchronous=FULL", nullptr, nullptr, nullptr);
}

std::int64_t Registry::create_run(const std::string& name, const std::string& config_json, std::int64_t steps_per_epoch,
                                  std::int64_t total_steps, const std::string& device) {
    if (find_run(name)) throw run_already_exists(name);
    const double t = now_seconds();
    Transaction tx(*this);
    Stmt s(db_,
           "INSERT INTO runs(name, config_json, steps_per_epoch, total_steps, status, created_at, updated_at, device) "
           "VALUES (?,?,?,?, 'created', ?, ?, ?)",
           path_);
    s.bind(1, name)
        .bind(2, config_json)
        .bind(3, steps_per_epoch)
        .bind(4, total_steps)
        .bind(5, t)
        .bind(6, t)
        .bind(7, device);
    s.run();
    std::int64_t run_id = sqlite3_last_insert_rowid(db_);
    Stmt b(db_, "INSERT INTO branches(run_id, fork_global_step, created_at) VALUES (?, 0, ?)", path_);
    b.bind(1, run_id).bind(2, t);
    b.run();
    std::int64_t branch = sqlite3_last_insert_rowid(db_);
    Stmt u(db_, "UPDATE runs SET active_branch_id=? WHERE id=?", path_);
    u.bind(1, branch).bind(2, run_id);
    u.run();
    tx.commit();
    return run_id;
}

std::optional<RunRow> Registry::find_run(const std::string& name) {
    Stmt s(db_, select_from(kRunColumns, "runs", "WHERE name=?").c_str(), path_);
    s.bind(1, name);
    if (s.step()) return read_run(s);
    return std::nullopt;
}

std::optional<RunRow> Registry::run_by_id(std::int64_t id) {
    Stmt s(db_, select_from(kRunColumns, "runs", "WHERE id=?").c_str(), path_);
    s.bind(1, id);
    if (s.step()) return read_run(s);
    return std::nullopt;
}

std::vector<RunRow> Registry::list_runs() {
    Stmt s(db_, select_from(kRunColumns, "runs", "ORDER BY id").c_str(), path_);
    return read_all(s, read_run);
}

void Registry::set_run_status(std::int64_t run_id, RunStatus status) {
    Stmt s(db_, "UPDATE runs SET status=?, updated_at=? WHERE id=?", path_);
    s.bind(1, std::string(to_string(status))).bind(2, now_seconds()).bind(3, run_id);
    s.run();
}

void Registry::set_run_progress(std::int64_t run_id, std::int64_t global_step) {
    Stmt s(db_, "UPDATE runs SET global_step=?, updated_at=? WHERE id=?", path_);
    s.bind(1, global_step).bind(2, now_seconds()).bind(3, run_id);
    s.run();
}

void Registry::set_run_head(std::int64_t run_id, std::optional<std::int64_t> checkpoint_id) {
    Stmt s(db_, "UPDATE runs SET head_checkpoint_id=?, updated_at=? WHERE id=?", path_);
    s.bind(1, checkpoint_id).bind(2, now_seconds()).bind(3, run_id);
    s.run();
}

void Registry::set_run_device(std::int64_t run_id, const std::string& device) {
    Stmt s(db_, "UPDATE runs SET device=? WHERE id=?", path_);
    s.bind(1, device).bind(2, run_id);
    s.run();
}

std::int64_t Registry::create_branch(std::int64_t run_id, std::optional<std::int64_t> parent_branch,
                                     std::optional<std::int64_t> fork_checkpoint, std::int64_t fork_global_step,
                                     std::optional<double> lr) {
    Transaction tx(*this);
    Stmt s(db_,
           "INSERT INTO branches(run_id, parent_branch_id, fork_checkpoint_id, fork_global_step, created_at, lr) "
           "VALUES (?,?,?,?,?,?)",
           path_);
    s.bind(1, run_id).bind(2, parent_branch).bind(3, fork_checkpoint).bind(4, fork_global_step).bind(5, now_seconds());
    s.bind(6, lr.value_or(NAN));  // NaN binds NULL: the run's own
    s.run();
    std::int64_t id = sqlite3_last_insert_rowid(db_);
    Stmt u(db_, "UPDATE runs SET active_branch_id=?, head_checkpoint_id=?, global_step=? WHERE id=?", path_);
    u.bind(1, id).bind(2, fork_checkpoint).bind(3, fork_global_step).bind(4, run_id);
    u.run();
    tx.commit();
    return id;
}

std::vector<BranchRow> Registry::branches(std::int64_t run_id) {
    Stmt s(db_, select_from(kBranchColumns, "branches", "WHERE run_id=? ORDER BY id").c_str(), path_);
    s.bind(1, run_id);
    return read_all(s, read_branch);
}

std::int64_t Registry::begin_session(const SessionRow& r) {
    Stmt s(db_,
           "INSERT INTO sessions(run_id, branch_id, kind, from_checkpoint_id, start_global_step, target_global_step, "
           "started_at, pid, world_size, restart_count, workers) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
           path_);
    s.bind(1, r.run_id)
        .bind(2, r.branch_id)
        .bind(3, std::string(to_string(r.kind)))
        .bind(4, r.from_checkpoint_id)
        .bind(5, r.start_global_step)
        .bind(6, r.target_global_step)
        .bind(7, now_seconds())
        .bind(8, static_cast<std::int64_t>(::getpid()))
        .bind(9, r.world_size)
        .bind(10, r.restart_count)
        .bind(11, r.workers);
    s.run();
    return sqlite3_last_insert_rowid(db_);
}

void Registry::end_session(const SessionRow& r) {
    Stmt s(db_,
           "UPDATE sessions SET end_global_step=?, ended_by=?, ended_at=?, steps_computed=?, steps_replayed=?, "
           "train_seconds=?, checkpoint_seconds=?, checkpoint_stall_seconds=?, workers=? WHERE id=?",
           path_);
    s.bind(1, r.end_global_step)
        .bind(2, std::string(to_string(r.ended_by)))
        .bind(3, now_seconds())
        .bind(4, r.steps_computed)
        .bind(5, r.steps_replayed)
        .bind(6, r.train_seconds)
        .bind(7, r.checkpoint_seconds)
        .bind(8, r.checkpoint_stall_seconds)
        .bind(9, r.workers)
        .bind(10, r.id);
    s.run();
}

std::vector<SessionRow> Registry::sessions(std::int64_t run_id) {
    Stmt s(db_, select_from(kSessionColumns, "sessions", "WHERE run_id=? ORDER BY id").c_str(), path_);
    s.bind(1, run_id);
    return read_all(s, read_session);
}

std::int64_t Registry::insert_writing_checkpoint(CheckpointRow c) {
    if (int err = fault_point("registry.insert_writing", path_))
        throw StorageError(path_ + ": registry insert failed: " + std::strerror(err), path_, err);
    Transaction tx(*this);
    Stmt s(db_,
           "INSERT INTO checkpoints(run_id, branch_id, parent_id, epoch, step, global_step, kind, state, path, "
           "params_sha256, created_at, train_loss, train_accuracy, val_loss, val_accuracy, device_json) "
           "VALUES (?,?,?,?,?,?,?, 'writing', '', ?,?,?,?,?,?,?)",
           path_);
    s.bind(1, c.run_id)
        .bind(2, c.branch_id)
        .bind(3, c.parent_id)
        .bind(4, c.epoch)
        .bind(5, c.step)
        .bind(6, c.global_step)
        .bind(7, std::string(to_string(c.kind)))
        .bind(8, c.params_sha256)
        .bind(9, now_seconds())
        .bind(10, c.train_loss)
        .bind(11, c.train_accuracy)
        .bind(12, c.val_loss)
        .bind(13, c.val_accuracy)
        .bind(14, c.device_json);
    s.run();
    const std::int64_t id = sqlite3_last_insert_rowid(db_);
    // The id names the file: ids are never reused, so a re-trained step never collides with an old file.
    Stmt u(db_, "UPDATE checkpoints SET path=? WHERE id=?", path_);
    u.bind(1, c.path + checkpoint_file_name(id)).bind(2, id);
    u.run();
    tx.commit();
    return id;
}

void Registry::commit_checkpoint(std::int64_t id, std::int64_t bytes, const std::string& sha256, double write_ms,
                                 double stall_ms) {
    CheckpointCommit c;
    c.bytes = bytes;
    c.sha256 = sha256;
    c.write_ms = write_ms;
    c.stall_ms = stall_ms;
    commit_checkpoint(id, c);
}

void Registry::commit_checkpoint(std::int64_t id, const CheckpointCommit& c) {
    Transaction tx(*this);
    Stmt s(db_,
           "UPDATE checkpoints SET state='committed', bytes=?, sha256=?, write_ms=?, stall_ms=?, "
           "params_sha256=COALESCE(NULLIF(?, ''), params_sha256) WHERE id=? AND state='writing'",
           path_);
    s.bind(1, c.bytes).bind(2, c.sha256).bind(3, c.write_ms).bind(4, c.stall_ms).bind(5, c.params_sha256).bind(6, id);
    s.run();
    if (sqlite3_changes(db_) != 1)
        throw StorageError(path_ + ": checkpoint " + std::to_string(id) + " is no longer in state 'writing'", path_);
    Stmt h(db_,
           "UPDATE runs SET head_checkpoint_id=?, updated_at=? WHERE id=(SELECT run_id FROM checkpoints WHERE id=?)",
           path_);
    h.bind(1, id).bind(2, now_seconds()).bind(3, id);
    h.run();
    // The 'checkpoint' event lands in the same transaction: no saved checkpoint without its event.
    Stmt e(db_,
           "INSERT INTO events(run_id, session_id, branch_id, kind, global_step, epoch, step, checkpoint_id, "
           "message, created_at) SELECT run_id, NULL, branch_id, 'checkpoint', global_step, epoch, step, id, "
           "'saved checkpoint #' || id || ' (' || kind || ') at epoch ' || epoch || ', step ' || step || "
           "', ' || ? || ' bytes', ? FROM checkpoints WHERE id=?",
           path_);
    e.bind(1, c.bytes).bind(2, now_seconds()).bind(3, id);
    e.run();
    for (std::int64_t old : c.retire) set_checkpoint_state(old, CheckpointState::Deleting, c.retire_detail);
    for (std::int64_t old : c.finished) set_checkpoint_state(old, CheckpointState::Deleted, c.finished_detail);
    tx.commit();
}

void Registry::set_checkpoint_state(std::int64_t id, CheckpointState state, const std::string& detail) {
    Stmt s(db_, "UPDATE checkpoints SET state=?, state_detail=? WHERE id=?", path_);
    s.bind(1, std::string(to_string(state))).bind(2, detail).bind(3, id);
    s.run();
}

void Registry::set_checkpoint_pinned(std::int64_t id, bool pinned) {
    Stmt s(db_, "UPDATE checkpoints SET pinned=? WHERE id=?", path_);
    s.bind(1, pinned ? 1 : 0).bind(2, id);
    s.run();
}

std::optional<CheckpointRow> Registry::checkpoint(std::int64_t id) {
    Stmt s(db_, select_checkpoints("WHERE id=?").c_str(), path_);
    s.bind(1, id);
    if (s.step()) return read_checkpoint(s);
    return std::nullopt;
}

std::vector<CheckpointRow> Registry::checkpoints(std::int64_t run_id) {
    Stmt s(db_, select_checkpoints("WHERE run_id=? ORDER BY id").c_str(), path_);
    s.bind(1, run_id);
    return read_checkpoints(s);
}

std::vector<CheckpointRow> Registry::checkpoints_in_state(CheckpointState state) {
    Stmt s(db_, select_checkpoints("WHERE state=? ORDER BY id").c_str(), path_);
    s.bind(1, std::string(to_string(state)));
    return read_checkpoints(s);
}

std::vector<CheckpointRow> Registry::checkpoints_after(std::int64_t run_id, std::int64_t after_id) {
    // A range of the rowid, so the run's older rows are never visited; "+run_id" keeps
    // the planner off the run's index, which would walk all of the run's rows.
    Stmt s(db_, select_checkpoints("WHERE id>? AND +run_id=? ORDER BY id").c_str(), path_);
    s.bind(1, after_id).bind(2, run_id);
    return read_checkpoints(s);
}

std::vector<CheckpointRow> Registry::checkpoints_with_ids(const std::vector<std::int64_t>& ids) {
    // In chunks well under SQLite's limit on bound parameters.
    constexpr std::size_t kChunk = 256;
    std::vector<CheckpointRow> out;
    for (std::size_t from = 0; from < ids.size(); from += kChunk) {
        const std::size_t n = std::min(kChunk, ids.size() - from);
        std::string where = "WHERE id IN (?";
        for (std::size_t i = 1; i < n; ++i) where += ",?";
        where += ") ORDER BY id";
        Stmt s(db_, select_checkpoints(where.c_str()).c_str(), path_);
        for (std::size_t i = 0; i < n; ++i) s.bind(static_cast<int>(i + 1), ids[from + i]);
        auto rows = read_checkpoints(s);
        out.insert(out.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
    }
    return out;
}

std::vector<CheckpointRow> Registry::committed_beyond_newest(std::int64_t run_id, std::int64_t branch_id,
                                                             std::int64_t keep, std::int64_t also_id) {
    Stmt s(db_,
           select_checkpoints("WHERE run_id=? AND branch_id=? AND (state='committed' OR id=?)"
                              " ORDER BY global_step DESC, id DESC LIMIT -1 OFFSET ?")
               .c_str(),
           path_);
    s.bind(1, run_id).bind(2, branch_id).bind(3, also_id).bind(4, std::max<std::int64_t>(keep, 0));
    return read_checkpoints(s);
}

std::optional<std::int64_t> Registry::best_committed_checkpoint(std::int64_t run_id, std::int64_t also_id) {
    // A NaN loss is stored as NULL; an infinite one is no one's best either.
    Stmt s(db_,
           "SELECT id FROM checkpoints WHERE run_id=? AND (state='committed' OR id=?) AND val_loss IS NOT NULL "
           "AND val_loss < ? ORDER BY val_loss, id LIMIT 1",
           path_);
    s.bind(1, run_id).bind(2, also_id).bind(3, std::numeric_limits<double>::infinity());
    if (s.step()) return s.i64(0);
    return std::nullopt;
}

std::int64_t Registry::max_checkpoint_id() {
    // AUTOINCREMENT keeps ids unique even after rows are deleted; sqlite_sequence knows the highest ever used.
    Stmt s(db_, "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name='checkpoints'), 0)", path_);
    return s.step() ? s.i64(0) : 0;
}

void insert_metrics(sqlite3* db, const std::string& path, std::int64_t run_id, const std::vector<MetricRow>& rows) {
    Stmt s(db,
           "INSERT INTO metrics(run_id, session_id, branch_id, kind, global_step, epoch, step, loss, accuracy, "
           "wall_time) VALUES (?,?,?,?,?,?,?,?,?,?)",
           path);
    for (const auto& m : rows) {
        s.bind(1, run_id)
            .bind(2, m.session_id)
            .bind(3, m.branch_id)
            .bind(4, static_cast<int>(m.kind))
            .bind(5, m.global_step)
            .bind(6, m.epoch)
            .bind(7, m.step)
            .bind(8, m.loss)
            .bind(9, m.accuracy)
            .bind(10, m.wall_time);
        s.run();
        s.reset();
    }
}

void Registry::append_metrics(std::int64_t run_id, const std::vector<MetricRow>& rows) {
    if (rows.empty()) return;
    Transaction tx(*this);
    insert_metrics(db_, path_, run_id, rows);
    tx.commit();
}

std::vector<MetricRow> Registry::metrics(std::int64_t run_id, std::int64_t after_rowid, std::int64_t* last_rowid) {
    Stmt s(db_,
           (std::string("SELECT rowid, ") + kMetricColumns + " FROM metrics WHERE run_id=? AND rowid>? ORDER BY rowid")
               .c_str(),
           path_);
    s.bind(1, run_id).bind(2, after_rowid);
    std::vector<MetricRow> out;
    std::int64_t last = after_rowid;
    while (s.step()) {
        last = s.i64(0);
        out.push_back(read_metric(s, 1));
    }
    if (last_rowid) *last_rowid = last;
    return out;
}

std::int64_t Registry::add_event(const EventRow& e) {
    Stmt s(db_,
           "INSERT INTO events(run_id, session_id, branch_id, kind, global_step, epoch, step, checkpoint_id, message, "
           "created_at, fields) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
           path_);
    s.bind(1, e.run_id)
        .bind(2, e.session_id)
        .bind(3, e.branch_id)
        .bind(4, std::string(to_string(e.kind)))
        .bind(5, e.global_step)
        .bind(6, e.epoch)
        .bind(7, e.step)
        .bind(8, e.checkpoint_id)
        .bind(9, e.message)
        .bind(10, now_seconds())
        .bind(11, e.fields.empty() ? std::string("{}") : e.fields);
    s.run();
    return sqlite3_last_insert_rowid(db_);
}

std::vector<EventRow> Registry::events(std::int64_t run_id, std::int64_t after_id) {
    Stmt s(db_, select_from(kEventColumns, "events", "WHERE run_id=? AND id>? ORDER BY id").c_str(), path_);
    s.bind(1, run_id).bind(2, after_id);
    return read_all(s, read_event);
}

std::map<EventKind, std::int64_t> Registry::event_counts(std::int64_t run_id) {
    Stmt s(db_, "SELECT kind, count(*) FROM events WHERE run_id=? GROUP BY kind", path_);
    s.bind(1, run_id);
    std::map<EventKind, std::int64_t> out;
    while (s.step()) out[parse_event_kind(s.text(0))] = s.i64(1);
    return out;
}

std::string Registry::integrity_check() { return check_pages("PRAGMA integrity_check"); }

std::string Registry::quick_check() { return check_pages("PRAGMA quick_check"); }

std::string Registry::check_pages(const char* pragma) {
    Stmt s(db_, pragma, path_);
    std::string result;
    while (s.step()) {
        if (!result.empty()) result += "; ";
        result += s.text(0);
    }
    return result;
}

}  // namespace savepoint
