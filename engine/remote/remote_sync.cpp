#include "remote/remote_sync.h"
#include "platform/planted_bugs.h"

#include "platform/errors.h"
#include "registry/registry.h"
#include "remote/remote_manifest.h"
#include "remote/s3_client.h"
#include "storage/durable_io.h"
#include "storage/fault_injection.h"
#include "storage/sha256.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

namespace savepoint {

// What only the sync thread touches: its registry connection, its client, when to retry what.
struct RemoteSync::State {
    std::unique_ptr<Registry> reg;
    std::unique_ptr<S3Client> client;
    std::int64_t run_id = 0;
    std::map<std::int64_t, double> retry_at, retry_wait;  // by checkpoint id
};

namespace {

std::string file_sha256(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw StorageError(path + ": cannot read: " + std::strerror(errno), path, errno);
    Sha256 h;
    std::vector<char> buf(1 << 20);
    for (;;) {
        const ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            throw StorageError(path + ": cannot read: " + std::strerror(err), path, err);
        }
        if (n == 0) break;
        h.update(buf.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    const auto d = h.finish();
    return to_hex(d.data(), d.size());
}

// A test seam for the kill-during-upload test: SAVEPOINT_REMOTE_CRASH_AFTER=N
// ends the process (_exit 137, as kill -9 would) right after its N-th object upload.
void after_put() {
    static const long crash_after = [] {
        const char* v = std::getenv("SAVEPOINT_REMOTE_CRASH_AFTER");
        return v ? std::atol(v) : 0L;
    }();
    static std::atomic<long> puts{0};
    if (crash_after > 0 && ++puts == crash_after) ::_exit(137);
}

}  // namespace

RemoteSync::RemoteSync(std::string home, std::string run_name, S3Uri uri, S3Settings settings,
                       RemoteSyncOptions options)
    : home_(std::move(home)),
      run_(std::move(run_name)),
      uri_(std::move(uri)),
      settings_(std::move(settings)),
      options_(options),
      state_(std::make_unique<State>()) {}

RemoteSync::~RemoteSync() {
    if (thread_.joinable()) finish(0);
}

void RemoteSync::start() {
    thread_ = std::thread([this] { loop(); });
}

void RemoteSync::notify() {
    std::lock_guard<std::mutex> l(mutex_);
    notified_ = true;
    wake_.notify_all();
}

RemoteBacklog RemoteSync::finish(double grace_seconds) {
    {
        std::lock_guard<std::mutex> l(mutex_);
        stopping_ = true;
        deadline_ = now_seconds() + grace_seconds;
        notified_ = true;
        wake_.notify_all();
    }
    // The thread stops on its own once nothing is pending; past the deadline, a transfer in flight is abandoned.
    while (thread_.joinable()) {
        std::unique_lock<std::mutex> l(mutex_);
        if (wake_.wait_for(l, std::chrono::milliseconds(100), [&] { return done_; })) break;
        if (now_seconds() > deadline_) cancel_ = true;
    }
    if (thread_.joinable()) thread_.join();
    RemoteBacklog b;
    if (state_->reg && state_->run_id) b = remote_backlog(*state_->reg, state_->run_id);
    return b;
}

void RemoteSync::say(const std::string& line) {
    if (on_message) on_message(line);
}

void RemoteSync::loop() {
    for (;;) {
        bool idle = false;
        try {
            idle = pass();
        } catch (const std::exception& e) {
            say(std::string("remote sync: ") + e.what());
        }
        std::unique_lock<std::mutex> l(mutex_);
        const bool out_of_time = stopping_ && now_seconds() >= deadline_;
        if ((stopping_ && idle) || out_of_time || cancel_) {
            done_ = true;  // finish() may join now
            wake_.notify_all();
            return;
        }
        wake_.wait_for(l, std::chrono::duration<double>(stopping_ ? 0.2 : options_.poll_seconds),
                       [&] { return notified_; });
        notified_ = false;
    }
}

bool RemoteSync::pass() {
    State& st = *state_;
    if (!st.reg) {
        if (!file_exists(registry_path(home_))) return false;  // train has not created the home yet
        st.reg = std::make_unique<Registry>(home_);
        st.client = std::make_unique<S3Client>(settings_, uri_.bucket);
        st.client->part_bytes = options_.part_bytes;
        st.client->cancel = &cancel_;
        st.client->attempts = 2;  // the loop itself retries with a longer backoff
    }
    if (!st.run_id) {
        auto run = st.reg->find_run(run_);
        if (!run) return false;
        st.run_id = run->id;
    }
    Registry& reg = *st.reg;
    std::map<std::int64_t, CheckpointRemote> remotes;
    for (auto& r : checkpoint_remotes(reg, st.run_id)) remotes[r.checkpoint_id] = r;
    bool idle = true;
    const double now = now_seconds();
    // Newest first: after a preemption notice the latest checkpoint is the one worth the grace period.
    std::vector<CheckpointRow> rows = reg.checkpoints(st.run_id);
    std::reverse(rows.begin(), rows.end());
    for (const CheckpointRow& c : rows) {
        if (cancel_) return false;
        auto it = remotes.find(c.id);
        const bool gone = c.state == CheckpointState::Deleting || c.state == CheckpointState::Deleted;
        if (gone && it != remotes.end() && it->second.state != RemoteState::Deleted &&
            it->second.state != RemoteState::Uploaded) {
            // Retention took it before its upload finished: nothing is owed, and no manifest names it.
            CheckpointRemote r = it->second;
            try {
                st.client->remove(remote_file_key(uri_, run_, c.id_in_file()));  // one a failed attempt may have left
            } catch (const S3Error&) {
            }
            r.state = RemoteState::Deleted;
            r.detail = "deleted by retention before it was uploaded";
            set_checkpoint_remote(reg, r);
            continue;
        }
        if (gone && it != remotes.end() && it->second.state == RemoteState::Uploaded) {
            // Retention took it here: take it there too, manifest first, so that no manifest names a missing file.
            CheckpointRemote r = it->second;
            try {
                st.client->remove(remote_manifest_key(uri_, run_, c.id_in_file()));
                st.client->remove(remote_file_key(uri_, run_, c.id_in_file()));
                r.state = RemoteState::Deleted;
                r.detail = "deleted by retention";
                set_checkpoint_remote(reg, r);
            } catch (const S3Error& e) {
                say("remote: deleting checkpoint #" + std::to_string(c.id) + " failed: " + e.what());
            }
            continue;
        }
        if (c.state != CheckpointState::Committed) continue;
        if (it != remotes.end() &&
            (it->second.state == RemoteState::Uploaded || it->second.state == RemoteState::Deleted) &&
            it->second.remote == uri_.text())
            continue;
        idle = false;
        if (st.retry_at.count(c.id) && st.retry_at[c.id] > now) continue;
        CheckpointRemote r = it != remotes.end() ? it->second : CheckpointRemote{};
        r.checkpoint_id = c.id;
        r.run_id = st.run_id;
        r.remote = uri_.text();
        if (it == remotes.end() || it->second.remote != r.remote) {
            r.state = RemoteState::Pending;
            r.attempts = 0;
            set_checkpoint_remote(reg, r);
        }
        try {
            const double t0 = now_seconds();
            Manifest m;
            m.run = *reg.run_by_id(st.run_id);
            m.branches = reg.branches(st.run_id);
            // In the store a checkpoint goes by the id its file names, and so does its parent.
            m.checkpoint = c;
            m.checkpoint.id = c.id_in_file();
            if (c.parent_id)
                if (auto parent = reg.checkpoint(*c.parent_id)) m.checkpoint.parent_id = parent->id_in_file();
            const std::string path = reg.absolute(c.path);
            m.file_sha256 = file_sha256(path);
            const std::string manifest = manifest_json(m).dump();
            const std::string metrics = metrics_json(reg.sessions(st.run_id), reg.metrics(st.run_id)).dump();
            // Negative control (docs/RELIABILITY.md): the manifest goes up before the file it names.
            const bool manifest_first = planted_bug(PlantedBug::RemoteManifestFirst);
            const std::int64_t key_id = c.id_in_file();
            if (manifest_first) st.client->put_bytes(remote_manifest_key(uri_, run_, key_id), manifest), after_put();
            r.etag = st.client->put_file(remote_file_key(uri_, run_, key_id), path);
            after_put();
            st.client->put_bytes(remote_metrics_key(uri_, run_), metrics);
            after_put();
            if (!manifest_first) st.client->put_bytes(remote_manifest_key(uri_, run_, key_id), manifest), after_put();
            r.state = RemoteState::Uploaded;
            r.detail.clear();
            ++r.attempts;
            set_checkpoint_remote(reg, r);
            st.retry_at.erase(c.id);
            st.retry_wait.erase(c.id);
            const double secs = now_seconds() - t0;
            char buf[160];
            std::snprintf(buf, sizeof buf, " (%lld bytes in %.2f s)", static_cast<long long>(c.bytes), secs);
            say("uploaded checkpoint #" + std::to_string(c.id) + " to " + uri_.text() + buf);
        } catch (const std::exception& e) {
            // A file that retention removed meanwhile is not a failure: the next look sees it deleted.
            if (!file_exists(reg.absolute(c.path))) continue;
            const bool cancelled = cancel_.load();
            r.state = cancelled ? RemoteState::Pending : RemoteState::Failed;
            r.detail = e.what();
            ++r.attempts;
            set_checkpoint_remote(reg, r);
            double& wait = st.retry_wait[c.id];
            wait = wait == 0 ? options_.retry_seconds : std::min(wait * 2, options_.max_retry_seconds);
            st.retry_at[c.id] = now_seconds() + wait;
            if (!cancelled)
                say("upload of checkpoint #" + std::to_string(c.id) + " failed (retrying in " +
                    std::to_string(static_cast<int>(wait)) + " s): " + e.what());
            if (cancelled) return false;
        }
    }
    return idle;
}

}  // namespace savepoint
