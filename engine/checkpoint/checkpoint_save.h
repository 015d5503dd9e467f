// One checkpoint's save, the pieces CheckpointWriter's I/O thread runs
// (checkpoint_save.cpp). Internal to the checkpoint layer.
#pragma once

#include "checkpoint/checkpoint_writer.h"
#include "storage/background_sync.h"

#include <functional>
#include <string>
#include <vector>

namespace savepoint {

// Writes and commits one checkpoint (transactions A and B around the durable
// write); retention is left to the caller. `spare`: a retired checkpoint
// whose file to write over (its row 'deleting'; B marks it 'deleted').
// `let_go` is called once nothing more is read from the snapshot (its bytes
// written and hashed), before the sync and the commit: from then on the
// training thread may capture the next state into it.
SaveOutcome write_and_commit(Registry& reg, const StateSnapshot& snapshot, const SaveRequest& req,
                             const CheckpointRow* spare = nullptr, BackgroundSync* background = nullptr,
                             const std::function<void()>& let_go = {});

// Removes retired files whose rows are 'deleting' (one directory sync for all
// of them), then marks them 'deleted' without a sync of its own: if that mark
// is lost, recovery finds 'deleting' rows and finishes them. Best effort, as
// all retention is.
void remove_retired(Registry& reg, const std::vector<CheckpointRow>& rows, const std::string& detail);

// What a row retired by retention says of itself.
std::string retention_detail(const SaveRequest& req);

}  // namespace savepoint
