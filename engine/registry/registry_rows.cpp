#include "registry/registry_rows.h"

namespace savepoint {

const char* const kRunColumns =
    "id, name, config_json, steps_per_epoch, total_steps, status, created_at, updated_at, head_checkpoint_id, "
    "active_branch_id, global_step, device";
// The last column of each is the branch's number within its run: branch ids
// count across runs, a person counts a run's branches 1, 2, ...
const char* const kBranchColumns =
    "id, run_id, parent_branch_id, fork_checkpoint_id, fork_global_step, created_at, "
    "(SELECT COUNT(*) FROM branches o WHERE o.run_id = branches.run_id AND o.id <= branches.id), lr";
const char* const kSessionColumns =
    "id, run_id, branch_id, kind, from_checkpoint_id, start_global_step, target_global_step, end_global_step, "
    "ended_by, started_at, ended_at, pid, steps_computed, steps_replayed, train_seconds, checkpoint_seconds, "
    "checkpoint_stall_seconds, world_size, restart_count, workers";
const char* const kCheckpointColumns =
    "id, run_id, branch_id, parent_id, epoch, step, global_step, kind, state, pinned, path, bytes, sha256, "
    "params_sha256, created_at, train_loss, train_accuracy, val_loss, val_accuracy, state_detail, write_ms, stall_ms, "
    "(SELECT COUNT(*) FROM branches o WHERE o.run_id = checkpoints.run_id AND o.id <= checkpoints.branch_id), "
    "(SELECT lr FROM branches b WHERE b.id = checkpoints.branch_id), file_id, device_json";
const char* const kMetricColumns = "session_id, branch_id, kind, global_step, epoch, step, loss, accuracy, wall_time";
const char* const kEventColumns =
    "id, run_id, session_id, branch_id, kind, global_step, epoch, step, checkpoint_id, message, created_at, fields";

std::string select_from(const char* columns, const char* table, const std::string& rest) {
    return std::string("SELECT ") + columns + " FROM " + table + " " + rest;
}

RunRow read_run(const Stmt& s, int c) {
    RunRow r;
    r.id = s.i64(c + 0);
    r.name = s.text(c + 1);
    r.config_json = s.text(c + 2);
    r.steps_per_epoch = s.i64(c + 3);
    r.total_steps = s.i64(c + 4);
    r.status = parse_run_status(s.text(c + 5));
    r.created_at = s.f64(c + 6);
    r.updated_at = s.f64(c + 7);
    r.head_checkpoint_id = s.opt_i64(c + 8);
    r.active_branch_id = s.i64(c + 9);
    r.global_step = s.i64(c + 10);
    r.device = s.text(c + 11);
    return r;
}

BranchRow read_branch(const Stmt& s, int c) {
    BranchRow b;
    b.id = s.i64(c + 0);
    b.run_id = s.i64(c + 1);
    b.parent_branch_id = s.opt_i64(c + 2);
    b.fork_checkpoint_id = s.opt_i64(c + 3);
    b.fork_global_step = s.i64(c + 4);
    b.created_at = s.f64(c + 5);
    b.number = s.i64(c + 6);
    if (double lr = s.f64(c + 7); !std::isnan(lr)) b.lr = lr;
    return b;
}

SessionRow read_session(const Stmt& s, int c) {
    SessionRow r;
    r.id = s.i64(c + 0);
    r.run_id = s.i64(c + 1);
    r.branch_id = s.i64(c + 2);
    r.kind = parse_session_kind(s.text(c + 3));
    r.from_checkpoint_id = s.opt_i64(c + 4);
    r.start_global_step = s.i64(c + 5);
    r.target_global_step = s.i64(c + 6);
    r.end_global_step = s.opt_i64(c + 7);
    r.ended_by = parse_session_end(s.text(c + 8));
    r.started_at = s.f64(c + 9);
    r.ended_at = s.f64(c + 10);
    r.pid = s.i64(c + 11);
    r.steps_computed = s.i64(c + 12);
    r.steps_replayed = s.i64(c + 13);
    r.train_seconds = s.f64(c + 14);
    r.checkpoint_seconds = s.f64(c + 15);
    r.checkpoint_stall_seconds = s.f64(c + 16);
    r.world_size = s.i64(c + 17);
    r.restart_count = s.i64(c + 18);
    r.workers = s.text(c + 19);
    return r;
}

CheckpointRow read_checkpoint(const Stmt& s, int c) {
    CheckpointRow r;
    r.id = s.i64(c + 0);
    r.run_id = s.i64(c + 1);
    r.branch_id = s.i64(c + 2);
    r.parent_id = s.opt_i64(c + 3);
    r.epoch = s.i64(c + 4);
    r.step = s.i64(c + 5);
    r.global_step = s.i64(c + 6);
    r.kind = parse_checkpoint_kind(s.text(c + 7));
    r.state = parse_checkpoint_state(s.text(c + 8));
    r.pinned = s.i64(c + 9) != 0;
    r.path = s.text(c + 10);
    r.bytes = s.i64(c + 11);
    r.sha256 = s.text(c + 12);
    r.params_sha256 = s.text(c + 13);
    r.created_at = s.f64(c + 14);
    r.train_loss = s.f64(c + 15);
    r.train_accuracy = s.f64(c + 16);
    r.val_loss = s.f64(c + 17);
    r.val_accuracy = s.f64(c + 18);
    r.state_detail = s.text(c + 19);
    r.write_ms = s.f64(c + 20);
    r.stall_ms = s.f64(c + 21);
    r.branch_number = s.i64(c + 22);
    r.branch_lr = s.f64(c + 23);
    r.file_id = s.opt_i64(c + 24);
    r.device_json = s.text(c + 25);
    return r;
}

MetricRow read_metric(const Stmt& s, int c) {
    MetricRow m;
    m.session_id = s.i64(c + 0);
    m.branch_id = s.i64(c + 1);
    m.kind = parse_metric_kind(s.i64(c + 2));
    m.global_step = s.i64(c + 3);
    m.epoch = s.i64(c + 4);
    m.step = s.i64(c + 5);
    m.loss = s.f64(c + 6);
    m.accuracy = s.f64(c + 7);
    m.wall_time = s.f64(c + 8);
    return m;
}

EventRow read_event(const Stmt& s, int c) {
    EventRow e;
    e.id = s.i64(c + 0);
    e.run_id = s.i64(c + 1);
    e.session_id = s.opt_i64(c + 2);
    e.branch_id = s.opt_i64(c + 3);
    e.kind = parse_event_kind(s.text(c + 4));
    e.global_step = s.i64(c + 5);
    e.epoch = s.i64(c + 6);
    e.step = s.i64(c + 7);
    e.checkpoint_id = s.opt_i64(c + 8);
    e.message = s.text(c + 9);
    e.created_at = s.f64(c + 10);
    e.fields = s.text(c + 11);
    return e;
}

}  // namespace savepoint
