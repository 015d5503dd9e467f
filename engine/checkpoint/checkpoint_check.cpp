#include "checkpoint/checkpoint_check.h"

#include "storage/durable_io.h"

namespace savepoint {

CheckpointCheck check_checkpoint(const std::string& home, const std::string& run_name, const CheckpointRow& row) {
    CheckpointCheck c;
    const std::string path = home + "/" + row.path;
    c.file = verify_checkpoint_file(path, row.sha256);
    const bool header_ok = c.file.ok && c.file.meta.value("checkpoint_id", -1) == row.id_in_file() &&
                           c.file.meta.value("run", "") == run_name &&
                           c.file.meta.value("global_step", -1) == row.global_step;
    c.ok = c.file.ok && header_ok;
    if (c.ok) return c;
    // The file's error starts with the path already.
    c.why = c.file.ok ? path + ": header names another checkpoint (file swapped?)" : c.file.error;
    c.damaged = file_exists(path) ? CheckpointState::Corrupt : CheckpointState::Missing;
    return c;
}

void record_check(Registry& reg, const CheckpointRow& row, const CheckpointCheck& check) {
    if (check.ok) return;
    // The row's detail keeps the reason without the path, as recovery words its own.
    const std::string path = reg.absolute(row.path);
    std::string detail = check.why;
    if (check.file.ok && detail.rfind(path + ": ", 0) == 0) detail.erase(0, path.size() + 2);
    reg.set_checkpoint_state(row.id, check.damaged, detail);
}

}  // namespace savepoint
