// CheckpointWriter: the I/O thread, its queue of registry jobs and saves, and
// the hand-over of the snapshot between it and the training thread. One save's
// write and commit is checkpoint_save.cpp's.
#include "checkpoint/checkpoint_writer.h"

#include "checkpoint/checkpoint_save.h"
#include "platform/io_affinity.h"
#include "platform/io_thread_policy.h"
#include "storage/background_sync.h"

namespace savepoint {

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
        }
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
