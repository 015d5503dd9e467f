#include "checkpoint/checkpoint_writer.h"

#include "checkpoint/recovery.h"
#include "formats/checkpoint_format.h"
#include "platform/errors.h"
#include "platform/io_affinity.h"
#include "platform/io_thread_policy.h"
#include "storage/background_sync.h"
#include "storage/cache_release.h"
#include "storage/durable_io.h"
#include "storage/sha256.h"

#include <chrono>
#include <cmath>

namespace savepoint {
namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

nlohmann::json nan_to_null(double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

// Retention: keep the newest `keep` committed checkpoints of this branch, the
// best by validation loss (whole run), the head, pinned ones and protected
// ones. Older branches are never touched: a rollback deletes nothing of them.
// Chosen before transaction B, with the new checkpoint (`new_id`, still
// 'writing') counted as committed: B marks the rest 'deleting'.
std::vector<CheckpointRow> retirees(Registry& reg, const SaveRequest& req, std::int64_t new_id) {
    const auto best = reg.best_committed_checkpoint(req.row.run_id, new_id);
    std::vector<CheckpointRow> out;
    for (auto& c : reg.committed_beyond_newest(req.row.run_id, req.row.branch_id, req.keep, new_id)) {
        if (c.pinned || c.id == new_id || (best && c.id == *best) || req.protected_ids.count(c.id)) continue;
        out.push_back(std::move(c));
    }
    return out;
}

std::string retention_detail(const SaveRequest& req) {
    return "removed by retention (keep " + std::to_string(req.keep) + ")";
}

// Negative control (docs/RELIABILITY.md): transaction B before the rename,
// which the crash-point sweep must catch. Test-only; false in production.
bool planted_commit_before_rename() { return planted_bug("commit-before-rename"); }

// One save, in the order write_and_commit() runs its pieces: transaction A
// registers the row, the metadata is built, an orphan under the new file's name
// goes to quarantine, the durable write, then transaction B commits. Any
// failure after A drops this checkpoint (drop()); the previous one is untouched.
class CheckpointSave {
public:
    CheckpointSave(Registry& reg, const StateSnapshot& snapshot, const SaveRequest& req, const CheckpointRow* spare,
                   BackgroundSync* background, const std::function<void()>& let_go)
        : reg_(reg),
          snapshot_(snapshot),
          req_(req),
          spare_(spare),
          background_(background),
          let_go_(let_go),
          t0_(std::chrono::steady_clock::now()),
          row_(req.row) {}

    // Transaction A: the row exists, in state 'writing', before any byte is written.
    // Not synced: a process crash keeps it (recovery then discards a half-written
    // file by its row); after a power loss that also loses the row, recovery finds
    // a temp file (removed) or an unregistered file (quarantined), never a
    // checkpoint counted as saved. Transaction B's sync makes it durable with B.
    // The parameters' hash is not known yet unless the caller gave it: it is
    // computed while the disk flushes the tensors, and transaction B records it.
    void register_writing() {
        const std::string dir_rel = row_.path;
        make_directories(reg_.absolute(dir_rel));
        {
            Registry::RelaxedCommits relaxed(reg_);
            id_ = reg_.insert_writing_checkpoint(row_);
        }
        row_.id = id_;
        row_.path = dir_rel + checkpoint_file_name(id_);
        final_path_ = reg_.absolute(row_.path);
    }

    // The file's metadata, with a stand-in of the same length for the parameters'
    // hash until it is known: the tensors' offsets depend on the meta's length.
    void build_metadata() {
        meta_ = req_.session_meta ? *req_.session_meta : nlohmann::json::object();
        if (req_.created_at > 0) meta_["created_at"] = req_.created_at;
        meta_["format"] = "savepoint-checkpoint";
        meta_["run"] = req_.run_name;
        meta_["run_id"] = row_.run_id;
        meta_["checkpoint_id"] = id_;
        meta_["branch_id"] = row_.branch_id;
        meta_["parent_id"] = row_.parent_id ? nlohmann::json(*row_.parent_id) : nlohmann::json(nullptr);
        meta_["epoch"] = row_.epoch;
        meta_["step"] = row_.step;
        meta_["global_step"] = row_.global_step;
        meta_["kind"] = to_string(row_.kind);
        meta_["params_sha256"] = row_.params_sha256.empty() ? std::string(64, '0') : row_.params_sha256;
        meta_["train_loss"] = nan_to_null(row_.train_loss);
        meta_["train_accuracy"] = nan_to_null(row_.train_accuracy);
        meta_["val_loss"] = nan_to_null(row_.val_loss);
        meta_["val_accuracy"] = nan_to_null(row_.val_accuracy);
        draft_meta_ = meta_.dump();
        tensors_ = snapshot_.raw_tensors();
        size_ = checkpoint_file_size(draft_meta_, tensors_);
        // Hashing the parameters here, not on the training thread, keeps the training stall to
        // the capture; alongside the tensors' halves, it costs no time of its own (sha256_streams.h).
        hash_params_ = row_.params_sha256.empty();
        if (hash_params_) params_.ranges = snapshot_.params_ranges();
    }

    // The id is new, so a file already under its name is an orphan (a registry
    // lost, replaced or restored from a backup): kept in quarantine/, not written over.
    void quarantine_orphan() {
        if (!file_exists(final_path_)) return;
        EventRow e;
        e.run_id = row_.run_id;
        e.branch_id = row_.branch_id;
        e.kind = EventKind::Recovery;
        e.global_step = row_.global_step;
        e.epoch = row_.epoch;
        e.step = row_.step;
        e.message = "file " + final_path_ + " was not in the registry; moved it to " +
                    quarantine_file(reg_.home(), req_.run_name, final_path_) + " before writing checkpoint #" +
                    std::to_string(id_) + " under that name";
        reg_.add_event(e);
    }

    // The bytes, synced and renamed into place (DurableWriter). The snapshot is
    // let go once read for the last time, before the sync.
    void write_durably() {
        DurableWriter writer(final_path_, size_, spare_ ? reg_.absolute(spare_->path) : std::string());
        out_.recycled = writer.recycled();
        PositionedSink sink;
        sink.seek = [&](std::uint64_t offset) { writer.seek(offset); };
        sink.write = [&](const void* p, std::size_t n) { writer.write(p, n); };
        if (background_) sink.tensors_written = [&] { writer.sync_in_background(*background_); };
        auto final_meta = [&] {
            if (hash_params_) {
                row_.params_sha256 = to_hex(params_.digest.data(), params_.digest.size());
                meta_["params_sha256"] = row_.params_sha256;
                return meta_.dump();
            }
            return draft_meta_;
        };
        sha_ = write_checkpoint_tensors_first(draft_meta_.size(), tensors_, final_meta, sink,
                                              hash_params_ ? &params_ : nullptr);
        // Read for the last time (copied into the page cache, hashed): let go of the lines
        // now, while the disk flushes, so that the training thread's next write of these
        // buffers need not take them from this core's caches (cache_release.h).
        for (const auto& t : tensors_) release_from_caches(t.data, t.nbytes);
        // The capture's stall, its hand-over, and the training thread's part in its background
        // copy: read now, since the next capture writes them once the snapshot is let go.
        capture_stall_ms_ = req_.stall_ms + snapshot_.handover_ms() + snapshot_.training_copy_ms();
        if (let_go_) let_go_();
        if (planted_commit_before_rename())
            reg_.commit_checkpoint(id_, static_cast<std::int64_t>(size_), sha_, ms_since(t0_), req_.stall_ms);
        try {
            writer.commit();
        } catch (...) {
            placed_ = writer.renamed();
            throw;
        }
        placed_ = true;
    }

    // Transaction B: committed + head moves (+ retention's 'deleting' marks, and
    // 'deleted' for the retired file this one was written over), atomically.
    void commit() {
        out_.write_ms = ms_since(t0_);
        out_.retired = retirees(reg_, req_, id_);
        CheckpointCommit commit;
        commit.bytes = static_cast<std::int64_t>(size_);
        commit.sha256 = sha_;
        commit.params_sha256 = row_.params_sha256;
        commit.write_ms = out_.write_ms;
        commit.stall_ms = capture_stall_ms_;
        for (const auto& c : out_.retired) commit.retire.push_back(c.id);
        commit.retire_detail = retention_detail(req_);
        if (out_.recycled) commit.finished.push_back(spare_->id);
        commit.finished_detail =
            retention_detail(req_) + "; its file was rewritten as checkpoint #" + std::to_string(id_);
        if (!planted_commit_before_rename())
            reg_.commit_checkpoint(id_, commit);
        else  // committed before the rename: only retention's marks are left
            for (std::int64_t old : commit.retire)
                reg_.set_checkpoint_state(old, CheckpointState::Deleting, retention_detail(req_));
        row_.state = CheckpointState::Committed;
        row_.bytes = static_cast<std::int64_t>(size_);
        row_.sha256 = sha_;
        row_.write_ms = out_.write_ms;
        row_.stall_ms = commit.stall_ms;
    }

    // After a failure: nothing before transaction B touched the previous checkpoint. Drop this one.
    void drop(const std::exception& e) {
        try {
            if (placed_ && file_exists(final_path_)) remove_durably(final_path_);
            reg_.set_checkpoint_state(id_, CheckpointState::Failed, e.what());
        } catch (...) {
            // The registry itself may be failing (disk full); recovery will finish this on next open.
        }
    }

    SaveOutcome outcome() {
        out_.row = row_;
        return std::move(out_);
    }

private:
    Registry& reg_;
    const StateSnapshot& snapshot_;
    const SaveRequest& req_;
    const CheckpointRow* spare_;
    BackgroundSync* background_;
    const std::function<void()>& let_go_;
    const std::chrono::steady_clock::time_point t0_;
    CheckpointRow row_;
    std::int64_t id_ = 0;
    std::string final_path_;
    // Whether final_path_ is this save's file. Until the rename it may be
    // someone else's (an orphan of a lost registry, with the id handed out
    // again): a failed save must never remove that.
    bool placed_ = false;
    nlohmann::json meta_;
    std::string draft_meta_;
    std::vector<RawTensor> tensors_;
    std::uint64_t size_ = 0;
    bool hash_params_ = false;
    Sha256Stream params_;
    std::string sha_;
    double capture_stall_ms_ = 0;
    SaveOutcome out_;
};

// Writes and commits one checkpoint (transactions A and B around the durable
// write); retention is left to the caller. `spare`: a retired checkpoint
// whose file to write over (its row 'deleting'; B marks it 'deleted').
// `let_go` is called once nothing more is read from the snapshot (its bytes
// written and hashed), before the sync and the commit: from then on the
// training thread may capture the next state into it.
SaveOutcome write_and_commit(Registry& reg, const StateSnapshot& snapshot, const SaveRequest& req,
                             const CheckpointRow* spare = nullptr, BackgroundSync* background = nullptr,
                             const std::function<void()>& let_go = {}) {
    // First of all: a background capture's copy, which the training thread's
    // next optimizer update waits for (state_snapshot.h).
    snapshot.finish_copies();
    CheckpointSave save(reg, snapshot, req, spare, background, let_go);
    save.register_writing();
    try {
        save.build_metadata();
        save.quarantine_orphan();
        save.write_durably();
        save.commit();
    } catch (const std::exception& e) {
        save.drop(e);
        throw;
    }
    return save.outcome();
}

// Removes retired files whose rows are 'deleting' (one directory sync for all
// of them), then marks them 'deleted' without a sync of its own: if that mark
// is lost, recovery finds 'deleting' rows and finishes them. Best effort, as
// all retention is.
void remove_retired(Registry& reg, const std::vector<CheckpointRow>& rows, const std::string& detail) {
    if (rows.empty()) return;
    try {
        std::vector<std::string> files;
        for (const auto& c : rows) files.push_back(reg.absolute(c.path));
        remove_files_durably(files);
        Registry::RelaxedCommits relaxed(reg);
        Registry::Transaction tx(reg);
        for (const auto& c : rows) reg.set_checkpoint_state(c.id, CheckpointState::Deleted, detail);
        tx.commit();
    } catch (const std::exception&) {
    }
}

}  // namespace

SaveOutcome save_checkpoint_now(Registry& reg, const StateSnapshot& snapshot, SaveRequest req) {
    SaveOutcome out = write_and_commit(reg, snapshot, req);
    remove_retired(reg, out.retired, retention_detail(req));
    return out;
}

CheckpointWriter::CheckpointWriter(const std::string& home, std::vector<int> io_cpus, SavedCallback on_saved,
                                   bool shares_training_cpus)
    : home_(home),
      io_cpus_(std::move(io_cpus)),
      shares_training_cpus_(shares_training_cpus),
      on_saved_(std::move(on_saved)) {
    thread_ = std::thread([this] { loop(); });
}

CheckpointWriter::~CheckpointWriter() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void CheckpointWriter::post(std::function<void(Registry&)> job) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back({std::move(job), nullptr});
    }
    cv_.notify_all();
}

