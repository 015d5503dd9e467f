// One checkpoint's file against its registry row, as `savepoint-cli verify`
// and the window's Verify both judge it: the bytes (size, footer, checksum
// against the footer and the registry) and the header (it names this
// checkpoint, run and global step, so a swapped file is caught).
#pragma once

#include "formats/checkpoint_format.h"
#include "registry/registry.h"

#include <string>

namespace savepoint {

struct CheckpointCheck {
    bool ok = false;
    VerifyResult file;  // the file's own verdict (its checksum and size when readable)
    // When !ok: the state to record (Missing when the file is gone, else
    // Corrupt) and why, naming the path.
    CheckpointState damaged = CheckpointState::Corrupt;
    std::string why;
};

// Reads the file only: safe on any thread, with a copy of the row.
CheckpointCheck check_checkpoint(const std::string& home, const std::string& run_name, const CheckpointRow& row);

// Records a damaged verdict on the row (its state and why); a no-op for a good one.
void record_check(Registry& reg, const CheckpointRow& row, const CheckpointCheck& check);

}  // namespace savepoint
