// When a session saves and how: the regular saves the config asks for and what
// the async policy ('wait', 'skip', 'defer') does when the previous one is
// still being written, the capture of the live state (copy-free or copying,
// capture_way.h) and its hand-over to the I/O thread, and the recovery when a checkpoint cannot be written (training
// pauses and retries). Training thread only.
#pragma once

#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/state_snapshot.h"
#include "training/committed_head.h"
#include "training/session_reporter.h"

#include <condition_variable>
#include <mutex>

namespace savepoint {

// How a command wakes a training thread that waits (paused, or for the disk).
struct Wake {
    std::mutex mutex;
    std::condition_variable cv;
};

class SavePolicy {
public:
    // The session's state these refer to is the trainer's; it outlives the policy.
    struct Session {
        const TrainConfig* cfg;
        const TrainRequest* req;
        const RunRow* run;
        const std::int64_t* branch_id;
        const std::int64_t* global_step;
        Trainer::Commands* cmd;
        Wake* wake;
        SessionReporter* report;
        SessionStats* stats;
        const CommittedHead* head;
    };
    explicit SavePolicy(Session s) : s_(s) {}

    // Once the model and the I/O thread exist: `request` builds what the I/O thread
    // writes for a save of the current step, `before_capture` runs before every capture
    // (a data-parallel worker's part in rank 0's checkpoint).
    void attach(CheckpointWriter* writer, torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                std::function<SaveRequest(CheckpointKind)> request, std::function<void()> before_capture);
    // How captures are taken (TrainRequest::capture; capture_is_copy_free).
    void choose_capture(CaptureMode mode, int training_threads, int cpus);
    StateSnapshot& snapshot() { return *snapshot_; }

    // Hands a snapshot to the I/O thread. Blocks only to take the state and,
    // with the 'wait' policy, while the previous save is still writing: until its bytes are
    // written and hashed, not until it commits (CheckpointWriter). False: not
    // saved (skipped, or the disk failed and training is to stop).
    bool checkpoint(CheckpointKind kind, bool wait_until_committed);
    // Whether a regular save falls due after global step `at` (which ends an
    // epoch or not), before the async policy has its say.
    bool regular_save_due(std::int64_t at, bool end_of_epoch) const;
    // A regular save falls due at this step boundary (`due`), or one deferred
    // earlier may be taken now. True: a save was taken.
    bool regular_save(bool due);

    // The disk could not be written and training gives up (out of retries, the
    // registry damaged, or asked to stop while waiting).
    bool storage_failed() const { return storage_failed_; }
    const std::string& storage_failure() const { return storage_failure_; }  // set when the registry is damaged

private:
    bool take_deferred(bool due);
    void note_deferred_save_taken(CheckpointKind kind);
    std::string here_text() const;
    std::string deferred_text() const;
    // Training pauses until the save can be retried (request_continue() or the
    // retry timer). Returns false if asked to stop instead or out of retries.
    // The retry is a save of `kind` at this step (a final or emergency save stays one).
    bool recover_from_storage_error(const std::string& message, CheckpointKind kind);
    bool retry(CheckpointKind kind);

    Session s_;
    CheckpointWriter* writer_ = nullptr;
    torch::nn::Module* model_ = nullptr;
    torch::optim::Optimizer* optimizer_ = nullptr;
    std::function<SaveRequest(CheckpointKind)> request_;
    std::function<void()> before_capture_;
    std::shared_ptr<StateSnapshot> snapshot_ = std::make_shared<StateSnapshot>();
    // Policy 'defer': the global step a regular save fell due at while the
    // previous one was still being written (0: none pending).
    std::int64_t deferred_gs_ = 0;
    bool storage_failed_ = false;
    std::string storage_failure_;
};

}  // namespace savepoint
