#include "registry/registry_schema.h"
#include "platform/planted_bugs.h"

#include "platform/errors.h"
#include "registry/sqlite_stmt.h"
#include "storage/durable_io.h"

namespace savepoint {
namespace {

// Version 1: runs, checkpoints, branches, sessions, metrics, events.
const char* kV1 = R"SQL(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  config_json TEXT NOT NULL,
  steps_per_epoch INTEGER NOT NULL,
  total_steps INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('created','running','paused','interrupted','preempted','stopped','finished','failed')),
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL,
  head_checkpoint_id INTEGER REFERENCES checkpoints(id),
  active_branch_id INTEGER,
  global_step INTEGER NOT NULL DEFAULT 0,
  device TEXT NOT NULL DEFAULT ''
);
CREATE TABLE branches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  parent_branch_id INTEGER REFERENCES branches(id),
  fork_checkpoint_id INTEGER,
  fork_global_step INTEGER NOT NULL DEFAULT 0,
  created_at REAL NOT NULL
);
CREATE TABLE checkpoints (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  branch_id INTEGER NOT NULL REFERENCES branches(id),
  parent_id INTEGER REFERENCES checkpoints(id),
  epoch INTEGER NOT NULL,
  step INTEGER NOT NULL,
  global_step INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('regular','emergency','final','manual')),
  state TEXT NOT NULL CHECK (state IN ('writing','committed','deleting','deleted','corrupt','missing','failed')),
  pinned INTEGER NOT NULL DEFAULT 0,
  path TEXT NOT NULL,
  bytes INTEGER,
  sha256 TEXT,
  params_sha256 TEXT,
  created_at REAL NOT NULL,
  train_loss REAL, train_accuracy REAL, val_loss REAL, val_accuracy REAL,
  state_detail TEXT
);
CREATE INDEX checkpoints_by_run ON checkpoints(run_id, global_step);
CREATE TABLE sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  branch_id INTEGER NOT NULL REFERENCES branches(id),
  kind TEXT NOT NULL,
  from_checkpoint_id INTEGER,
  start_global_step INTEGER NOT NULL,
  target_global_step INTEGER NOT NULL,
  end_global_step INTEGER,
  ended_by TEXT,
  started_at REAL NOT NULL,
  ended_at REAL,
  pid INTEGER,
  steps_computed INTEGER NOT NULL DEFAULT 0,
  steps_replayed INTEGER NOT NULL DEFAULT 0,
  train_seconds REAL NOT NULL DEFAULT 0,
  checkpoint_seconds REAL NOT NULL DEFAULT 0,
  checkpoint_stall_seconds REAL NOT NULL DEFAULT 0
);
CREATE TABLE metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  session_id INTEGER NOT NULL,
  branch_id INTEGER NOT NULL,
  kind INTEGER NOT NULL,            -- 0 training step, 1 validation (per epoch)
  global_step INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  step INTEGER NOT NULL,
  loss REAL NOT NULL,
  accuracy REAL NOT NULL,
  wall_time REAL NOT NULL
);
CREATE INDEX metrics_by_run ON metrics(run_id, session_id, global_step);
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  session_id INTEGER,
  branch_id INTEGER,
  kind TEXT NOT NULL,
  global_step INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  step INTEGER NOT NULL,
  checkpoint_id INTEGER,
  message TEXT NOT NULL,
  created_at REAL NOT NULL
);
CREATE INDEX events_by_run ON events(run_id, id);
)SQL";

// Version 2: per-checkpoint timing (how long the save took, how long the
// training thread was blocked), for the fault-tolerance panel and benchmarks.
const char* kV2 = R"SQL(
ALTER TABLE checkpoints ADD COLUMN write_ms REAL;
ALTER TABLE checkpoints ADD COLUMN stall_ms REAL;
)SQL";

// Version 3: a branch's learning rate when it differs from the run's (resume
// --lr after a divergence); NULL: the run's own.
const char* kV3 = R"SQL(
ALTER TABLE branches ADD COLUMN lr REAL;
)SQL";