void CheckpointWriter::save_async(std::shared_ptr<const StateSnapshot> snapshot, SaveRequest request) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++saves_queued_;
        save_in_flight_ = true;
        ++snapshots_held_;
        snapshot_busy_ = true;
        std::shared_ptr<const StateSnapshot> queued = snapshot;
        // Moved, not copied: this runs on the training thread, inside its stall.
        queue_.push_back({[this, snapshot = std::move(snapshot), request = std::move(request)](Registry& reg) mutable {
                              bool let_go = false;
                              const auto release = [&] {
                                  if (!let_go) release_snapshot();
                                  let_go = true;
                              };
                              // Captured before the previous save committed, the training thread's head may be
                              // one behind: the I/O thread, which committed that save, knows the parent.
                              if (request.parent_is_last_save && last_saved_id_) request.row.parent_id = last_saved_id_;
                              std::optional<SaveOutcome> out;
                              std::optional<CheckpointRow> spare = std::move(spare_);
                              spare_.reset();
                              try {
                                  out = write_and_commit(reg, *snapshot, request, spare ? &*spare : nullptr,
                                                         &background_sync_, release);
                                  last_saved_id_ = out->row.id;
                                  if (on_saved_) on_saved_(*out);
                              } catch (const std::exception& e) {
                                  release();
                                  std::lock_guard<std::mutex> lock(mutex_);
                                  save_error_ = e.what();
                                  if (dynamic_cast<const RegistryDamaged*>(&e)) registry_damaged_ = true;
                                  save_failed_ = true;
                              }
                              // Not written over (it could not be opened, or the save failed): remove it as retention
                              // would.
                              if (spare && !(out && out->recycled)) remove_retired(reg, {*spare}, spare->state_detail);
                              // The first file this save retired is kept for the next one to write over.
                              if (out && !out->retired.empty()) {
                                  spare_ = out->retired.front();
                                  spare_->state_detail = retention_detail(request);
                                  out->retired.erase(out->retired.begin());
                              }
                              {
                                  // Committed: the save is no longer in flight. Retention only deletes
                                  // older files, so the training thread need not wait for it.
                                  std::lock_guard<std::mutex> lock(mutex_);
                                  save_in_flight_ = --saves_queued_ > 0;
                              }
                              cv_.notify_all();
                              if (out) remove_retired(reg, out->retired, retention_detail(request));
                          },
                          std::move(queued)});
    }
    cv_.notify_all();
}

