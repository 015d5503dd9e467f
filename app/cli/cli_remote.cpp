#include "cli_remote.h"

#include "platform/errors.h"
#include "remote/remote_check.h"

#include <cstdlib>

namespace savepoint {

std::unique_ptr<RemoteSync> remote_sync_for(const CliFlags& f, const std::string& resolved_home) {
    if (f.remote.empty()) return nullptr;
    // Under torchrun every worker would upload the job's checkpoints; not done yet.
    if (const char* world = std::getenv("WORLD_SIZE"); world && std::atoi(world) > 1)
        throw InputError("remote", "a single training process", std::string("WORLD_SIZE=") + world,
                         "(--remote is not yet supported under torchrun)");
    const S3Uri uri = parse_s3_uri(f.remote);
    const S3Settings settings = s3_settings_from_environment();
    check_remote(uri, settings);
    RemoteSyncOptions options;
    // For tests and small stores: multipart above this many bytes (S3 wants parts of at least 5 MiB).
    if (const char* part = std::getenv("SAVEPOINT_S3_PART_BYTES"))
        options.part_bytes = std::strtoull(part, nullptr, 10);
    return std::make_unique<RemoteSync>(resolved_home, f.run_name, uri, settings, options);
}

}  // namespace savepoint
