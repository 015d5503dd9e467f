// One checkpoint's save on the I/O thread: transaction A registers the row,
// the durable write, transaction B commits it and retires what retention lets
// go; and removing retired files. CheckpointWriter runs these in order
// (checkpoint_writer.cpp); internal to the checkpoint layer.
#include "checkpoint/checkpoint_save.h"

#include "checkpoint/recovery.h"
#include "formats/checkpoint_format.h"
#include "platform/errors.h"
#include "platform/planted_bugs.h"
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

// Negative control (docs/RELIABILITY.md): transaction B before the rename,
// which the crash-point sweep must catch. Test-only; false in production.
bool planted_commit_before_rename() { return planted_bug(PlantedBug::CommitBeforeRename); }

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
        // The capture's stall and its hand-over: read now, since the next capture
        // writes them once the snapshot is let go.
        capture_stall_ms_ = req_.stall_ms + snapshot_.handover_ms();
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

}  // namespace

std::string retention_detail(const SaveRequest& req) {
    return "removed by retention (keep " + std::to_string(req.keep) + ")";
}

SaveOutcome write_and_commit(Registry& reg, const StateSnapshot& snapshot, const SaveRequest& req,
                             const CheckpointRow* spare, BackgroundSync* background,
                             const std::function<void()>& let_go) {
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

SaveOutcome save_checkpoint_now(Registry& reg, const StateSnapshot& snapshot, SaveRequest req) {
    SaveOutcome out = write_and_commit(reg, snapshot, req);
    remove_retired(reg, out.retired, retention_detail(req));
    return out;
}

}  // namespace savepoint