bool CheckpointWriter::save_in_flight() const { return save_in_flight_.load(std::memory_order_acquire); }

void CheckpointWriter::release_snapshot() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        snapshot_busy_ = --snapshots_held_ > 0;
    }
    cv_.notify_all();
}

void CheckpointWriter::wait_for_snapshot() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return !snapshot_busy_; });
}

void CheckpointWriter::wait_for_save() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return !save_in_flight_; });
}

void CheckpointWriter::release_recycled_file() {
    post([this](Registry& reg) { release_spare(reg); });
}

void CheckpointWriter::release_spare(Registry& reg) {
    if (!spare_) return;
    remove_retired(reg, {*spare_}, spare_->state_detail);
    spare_.reset();
}

void CheckpointWriter::drain() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

std::optional<std::string> CheckpointWriter::take_save_error() {
    if (!save_failed_.load(std::memory_order_acquire)) return std::nullopt;
    std::lock_guard<std::mutex> lock(mutex_);
    auto e = std::move(save_error_);
    save_error_.reset();
    save_failed_ = false;
    return e;
}

std::optional<std::string> CheckpointWriter::take_job_error() {
    std::lock_guard<std::mutex> lock(mutex_);
    auto e = std::move(job_error_);
    job_error_.reset();
    return e;
}

