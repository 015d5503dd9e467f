#include "cli_remote.h"

#include "platform/errors.h"
#include "registry/checkpoint_remotes.h"
#include "registry/registry.h"
#include "remote/remote_check.h"
#include "storage/durable_io.h"

#include <cstdlib>
#include <ostream>

namespace savepoint {

std::unique_ptr<RemoteSync> remote_sync_for(const CliFlags& f, const std::string& resolved_home) {
    if (f.remote.empty()) return nullptr;
    // Under torchrun rank 0 writes the job's checkpoints, and it alone uploads them.
    if (const char* rank = std::getenv("RANK"); rank && *rank && std::string(rank) != "0") return nullptr;
    const S3Uri uri = parse_s3_uri(f.remote);
    const S3Settings settings = s3_settings_from_environment();
    check_remote(uri, settings);
    RemoteSyncOptions options;
    // For tests and small stores: multipart above this many bytes (S3 wants parts of at least 5 MiB).
    if (const char* part = std::getenv("SAVEPOINT_S3_PART_BYTES"))
        options.part_bytes = std::strtoull(part, nullptr, 10);
    return std::make_unique<RemoteSync>(resolved_home, f.run_name, uri, settings, options);
}

void note_pending_uploads(const CliFlags& f, const std::string& resolved_home, std::ostream& out) {
    if (!f.remote.empty() || !file_exists(registry_path(resolved_home))) return;
    try {
        Registry reg(resolved_home, Registry::ReadOnly{});  // no recovery, no write: the trainer does those
        const auto run = reg.find_run(f.run_name);
        if (!run) return;
        std::string uri;
        for (const auto& r : checkpoint_remotes(reg, run->id))
            if (r.state == RemoteState::Pending || r.state == RemoteState::Failed) uri = r.remote;
        const RemoteBacklog b = remote_backlog(reg, run->id);
        if (uri.empty() || b.pending + b.failed == 0) return;
        out << "note: " << (b.pending + b.failed) << " checkpoint(s) of run '" << f.run_name << "' are not yet in "
            << uri << "; resume with --remote " << uri << " to upload them\n";
    } catch (const std::exception&) {
        // An older registry (migrated by the trainer next), a damaged one (the trainer says so): no note.
    }
}

}  // namespace savepoint
