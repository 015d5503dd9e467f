// A run brought back from S3-compatible storage into a home, as on a fresh
// machine after a spot instance was taken away: the manifests are read, the
// files they name downloaded, every file's SHA-256 checked against its
// manifest before anything is registered, and the run's rows rebuilt with the
// ids they had. A file that fails its check is refused (registered as
// corrupt, with the reason) and the head falls back to its newest verified
// ancestor. A run the home already has is refused, unless the remote holds
// newer checkpoints on the same lineage: then only those are added.
#pragma once

#include "remote/s3_settings.h"
#include "remote/s3_uri.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace savepoint {

struct PullRequest {
    std::string home;  // created if missing
    S3Uri uri;
    S3Settings settings;
    std::string run;  // empty: every run under the prefix
};

struct PulledRun {
    std::string name;
    std::int64_t head = 0;  // checkpoint id resume starts from
    int verified = 0, refused = 0;
    std::int64_t bytes = 0;
    bool added_to_existing = false;
    std::vector<std::string> notes;  // each refused checkpoint, why
};

// Throws InputError (bad remote, no such run, a run here already, nothing
// verified: nothing is registered), RunBusy (a process trains that run here)
// and StorageError (the home's disk: the files this pull wrote are removed,
// nothing is registered). Holds each pulled run's lock while it works.
std::vector<PulledRun> pull_runs(const PullRequest& request,
                                 const std::function<void(const std::string&)>& say = nullptr);

}  // namespace savepoint
