// What a run looks like in S3-compatible storage, under s3://BUCKET/PREFIX/:
//   RUN/checkpoints/ckpt-00000012.svpt   the checkpoint file, as it is on disk
//   RUN/metrics.json                     the run's sessions and metrics (rewritten with each upload)
//   RUN/manifests/ckpt-00000012.json     this checkpoint's rows, sizes and SHA-256s: written last,
//                                        so that a file without its manifest is never taken
// A manifest carries what a fresh home needs to register the checkpoint: the
// run (its config), its branches, and the checkpoint's own row.
#pragma once

#include "registry/registry.h"
#include "remote/s3_uri.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace savepoint {

std::string remote_file_key(const S3Uri& uri, const std::string& run, std::int64_t checkpoint_id);
std::string remote_manifest_key(const S3Uri& uri, const std::string& run, std::int64_t checkpoint_id);
std::string remote_metrics_key(const S3Uri& uri, const std::string& run);
// The run a manifest key belongs to and its checkpoint id; false for any other key.
bool parse_manifest_key(const S3Uri& uri, const std::string& key, std::string& run, std::int64_t& checkpoint_id);

struct Manifest {
    RunRow run;
    std::vector<BranchRow> branches;
    CheckpointRow checkpoint;
    std::string file_sha256;  // SHA-256 of the file's bytes (the registry's sha256 is the format's own checksum)
};

nlohmann::json manifest_json(const Manifest& m);
// Throws std::runtime_error naming the field that is missing or of the wrong kind.
Manifest parse_manifest(const nlohmann::json& j);

// The run's sessions and metrics as one compact object (arrays, not objects per row).
nlohmann::json metrics_json(const std::vector<SessionRow>& sessions, const std::vector<MetricRow>& metrics);
void parse_metrics(const nlohmann::json& j, std::vector<SessionRow>& sessions, std::vector<MetricRow>& metrics);

}  // namespace savepoint
