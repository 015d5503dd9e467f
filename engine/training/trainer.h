// The training engine. One Trainer trains one run (new or resumed) on the
// thread that calls run(); a second, internal thread does all checkpoint and
// registry I/O. Progress and metrics leave as value snapshots through
// TrainerObserver; commands come in through thread-safe request_*() calls that
// are checked between steps, and a crash or pause also between the batches of
// a validation pass (request_preempt and request_stop only store an atomic, so a
// signal handler may call them).
#pragma once

#include "registry/registry.h"
#include "training/resume_plan.h"
#include "training/session_reason.h"
#include "training/session_stats.h"
#include "training/train_config.h"
#include "training/train_hooks.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace savepoint {

class ProcessGroup;

// How a checkpoint's capture takes the parameters and Adam's moments
// (capture_way.h): copy-free keeps the live tensors and the optimizer's next
// step writes into spares (FusedAdam on the CPU only); copying copies them into
// the snapshot's own buffers on the training thread. The saved bytes are the
// same either way. The two kept are the two a study told apart
// (docs/PERFORMANCE.md, capture mode).
enum class CaptureMode { Auto, CopyFree, Copying };

// Auto's choice. Copying when training leaves a CPU to the I/O thread: the
// I/O core then reads only the snapshot's buffers, never the training core's
// live ones. Copy-free when training uses every CPU: there a copy stalls all
// its threads (docs/PERFORMANCE.md, capture mode).
bool capture_is_copy_free(CaptureMode mode, int training_threads, int cpus);

struct TrainRequest {
    std::string home;  // resolved home directory
    std::string run_name;
    bool resume = false;
    TrainConfig config;   // new runs only; a resume uses the run's stored config
    ResumeTarget target;  // resume only
    // Resume only: load the run's dataset from here instead of where it was
    // (it moved). Checked against the run's dataset fingerprint; not stored.
    std::string data_override;
    // Resume only: the run's TorchScript model file, moved (checked against model_sha256; not stored).
    std::string model_override;
    // Resume only, with a rollback: train the new branch with this learning rate
    // (after a divergence); recorded in the branch.
    std::optional<double> lr_override;
    std::int64_t interrupt_at_step = 0;  // simulated crash after this global step (0: none)
    std::int64_t preempt_at_step = 0;    // preemption notice after this global step (0: none)
    double preempt_grace_seconds = 120;  // how long a notice gives (reported against the save time)
    // When a checkpoint cannot be written (disk full, I/O error): training
    // pauses; it retries every storage_retry_seconds, at most storage_retries
    // times (or on request_continue()), then gives up with Outcome::Failed.
    double storage_retry_seconds = 10;
    std::int64_t storage_retries = 30;
    // Telemetry (platform/telemetry_sampler.h): a sample every this many seconds
    // while training, on a thread of its own (0: none); and the free space on the
    // home's file system below which a low-disk event is recorded (raised to
    // three checkpoints' worth when those are larger).
    double telemetry_seconds = 1;
    std::int64_t low_disk_bytes = std::int64_t(1) << 30;
    // How a checkpoint's snapshot is taken (state_snapshot.h); the saved bytes
    // are the same either way. Auto: capture_is_copy_free() below.
    CaptureMode capture = CaptureMode::Auto;
    TrainHooks hooks;  // tests and benchmarks only (train_hooks.h)
    // A data-parallel job's worker (torchrun; distributed/process_group.h): null for a single process.
    // Rank 0 trains the run in `home`; the others train the same steps in a home of their own that
    // nothing reads (their state comes from rank 0), and each takes its shard of every global batch.
    std::shared_ptr<ProcessGroup> group;
};

// Diverged: the loss or a gradient became NaN or infinite; training stopped
// before that step's update (the last good checkpoint is resumable with a new learning rate).
// What each one records and reports (session end, run status, last phase, event,
// exit code) is one row of outcomes.cpp's table.
enum class Outcome { Finished, NothingToDo, Crashed, Preempted, Stopped, Failed, Diverged };
int exit_code(Outcome o);  // savepoint-cli's exit status: 0 done, 3 resumable, 1 failed
const char* outcome_name(Outcome o);

