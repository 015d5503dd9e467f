// Reconciles the registry with the files on disk after whatever happened
// (kill -9, power loss, full disk, a hand-deleted file). Idempotent; runs
// under the registry lock and skips runs whose writer is alive.
//
//  - 'deleting' rows: finish the deletion.
//  - 'writing' rows: roll forward if the final file exists and verifies, else
//    remove the file and its temp file and mark the row 'failed'.
//  - 'committed' rows whose file is missing or fails the footer check: mark
//    'missing' / 'corrupt', never offered again.
//  - orphan checkpoint files: moved to quarantine/ (never deleted, never written over);
//    so are the files of a directory under checkpoints/ that belongs to no run
//    (the registry was lost or replaced), before the run's ids are handed out again.
//  - runs left 'running' by a dead process: 'interrupted', with an event.
//  - an unusable head: the newest usable ancestor, saying where training will resume.
#pragma once

#include "registry/registry.h"

#include <string>
#include <vector>

namespace savepoint {

struct RecoveryReport {
    std::vector<std::string> actions;  // one human-readable line per change made
};

RecoveryReport reconcile_registry(Registry& registry);

// Moves `path`, a file the registry does not know, to quarantine/ as
// "<run>-<file name>" — beside, never over, a file quarantined there earlier
// (".2", ".3"...) — and syncs both directories. Returns the new path, or
// throws StorageError naming both paths.
std::string quarantine_file(const std::string& home, const std::string& run_name, const std::string& path);

// The newest committed checkpoint on the lineage ending at `from` (following
// parent ids, passing through deleted or damaged ones); nullopt if none.
std::optional<CheckpointRow> newest_usable_ancestor(Registry& registry, std::optional<std::int64_t> from);

}  // namespace savepoint
