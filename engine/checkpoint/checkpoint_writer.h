// The I/O thread. Owns its own registry connection and executes, in order,
// the jobs the training thread hands it: metric batches, events, and
// checkpoint saves (serialise + hash + durable write + registry commit +
// retention). At most one save is being written: it holds the snapshot until
// its bytes are in the page cache and hashed, and the training thread decides
// what to do when the next one is due before then (wait, skip or defer). The
// snapshot is let go before the file's sync, rename, directory sync and
// transaction B, so the next capture need not wait for the disk's flush: it
// queues behind that commit (one save committing, one written at most), and
// the I/O thread takes it as soon as the commit is done.
//
// A checkpoint counts as saved only when its registry row is committed; only
// then is on_saved called.
#pragma once

#include "checkpoint/state_snapshot.h"
#include "registry/registry.h"
#include "storage/background_sync.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace savepoint {

struct SaveRequest {
    CheckpointRow row;  // run, branch, parent, position, metrics, kind; path = directory prefix
    std::string run_name;
    // The session's part of the meta (config, data seed...), built once and shared by its saves;
    // the writer adds ids, position, metrics and hashes on the I/O thread. May be null.
    std::shared_ptr<const nlohmann::json> session_meta;
    double created_at = 0;                 // wall clock of the capture (seconds); 0: not recorded
    std::int64_t keep = 5;                 // retention: newest K on this branch, plus best, head, pinned, protected
    std::set<std::int64_t> protected_ids;  // e.g. the checkpoint this session resumed from
    double stall_ms = 0;                   // how long the training thread was blocked capturing the snapshot
    // The parent is the last checkpoint this writer committed, when it has
    // committed one: a capture may be handed over while the previous save
    // still commits, so the training thread's head can be one save behind.
    bool parent_is_last_save = false;
};

struct SaveOutcome {
    CheckpointRow row;                   // committed row (state 'committed') on success
    std::vector<CheckpointRow> retired;  // marked 'deleting' by transaction B, then removed by retention
    bool recycled = false;               // written over the file of a checkpoint retired earlier
    double write_ms = 0;
};

class CheckpointWriter {
public:
    using SavedCallback = std::function<void(const SaveOutcome&)>;
    using ErrorCallback = std::function<void(const std::string& message)>;

    // io_cpus: the CPUs the I/O thread runs on (storage_interrupt_cpus); empty: any.
    // shares_training_cpus: training leaves the I/O thread no CPU of its own, so
    // it runs as SCHED_BATCH and does not preempt training when woken (io_thread_policy.h).
    CheckpointWriter(const std::string& home, SavedCallback on_saved)
        : CheckpointWriter(home, {}, std::move(on_saved)) {}
    CheckpointWriter(const std::string& home, std::vector<int> io_cpus, SavedCallback on_saved,
                     bool shares_training_cpus = false);
    ~CheckpointWriter();  // drains the queue, then joins

    // Queue a job that runs on the I/O thread with its registry connection.
    void post(std::function<void(Registry&)> job);

    // Hand over a snapshot to save. The snapshot must stay untouched until
    // snapshot_busy() turns false. Returns immediately.
    void save_async(std::shared_ptr<const StateSnapshot> snapshot, SaveRequest request);

    // A save is queued or running (until its registry commit).
    bool save_in_flight() const;
    void wait_for_save();  // blocks until no save is in flight
    // A save still reads the snapshot (queued, or writing and hashing it):
    // the next capture must wait. Lock-free. False once the last save handed
    // over has its bytes in the page cache and hashed, while it may still be
    // syncing and committing.
    bool snapshot_busy() const { return snapshot_busy_.load(std::memory_order_acquire); }
    void wait_for_snapshot();  // blocks until snapshot_busy() is false
    void drain();              // blocks until every queued job has run
    // Queues the removal of the retired file kept for the next save to write
    // over (see loop()); call when no more saves will come. The destructor
    // does it too.
    void release_recycled_file();

    // Cheap, lock-free: is an error from a failed save waiting to be taken?
    bool has_save_error() const { return save_failed_.load(std::memory_order_relaxed); }
    // The error of the last failed save (cleared by taking it).
    std::optional<std::string> take_save_error();
    // A save failed because the registry's pages are damaged (RegistryDamaged):
    // retrying cannot help, so training stops instead of waiting for the disk.
    // Stays set: a damaged file does not mend itself while this writer runs.
    bool registry_damaged() const { return registry_damaged_.load(std::memory_order_acquire); }
    // The error of the last failed metrics/event job (cleared by taking it).
    std::optional<std::string> take_job_error();

private:
    void loop();
    void release_spare(Registry& reg);

    // I/O thread only. A file retention retired, still on disk under its old
    // name with its row 'deleting': the next save writes over it instead of
    // creating a file (and this save skips the unlink), like a database
    // recycling its log segments. Transaction B of that save marks the row
    // 'deleted'; a crash before leaves 'deleting', which recovery finishes.
    std::optional<CheckpointRow> spare_;
    BackgroundSync background_sync_;  // flushes a save's tensors while the I/O thread hashes them
    std::string home_;
    std::vector<int> io_cpus_;
    bool shares_training_cpus_ = false;
    SavedCallback on_saved_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    struct Job {
        std::function<void(Registry&)> run;
        std::shared_ptr<const StateSnapshot> snapshot;  // a save's; null for other jobs
    };
    std::deque<Job> queue_;
    bool busy_ = false;
    int saves_queued_ = 0;    // under mutex_: queued or running
    int snapshots_held_ = 0;  // under mutex_: saves queued or running that have not let go of their snapshot
    std::atomic<bool> snapshot_busy_{false};     // snapshots_held_ > 0, for the lock-free read
    void release_snapshot();                     // one save lets go of its snapshot
    std::optional<std::int64_t> last_saved_id_;  // I/O thread only: the last checkpoint this writer committed
    // Written under mutex_ (the condition variable's waiters rely on that), read
    // without it by the training thread at every due save: never a sleep on a
    // mutex the I/O thread holds: a wake-up from another CPU would add to the
    // stall (docs/PERFORMANCE.md, checkpoint writer).
    // True while any save is queued or running (saves_queued_ > 0).
    std::atomic<bool> save_in_flight_{false};
    bool stopping_ = false;
    std::optional<std::string> save_error_;
    std::atomic<bool> save_failed_{false};
    std::atomic<bool> registry_damaged_{false};
    std::optional<std::string> job_error_;
    std::thread thread_;
};

// Saves synchronously on the calling thread (used by tests and by the
// emergency path); same protocol as the I/O thread.
SaveOutcome save_checkpoint_now(Registry& reg, const StateSnapshot& snapshot, SaveRequest request);

}  // namespace savepoint
