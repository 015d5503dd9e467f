// Each checkpoint's copy in S3-compatible storage (engine/remote/ uploads it):
// pending until the file and then its manifest are up, uploaded with the
// object's ETag, failed with the reason, deleted once retention took it.
// Only the s3:// URI is kept here: credentials never reach the registry.
#pragma once

#include "registry/registry.h"

#include <cstdint>
#include <string>
#include <vector>

namespace savepoint {

enum class RemoteState { Pending, Uploaded, Failed, Deleted };
const char* to_string(RemoteState v);
RemoteState parse_remote_state(const std::string& word);

struct CheckpointRemote {
    std::int64_t checkpoint_id = 0, run_id = 0;
    std::string remote;  // s3://BUCKET/PREFIX
    RemoteState state = RemoteState::Pending;
    std::string etag;    // the file's, once uploaded
    std::string detail;  // why it failed (the server's reason), or what is being retried
    std::int64_t attempts = 0;
    double updated_at = 0;
};

// What a status bar shows: checkpoints not yet safe remotely, and their bytes.
// Pending counts those committed after the run's first remote row that the
// sync has not looked at yet.
struct RemoteBacklog {
    std::int64_t pending = 0, failed = 0, uploaded = 0;
    std::int64_t pending_bytes = 0;  // of pending and failed ones
};

// The run's rows, by checkpoint id (empty for a registry opened read-only
// from before schema version 5).
std::vector<CheckpointRemote> checkpoint_remotes(Registry& reg, std::int64_t run_id);
// Inserts or replaces the row of `r.checkpoint_id`; updated_at is now.
void set_checkpoint_remote(Registry& reg, const CheckpointRemote& r);
RemoteBacklog remote_backlog(Registry& reg, std::int64_t run_id);

}  // namespace savepoint
