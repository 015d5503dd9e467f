// Uploads a run's committed checkpoints to S3-compatible storage in the
// background, after their local commit, so that training never waits on the
// network: the file, then the run's metrics, then the manifest, last (an
// object without its manifest is never taken as a checkpoint). Checkpoints
// that retention deleted locally are deleted remotely too (manifest first).
// Each checkpoint's state is kept in the registry (checkpoint_remotes.h), so a
// later `resume --remote` redoes what a killed process left pending.
//
// One thread of its own with its own registry connection; notify() and
// finish() may be called from any thread.
#pragma once

#include "registry/checkpoint_remotes.h"
#include "remote/s3_settings.h"
#include "remote/s3_uri.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace savepoint {

class S3Client;

struct RemoteSyncOptions {
    double poll_seconds = 1.0;   // a look at the registry when nobody notifies
    double retry_seconds = 2.0;  // after a failed upload; doubled up to max_retry_seconds
    double max_retry_seconds = 60.0;
    std::uint64_t part_bytes = 64ull << 20;  // multipart above this
};

class RemoteSync {
public:
    RemoteSync(std::string home, std::string run_name, S3Uri uri, S3Settings settings, RemoteSyncOptions options = {});
    ~RemoteSync();  // stops at once; what is pending stays pending in the registry
    RemoteSync(const RemoteSync&) = delete;
    RemoteSync& operator=(const RemoteSync&) = delete;

    void start();
    std::string uri_text() const { return uri_.text(); }
    void notify();  // a checkpoint was committed: look now
    // Uploads what is still pending for at most `grace_seconds` (a transfer in
    // flight then is abandoned), stops, and returns what is left.
    // finish() again, or after a thread that never started: returns the backlog only.
    RemoteBacklog finish(double grace_seconds);

    // Lines for a log ("uploaded checkpoint #12 …", "upload of #12 failed: …"),
    // called on the sync thread. Never holds a credential.
    std::function<void(const std::string&)> on_message;

private:
    void loop();
    bool pass();  // one look; true when nothing is left to do now
    void say(const std::string& line);

    std::string home_, run_;
    S3Uri uri_;
    S3Settings settings_;
    RemoteSyncOptions options_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool notified_ = false, stopping_ = false, done_ = false;
    double deadline_ = 0;
    std::atomic<bool> cancel_{false};
    std::thread thread_;
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace savepoint
