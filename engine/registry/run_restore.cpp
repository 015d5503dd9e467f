#include "registry/run_restore.h"

#include "platform/errors.h"
#include "registry/registry_rows.h"
#include "registry/run_refusals.h"
#include "registry/sqlite_stmt.h"

#include <algorithm>
#include <map>
#include <set>

namespace savepoint {
namespace {

using IdMap = std::map<std::int64_t, std::int64_t>;  // an id where the run was made -> its id here

std::int64_t mapped(const IdMap& m, std::int64_t id, std::int64_t otherwise) {
    auto it = m.find(id);
    return it == m.end() ? otherwise : it->second;
}

// A branch is the same one here as there when it was made at the same instant from the same step
// (a pull keeps created_at); its id may differ, since ids count across the runs of a home.
bool same_branch(const BranchRow& a, const BranchRow& b) {
    return a.created_at == b.created_at && a.fork_global_step == b.fork_global_step;
}

// Inserts the branches this home does not have yet (in id order: a parent before its children) and
// returns where each one is.
IdMap insert_branches(Registry& reg, std::int64_t run_id, const RestoredRun& r) {
    const std::vector<BranchRow> here = reg.branches(run_id);
    IdMap ids;
    Stmt b(reg.db(),
           "INSERT INTO branches(run_id, parent_branch_id, fork_checkpoint_id, fork_global_step, created_at, lr) "
           "VALUES (?,?,?,?,?,?)",
           reg.path());
    for (const auto& br : r.branches) {
        bool found = false;
        for (const auto& h : here)
            if (same_branch(h, br)) ids[br.id] = h.id, found = true;
        if (found) continue;
        std::optional<std::int64_t> parent;
        if (br.parent_branch_id && ids.count(*br.parent_branch_id)) parent = ids.at(*br.parent_branch_id);
        b.bind(1, run_id)
            .bind(2, parent)
            .bind(3, br.fork_checkpoint_id)
            .bind(4, br.fork_global_step)
            .bind(5, br.created_at)
            .bind(6, br.lr ? *br.lr : NAN);
        b.run();
        b.reset();
        ids[br.id] = sqlite3_last_insert_rowid(reg.db());
    }
    return ids;
}

// Inserts the checkpoints (ids ascending: a parent before its child) and returns where each one is here,
// by the id its file names. `known`: the run's rows this home has already, the same way. A checkpoint keeps
// its id where it is free; where it is taken, it gets a new one and keeps the old as its file id. The
// sequence then moves past every pulled id, so that no later checkpoint of this home is named like one of
// these files.
IdMap insert_checkpoints(Registry& reg, std::int64_t run_id, const RestoredRun& r, const IdMap& branches,
                         std::int64_t active_branch, IdMap known) {
    std::int64_t highest = 0;
    bool relocate = false;
    for (const auto& c : r.checkpoints) {
        highest = std::max(highest, c.id);
        relocate = relocate || reg.checkpoint(c.id).has_value();
    }
    if (relocate) {
        Stmt q(reg.db(), "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'checkpoints'", reg.path());
        q.bind(1, highest);
        q.run();
    }
    Stmt s(reg.db(),
           "INSERT INTO checkpoints(id, run_id, branch_id, parent_id, epoch, step, global_step, kind, state, pinned, "
           "path, bytes, sha256, params_sha256, created_at, train_loss, train_accuracy, val_loss, val_accuracy, "
           "state_detail, write_ms, stall_ms, file_id, device_json) VALUES "
           "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
           reg.path());
    for (const auto& c : r.checkpoints) {
        // A parent that retention deleted before the upload has no row here.
        std::optional<std::int64_t> parent;
        if (c.parent_id && known.count(*c.parent_id)) parent = known.at(*c.parent_id);
        std::optional<std::int64_t> id, file_id;
        if (relocate)
            file_id = c.id;  // the id is the next of the sequence
        else
            id = c.id;
        s.bind(1, id)
            .bind(2, run_id)
            .bind(3, mapped(branches, c.branch_id, active_branch))
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
            .bind(22, c.stall_ms)
            .bind(23, file_id)
            .bind(24, c.device_json);
        s.run();
        s.reset();
        known[c.id] = sqlite3_last_insert_rowid(reg.db());
    }
    // A branch made from one of them names it by its id here.
    Stmt f(reg.db(), "UPDATE branches SET fork_checkpoint_id=? WHERE run_id=? AND fork_checkpoint_id=?", reg.path());
    if (relocate)
        for (const auto& c : r.checkpoints) {
            f.bind(1, known.at(c.id)).bind(2, run_id).bind(3, c.id);
            f.run();
            f.reset();
        }
    return known;
}

void set_head(Registry& reg, std::int64_t run_id, const RestoredRun& r, std::int64_t active_branch,
              const IdMap& placed) {
    Stmt u(reg.db(), "UPDATE runs SET head_checkpoint_id=?, active_branch_id=?, global_step=?, status=? WHERE id=?",
           reg.path());
    std::optional<std::int64_t> head;
    if (r.head) head = mapped(placed, *r.head, *r.head);
    u.bind(1, head)
        .bind(2, active_branch)
        .bind(3, r.run.global_step)
        .bind(4, std::string(to_string(r.run.status)))
        .bind(5, run_id);
    u.run();
}

void add_note(Registry& reg, std::int64_t run_id, const RestoredRun& r, std::int64_t active_branch,
              const IdMap& placed) {
    EventRow e;
    e.run_id = run_id;
    e.branch_id = active_branch;
    e.kind = EventKind::Recovery;
    e.global_step = r.run.global_step;
    if (r.head) e.checkpoint_id = mapped(placed, *r.head, *r.head);
    e.message = r.note;
    reg.add_event(e);  // no transaction of its own: it joins the restore's
}

}  // namespace

std::int64_t restore_run(Registry& reg, const RestoredRun& r, std::map<std::int64_t, std::int64_t>* placed_out) {
    if (reg.find_run(r.run.name)) throw run_already_exists(r.run.name);

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

    const IdMap branches = insert_branches(reg, run_id, r);
    const std::int64_t active =
        mapped(branches, r.run.active_branch_id, branches.empty() ? 0 : branches.begin()->second);
    const IdMap placed = insert_checkpoints(reg, run_id, r, branches, active, {});

    Stmt ss(reg.db(),
            "INSERT INTO sessions(run_id, branch_id, kind, from_checkpoint_id, start_global_step, "
            "target_global_step, end_global_step, ended_by, started_at, ended_at, pid, steps_computed, steps_replayed, "
            "train_seconds, checkpoint_seconds, checkpoint_stall_seconds, world_size, restart_count, workers) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            reg.path());
    IdMap sessions;
    for (const auto& x : r.sessions) {
        ss.bind(1, run_id)
            .bind(2, mapped(branches, x.branch_id, active))
            .bind(3, std::string(to_string(x.kind)))
            .bind(4, x.from_checkpoint_id
                         ? std::optional<std::int64_t>(mapped(placed, *x.from_checkpoint_id, *x.from_checkpoint_id))
                         : std::nullopt)
            .bind(5, x.start_global_step)
            .bind(6, x.target_global_step)
            .bind(7, x.end_global_step)
            .bind(8, std::string(to_string(x.ended_by)))
            .bind(9, x.started_at)
            .bind(10, x.ended_at)
            .bind(11, x.pid)
            .bind(12, x.steps_computed)
            .bind(13, x.steps_replayed)
            .bind(14, x.train_seconds)
            .bind(15, x.checkpoint_seconds)
            .bind(16, x.checkpoint_stall_seconds)
            .bind(17, x.world_size)
            .bind(18, x.restart_count)
            .bind(19, x.workers);
        ss.run();
        ss.reset();
        sessions[x.id] = sqlite3_last_insert_rowid(reg.db());
    }

    std::vector<MetricRow> metrics = r.metrics;
    for (auto& m : metrics) {
        m.session_id = mapped(sessions, m.session_id, 0);
        m.branch_id = mapped(branches, m.branch_id, active);
    }
    insert_metrics(reg.db(), reg.path(), run_id, metrics);
    set_head(reg, run_id, r, active, placed);
    add_note(reg, run_id, r, active, placed);
    tx.commit();
    if (placed_out) *placed_out = placed;
    return run_id;
}

void add_restored_checkpoints(Registry& reg, std::int64_t run_id, const RestoredRun& r,
                              std::map<std::int64_t, std::int64_t>* placed_out) {
    IdMap known;  // by the id each file names
    for (const auto& c : reg.checkpoints(run_id)) known[c.id_in_file()] = c.id;
    Registry::Transaction tx(reg);
    const IdMap branches = insert_branches(reg, run_id, r);  // the run's own are matched, not added again
    const std::int64_t active = mapped(branches, r.run.active_branch_id, reg.run_by_id(run_id)->active_branch_id);
    const IdMap placed = insert_checkpoints(reg, run_id, r, branches, active, known);
    set_head(reg, run_id, r, active, placed);
    add_note(reg, run_id, r, active, placed);
    tx.commit();
    if (placed_out) *placed_out = placed;
}

bool restored_same_branch(const BranchRow& here, const BranchRow& there) { return same_branch(here, there); }

}  // namespace savepoint
