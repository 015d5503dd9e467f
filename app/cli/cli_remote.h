// train/resume --remote: the background sync of the run's checkpoints to
// S3-compatible storage, checked before training starts (a bad URI, missing
// credentials, an endpoint that does not answer, a wrong key or a missing
// bucket are an InputError: exit 2, nothing created).
#pragma once

#include "cli_commands.h"
#include "remote/remote_sync.h"

#include <memory>
#include <string>

namespace savepoint {

// Null when --remote was not given.
std::unique_ptr<RemoteSync> remote_sync_for(const CliFlags& f, const std::string& resolved_home);

// resume without --remote: says which of the run's checkpoints a killed process left to upload, and
// the flag that uploads them. Says nothing when it cannot read the registry as it is.
void note_pending_uploads(const CliFlags& f, const std::string& resolved_home, std::ostream& out);

}  // namespace savepoint
