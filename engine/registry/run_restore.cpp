#include "registry/run_restore.h"

#include "platform/errors.h"
#include "registry/registry_rows.h"
#include "registry/run_refusals.h"
#include "registry/sqlite_stmt.h"

#include <set>

namespace savepoint {
namespace {

bool id_taken(Registry& reg, const char* table, std::int64_t id) {
    Stmt s(reg.db(), (std::string("SELECT 1 FROM ") + table + " WHERE id=?").c_str(), reg.path());
    s.bind(1, id);
    return s.step();
}

void refuse_taken(Registry& reg, const char* table, const char* what, std::int64_t id, const std::string& run) {
    if (id_taken(reg, table, id))
        throw InputError(
            "home", std::string("a home where ") + what + " #" + std::to_string(id) + " is free",
            "it is taken by another run",
            "(run '" + run + "' keeps its ids, which its checkpoint files name; pull it into a new --home)");
}

// `or_ignore`: branches this home already has are left as they are.
void insert_branches(Registry& reg, std::int64_t run_id, const RestoredRun& r, bool or_ignore) {
    Stmt b(reg.db(),
           (std::string("INSERT ") + (or_ignore ? "OR IGNORE " : "") +
            "INTO branches(id, run_id, parent_branch_id, fork_checkpoint_id, fork_global_step, created_at, lr) "
            "VALUES (?,?,?,?,?,?,?)")
               .c_str(),
           reg.path());
    for (const auto& br : r.branches) {
        b.bind(1, br.id)
            .bind(2, run_id)
            .bind(3, br.parent_branch_id)
            .bind(4, br.fork_checkpoint_id)
            .bind(5, br.fork_global_step)
            .bind(6, br.created_at)
            .bind(7, br.lr ? *br.lr : NAN);
        b.run();
        b.reset();
    }
}

void insert_checkpoints(Registry& reg, std::int64_t run_id, const RestoredRun& r, std::set<std::int64_t> present) {
    Stmt s(reg.db(),
           "INSERT INTO checkpoints(id, run_id, branch_id, parent_id, epoch, step, global_step, kind, state, pinned, "
           "path, bytes, sha256, params_sha256, created_at, train_loss, train_accuracy, val_loss, val_accuracy, "
           "state_detail, write_ms, stall_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
           reg.path());
    for (const auto& c : r.checkpoints) {  // ascending ids: a parent is in before its child
        // A parent that retention deleted before the upload has no row here.
        std::optional<std::int64_t> parent;
        if (c.parent_id && present.count(*c.parent_id)) parent = *c.parent_id;
        s.bind(1, c.id)
            .bind(2, run_id)
            .bind(3, c.branch_id)
            .bind(4, parent)
            .bind(5, c.epoch)
            .bind(6, c.step)
            .bind(7, c.global_step)
            .bind(8, std::string(to_string(c.kind)))
            .bind(9, std::string(to_string(c.state)))
            .bind(10, static_cast<std::int64_t>(c.pinned))
            .bind(11, c.path)
            .bind(12, c.bytes)
            .bind(13, c.sha256)
            .bind(14, c.params_sha256)
            .bind(15, c.created_at)
            .bind(16, c.train_loss)
            .bind(17, c.train_accuracy)
            .bind(18, c.val_loss)
            .bind(19, c.val_accuracy)
            .bind(20, c.state_detail)
            .bind(21, c.write_ms)
            .bind(22, c.stall_ms);
        s.run();
        s.reset();
        present.insert(c.id);
    }
}

void set_head(Registry& reg, std::int64_t run_id, const RestoredRun& r) {
    Stmt u(reg.db(), "UPDATE runs SET head_checkpoint_id=?, active_branch_id=?, global_step=?, status=? WHERE id=?",
           reg.path());
    u.bind(1, r.head)
        .bind(2, r.run.active_branch_id)
        .bind(3, r.run.global_step)
        .bind(4, std::string(to_string(r.run.status)))
        .bind(5, run_id);
    u.run();
}

void add_note(Registry& reg, std::int64_t run_id, const RestoredRun& r) {
    Stmt e(reg.db(),
           "INSERT INTO events(run_id, branch_id, kind, global_step, epoch, step, checkpoint_id, message, created_at) "
           "VALUES (?,?,?,?,0,0,?,?,?)",
           reg.path());
    e.bind(1, run_id)
        .bind(2, r.run.active_branch_id)
        .bind(3, std::string(to_string(EventKind::Recovery)))
        .bind(4, r.run.global_step)
        .bind(5, r.head)
        .bind(6, r.note)
        .bind(7, now_seconds());
    e.run();
}

}  // namespace

std::int64_t restore_run(Registry& reg, const RestoredRun& r) {
    if (reg.find_run(r.run.name)) throw run_already_exists(r.run.name);
    for (const auto& b : r.branches) refuse_taken(reg, "branches", "branch", b.id, r.run.name);
    for (const auto& c : r.checkpoints) refuse_taken(reg, "checkpoints", "checkpoint", c.id, r.run.name);
    for (const auto& s : r.sessions) refuse_taken(reg, "sessions", "session", s.id, r.run.name);

    Registry::Transaction tx(reg);
    Stmt s(reg.db(),
           "INSERT INTO runs(name, config_json, steps_per_epoch, total_steps, status, created_at, updated_at, device) "
           "VALUES (?,?,?,?,?,?,?,?)",
           reg.path());
    s.bind(1, r.run.name)
        .bind(2, r.run.config_json)
        .bind(3, r.run.steps_per_epoch)
        .bind(4, r.run.total_steps)
        .bind(5, std::string(to_string(r.run.status)))
        .bind(6, r.run.created_at)
        .bind(7, now_seconds())
        .bind(8, r.run.device);
    s.run();
    const std::int64_t run_id = sqlite3_last_insert_rowid(reg.db());

    insert_branches(reg, run_id, r, false);
    insert_checkpoints(reg, run_id, r, {});

    Stmt ss(reg.db(),
            "INSERT INTO sessions(id, run_id, branch_id, kind, from_checkpoint_id, start_global_step, "
            "target_global_step, end_global_step, ended_by, started_at, ended_at, pid, steps_computed, steps_replayed, "
            "train_seconds, checkpoint_seconds, checkpoint_stall_seconds, world_size, restart_count, workers) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            reg.path());
    for (const auto& x : r.sessions) {
        ss.bind(1, x.id)
            .bind(2, run_id)
            .bind(3, x.branch_id)
            .bind(4, std::string(to_string(x.kind)))
            .bind(5, x.from_checkpoint_id)
            .bind(6, x.start_global_step)
            .bind(7, x.target_global_step)
            .bind(8, x.end_global_step)
            .bind(9, std::string(to_string(x.ended_by)))
            .bind(10, x.started_at)
            .bind(11, x.ended_at)
            .bind(12, x.pid)
            .bind(13, x.steps_computed)
            .bind(14, x.steps_replayed)
            .bind(15, x.train_seconds)
            .bind(16, x.checkpoint_seconds)
            .bind(17, x.checkpoint_stall_seconds)
            .bind(18, x.world_size)
            .bind(19, x.restart_count)
            .bind(20, x.workers);
        ss.run();
        ss.reset();
    }

    insert_metrics(reg.db(), reg.path(), run_id, r.metrics);
    set_head(reg, run_id, r);
    add_note(reg, run_id, r);
    tx.commit();
    return run_id;
}

void add_restored_checkpoints(Registry& reg, std::int64_t run_id, const RestoredRun& r) {
    for (const auto& c : r.checkpoints) refuse_taken(reg, "checkpoints", "checkpoint", c.id, r.run.name);
    std::set<std::int64_t> present;
    for (const auto& c : reg.checkpoints(run_id)) present.insert(c.id);
    Registry::Transaction tx(reg);
    insert_branches(reg, run_id, r, true);  // the run's own are here already
    insert_checkpoints(reg, run_id, r, present);
    set_head(reg, run_id, r);
    add_note(reg, run_id, r);
    tx.commit();
}

}  // namespace savepoint