// The session's statistics (SessionStats) and how it ended.
struct TrainResult : SessionStats {
    Outcome outcome = Outcome::Failed;
    SessionReason reason;  // why, with its fields, for the front ends to word (its index is the outcome's)
    std::string message;   // the reason as one English sentence, with no front end's words (registry, logs)
    std::int64_t run_id = 0;
    std::int64_t global_step = 0;
    std::string params_sha256;  // of the live model at the end
    std::optional<std::int64_t> last_checkpoint_id;
};

// What the trainer is doing, as a progress report says it: loading, replaying,
// training, validating, checkpointing, paused or waiting for disk; then, in a
// session's last report, how it ended (done … failed; Progress::ended()).
enum class Phase {
    Loading,
    Replaying,
    Training,
    Validating,
    Checkpointing,
    Paused,
    WaitingForDisk,
    Done,
    Interrupted,
    Preempted,
    Stopped,
    Failed,
    Diverged,
};
// The phase's word, as the CLI's progress line prints it: "training", "waiting-for-disk"...
const char* to_string(Phase p);

struct Progress {
    std::string run;
    std::int64_t run_id = 0, branch_id = 0, session_id = 0;
    std::int64_t epoch = 1, step = 0, global_step = 0;
    std::int64_t steps_per_epoch = 0, epochs = 0, total_steps = 0;
    double loss = NAN, accuracy = NAN;
    double steps_per_second = 0, eta_seconds = 0, elapsed_seconds = 0;
    Phase phase = Phase::Loading;
    // While validating: test samples done and in all (0 otherwise).
    std::int64_t validated = 0, validation_total = 0;
    bool ended() const {
        return phase == Phase::Done || phase == Phase::Interrupted || phase == Phase::Preempted ||
               phase == Phase::Stopped || phase == Phase::Failed || phase == Phase::Diverged;
    }
    double last_checkpoint_at = 0;  // wall clock of the last committed checkpoint (0: none yet)
    std::string device;
};

class TrainerObserver {
public:
    virtual ~TrainerObserver() = default;
    // From the training thread:
    virtual void on_message(const std::string&) {}
    virtual void on_progress(const Progress&) {}
    virtual void on_metrics(const std::vector<MetricRow>&) {}  // batched, at most ~4 times a second
    virtual void on_event(const EventRow&) {}
    virtual void on_storage_error(const std::string&) {}  // training paused until it can save again
    virtual void on_telemetry(const std::vector<TelemetrySample>&) {
    }  // the samples since the last call, with on_metrics
    // From the I/O thread, once the registry row is committed:
    virtual void on_checkpoint_saved(const CheckpointRow&) {}
};

class Trainer {
public:
    explicit Trainer(TrainRequest request, TrainerObserver* observer = nullptr);
    ~Trainer();
    Trainer(const Trainer&) = delete;
    Trainer& operator=(const Trainer&) = delete;

    // Trains until finished or interrupted. Throws InputError for bad input
    // (before anything is written), RunBusy if another process trains this run.
    TrainResult run();

    // Thread-safe commands, acted on at the next step boundary.
    void request_pause();
    void request_continue();  // after pause or a storage error
    void request_stop();      // graceful: checkpoint, then stop
    void request_crash();     // simulated crash: stop dead, nothing more saved
    void request_crash_at(std::int64_t global_step);
    void request_preempt();     // notice: finish the step, emergency checkpoint, stop
    void request_checkpoint();  // save now (manual)
    // Only stores atomics: safe to call from a signal handler.
    void signal_preempt() noexcept;

    struct Commands {
        std::atomic<bool> pause{false}, stop{false}, crash{false}, preempt{false}, checkpoint{false}, resume_now{false};
        std::atomic<std::int64_t> crash_at{0};
    };

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace savepoint