// Version 4: a session of a data-parallel job (torchrun): how many workers,
// which restart of the job it is, and each worker's rank, host and pid (JSON).
const char* kV4 = R"SQL(
ALTER TABLE sessions ADD COLUMN world_size INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN restart_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN workers TEXT;
)SQL";

// Version 5: each checkpoint's copy in S3-compatible storage (remote/): where
// it goes (the s3:// URI, never a credential), how far it got, and why not;
// and the id a checkpoint's file names in its header when it is not the row's
// (a checkpoint pulled into a home where its id was taken; NULL: the row's).
const char* kV5 = R"SQL(
ALTER TABLE checkpoints ADD COLUMN file_id INTEGER;
CREATE TABLE checkpoint_remotes (
  checkpoint_id INTEGER PRIMARY KEY REFERENCES checkpoints(id) ON DELETE CASCADE,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  remote TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending','uploaded','failed','deleted')),
  etag TEXT,
  detail TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  updated_at REAL NOT NULL
);
CREATE INDEX checkpoint_remotes_by_run ON checkpoint_remotes(run_id, state);
)SQL";

// Version 6: the device each checkpoint was trained on (DeviceRecord as JSON:
// kind, GPU and compute capability, driver, CUDA, cuDNN, LibTorch; CPU and BLAS),
// so a resume elsewhere can say its bits will differ; and the process's and the
// GPU's telemetry, one row a second while training (NULL gpu_*: no NVIDIA driver).
const char* kV6 = R"SQL(
ALTER TABLE checkpoints ADD COLUMN device_json TEXT;
CREATE TABLE telemetry (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  session_id INTEGER NOT NULL,
  t REAL NOT NULL,
  wall_time REAL NOT NULL,
  cpu_percent REAL NOT NULL,
  rss_bytes INTEGER NOT NULL,
  mem_available_bytes INTEGER NOT NULL,
  written_bytes INTEGER NOT NULL,
  disk_free_bytes INTEGER NOT NULL,
  gpu_util_percent REAL,
  gpu_mem_used_bytes INTEGER,
  gpu_mem_total_bytes INTEGER,
  gpu_temp_c REAL,
  gpu_power_w REAL,
  gpu_sm_clock_mhz REAL,
  gpu_throttle INTEGER
);
CREATE INDEX telemetry_by_run ON telemetry(run_id, session_id, t);
)SQL";

// Version 7: an event's data (a JSON object), so that a front end words the
// event from its fields, not by reading the engine's English message.
const char* kV7 = R"SQL(
ALTER TABLE events ADD COLUMN fields TEXT NOT NULL DEFAULT '{}';
)SQL";

const char* kMigrations[] = {kV1, kV2, kV3, kV4, kV5, kV6, kV7};

}  // namespace

int registry_schema_version(sqlite3* db) {
    sqlite3_stmt* st = nullptr;
    int v = 0;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

void migrate_registry(sqlite3* db, const std::string& path, int target) {
    int version = registry_schema_version(db);
    if (version > kRegistrySchemaVersion)
        throw InputError(path + ": registry schema version: expected at most " +
                         std::to_string(kRegistrySchemaVersion) + ", found " + std::to_string(version) +
                         " (made by a newer Savepoint; nothing was changed)");
    // Negative control (docs/RELIABILITY.md): each statement commits on its own.
    const bool in_transaction = !planted_bug(PlantedBug::MigrateOutsideTransaction);
    while (version < target) {
        if (in_transaction) exec_sql(db, "BEGIN IMMEDIATE", path);
        try {
            if (int err = fault_point("registry.migrate", path))
                throw StorageError(path + ": registry migration to version " + std::to_string(version + 1) +
                                       " failed: injected error " + std::to_string(err),
                                   path, err);
            // Another process may have migrated while we waited for the lock.
            int now = registry_schema_version(db);
            if (now == version) {
                exec_sql(db, kMigrations[version], path);
                exec_sql(db, ("PRAGMA user_version = " + std::to_string(version + 1)).c_str(), path);
            }
            if (in_transaction) exec_sql(db, "COMMIT", path);
        } catch (...) {
            if (in_transaction) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
        version = registry_schema_version(db);
    }
}

}  // namespace savepoint
