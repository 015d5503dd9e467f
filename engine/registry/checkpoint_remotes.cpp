#include "registry/checkpoint_remotes.h"

#include "registry/registry_schema.h"
#include "registry/sqlite_stmt.h"

namespace savepoint {

const char* to_string(RemoteState v) {
    switch (v) {
        case RemoteState::Pending:
            return "pending";
        case RemoteState::Uploaded:
            return "uploaded";
        case RemoteState::Failed:
            return "failed";
        case RemoteState::Deleted:
            return "deleted";
    }
    return "pending";
}

RemoteState parse_remote_state(const std::string& word) {
    for (RemoteState v : {RemoteState::Pending, RemoteState::Uploaded, RemoteState::Failed, RemoteState::Deleted})
        if (word == to_string(v)) return v;
    throw RegistryDamaged("registry: checkpoint_remotes.state: expected pending, uploaded, failed or deleted, found '" +
                              word + "'" + kDamagedAdvice,
                          "");
}

std::vector<CheckpointRemote> checkpoint_remotes(Registry& reg, std::int64_t run_id) {
    std::vector<CheckpointRemote> out;
    if (registry_schema_version(reg.db()) < 5) return out;  // a read-only home from before remotes
    Stmt s(reg.db(),
           "SELECT checkpoint_id, run_id, remote, state, etag, detail, attempts, updated_at FROM checkpoint_remotes "
           "WHERE run_id=? ORDER BY checkpoint_id",
           reg.path());
    s.bind(1, run_id);
    while (s.step()) {
        CheckpointRemote r;
        r.checkpoint_id = s.i64(0);
        r.run_id = s.i64(1);
        r.remote = s.text(2);
        r.state = parse_remote_state(s.text(3));
        r.etag = s.text(4);
        r.detail = s.text(5);
        r.attempts = s.i64(6);
        r.updated_at = s.f64(7);
        out.push_back(r);
    }
    return out;
}

void set_checkpoint_remote(Registry& reg, const CheckpointRemote& r) {
    Stmt s(reg.db(),
           "INSERT OR REPLACE INTO checkpoint_remotes(checkpoint_id, run_id, remote, state, etag, detail, attempts, "
           "updated_at) VALUES (?,?,?,?,?,?,?,?)",
           reg.path());
    s.bind(1, r.checkpoint_id)
        .bind(2, r.run_id)
        .bind(3, r.remote)
        .bind(4, std::string(to_string(r.state)))
        .bind(5, r.etag)
        .bind(6, r.detail)
        .bind(7, r.attempts)
        .bind(8, now_seconds());
    s.run();
}

RemoteBacklog remote_backlog(Registry& reg, std::int64_t run_id) {
    RemoteBacklog b;
    if (registry_schema_version(reg.db()) < 5) return b;
    Stmt s(reg.db(),
           "SELECT r.state, COUNT(*), COALESCE(SUM(c.bytes), 0) FROM checkpoint_remotes r "
           "JOIN checkpoints c ON c.id = r.checkpoint_id WHERE r.run_id=? GROUP BY r.state",
           reg.path());
    s.bind(1, run_id);
    while (s.step()) {
        const RemoteState st = parse_remote_state(s.text(0));
        if (st == RemoteState::Pending) b.pending = s.i64(1);
        if (st == RemoteState::Failed) b.failed = s.i64(1);
        if (st == RemoteState::Uploaded) b.uploaded = s.i64(1);
        if (st == RemoteState::Pending || st == RemoteState::Failed) b.pending_bytes += s.i64(2);
    }
    // Committed since the sync last looked (no row yet), in a run that is synced: pending too.
    Stmt n(reg.db(),
           "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM checkpoints c WHERE c.run_id=? AND c.state='committed' "
           "AND NOT EXISTS (SELECT 1 FROM checkpoint_remotes r WHERE r.checkpoint_id=c.id) "
           "AND c.id > (SELECT MIN(checkpoint_id) FROM checkpoint_remotes WHERE run_id=?)",
           reg.path());
    n.bind(1, run_id).bind(2, run_id);
    if (n.step()) {
        b.pending += n.i64(0);
        b.pending_bytes += n.i64(1);
    }
    return b;
}

}  // namespace savepoint