void CheckpointWriter::loop() {
    const ThreadAffinity pinned(io_cpus_);
    // Refused (not Linux, a seccomp filter): saves still work, with a longer hand-over.
    if (shares_training_cpus_) defer_wakeups_to_running_threads();
    std::unique_ptr<Registry> reg;
    std::string open_error;
    bool open_damaged = false;
    try {
        reg = std::make_unique<Registry>(home_);
    } catch (const std::exception& e) {
        open_error = e.what();
        open_damaged = dynamic_cast<const RegistryDamaged*>(&e) != nullptr;
    }
    for (;;) {
        Job job;
        std::shared_ptr<const StateSnapshot> to_copy;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            // Asleep between jobs; the hand-over wakes it (a futex wake-up on the training
            // thread, counted in the stall). Polling for an expected save instead saved
            // that but cost the training CPU more (docs/PERFORMANCE.md, checkpoint writer).
            cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) {  // stopping and drained
                lock.unlock();
                if (reg) release_spare(*reg);
                return;
            }
            job = std::move(queue_.front());
            queue_.pop_front();
            busy_ = true;
            // A save queued behind this job (metrics, events, retention) may have
            // copies the training thread's next update waits for: those first.
            for (const Job& queued : queue_)
                if (queued.snapshot && queued.snapshot->copies_pending()) to_copy = queued.snapshot;
        }
        if (to_copy) to_copy->finish_copies();
        if (!reg) {
            // A failed open (EIO, a full disk) is retried with the next job, so one
            // bad moment does not make every later save of this session fail.
            try {
                reg = std::make_unique<Registry>(home_);
            } catch (const std::exception& e) {
                open_error = e.what();
                open_damaged = dynamic_cast<const RegistryDamaged*>(&e) != nullptr;
            }
        }
        if (reg) {
            try {
                job.run(*reg);
            } catch (const std::exception& e) {
                // Metrics and events are best effort: a registry error must not kill training.
                std::lock_guard<std::mutex> lock(mutex_);
                job_error_ = e.what();
            }
        } else {
            std::lock_guard<std::mutex> lock(mutex_);
            save_error_ = open_error;
            if (open_damaged) registry_damaged_ = true;
            save_failed_ = true;
            // Only a save dropped here ends one in flight: clearing the flag for
            // a metrics job would let a capture overwrite a snapshot still queued.
            if (job.snapshot) {
                save_in_flight_ = --saves_queued_ > 0;
                snapshot_busy_ = --snapshots_held_ > 0;
            }
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            busy_ = false;
        }
        cv_.notify_all();
    }
}

}  // namespace savepoint
