// Trainer's private state, shared by the files that make the trainer: the loop
// and how a session ends (trainer.cpp), opening the run and loading the resume
// point (run_setup.cpp), the save request (save_request.cpp), a data-parallel
// job (data_parallel.cpp), the device (device_check.cpp), telemetry
// (session_telemetry.cpp). Its parts of their own: the reporter (progress,
// metrics, events), the save policy, the statistics, the committed head.
// Internal to the engine.
#pragma once

#include "training/trainer.h"

#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/recovery.h"
#include "cuda/device_record.h"
#include "data/data_order.h"
#include "data/dataset.h"
#include "data/dataset_fingerprint.h"
#include "distributed/gradient_allreduce.h"
#include "formats/checkpoint_format.h"
#include "model/fused_adam.h"
#include "model/models.h"
#include "platform/errors.h"
#include "registry/home.h"
#include "registry/run_lock.h"
#include "storage/durable_io.h"
#include "training/branch_lr.h"
#include "training/committed_head.h"
#include "training/save_policy.h"
#include "training/session_clock.h"
#include "training/session_reporter.h"
#include "training/training_step.h"

#include <algorithm>
#include <chrono>

namespace savepoint {

namespace trainer_detail {

// What a session that ended with an Outcome records and reports last (outcomes.cpp's table).
SessionEnd session_end(Outcome o);
RunStatus run_status(Outcome o);
Phase ended_phase(Outcome o);
EventKind ending_event(Outcome o);

// The network a session trains and where: set up by run_setup.cpp.
struct Network {
    torch::Device device{torch::kCPU};
    std::shared_ptr<ClassifierImpl> model;
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    std::unique_ptr<StepRunner> stepper;
    std::vector<int> training_cpus;  // empty: leave the training thread where the scheduler puts it
};

// The device this session trains on, recorded in each of its checkpoints, and what
// differs from the one the resume point was trained on (device_check.cpp).
struct SessionDevice {
    std::string name;  // as progress and the runs table say it: "cpu (2 threads)", "cuda (…)"
    DeviceRecord record;
    std::string json;  // record as the registry keeps it (CheckpointRow::device_json)
    std::vector<DeviceDifference> changes;
    std::string changed_from;  // the resume point's device, summarised
};

// The run's branch this session trains, and the rates it is trained at.
struct BranchState {
    std::int64_t id = 0;
    std::optional<std::int64_t> resumed_from;  // the checkpoint this session loaded
    double run_lr = 0;                         // the run's configured rate (branch_lr.h)
};

// Where the loop is beyond the global step.
struct LoopState {
    std::int64_t replay_until = 0;    // steps up to this global step replay what a session before computed
    std::int64_t steps_at_start = 0;  // the global step this session's loop began at
    bool saved_at_gs = false;         // a checkpoint holds (or is writing) the current step
};

// The step after gs had a non-finite loss or gradient (`what` says which,
// StepResult::nonfinite); its update was not made.
struct NonfiniteStep {
    std::string what;
    double loss = 0;
    // Tests: SAVEPOINT_INJECT_NONFINITE=loss@N or grad@N poisons global step N (StepRunner::poison_next_step).
    std::int64_t poison_at = 0;
    StepRunner::Poison poison_kind = StepRunner::Poison::None;
};

// A data-parallel job (data_parallel.cpp); unused without TrainRequest::group.
struct JobState {
    std::unique_ptr<GradientAllreduce> allreduce;
    bool preempt = false;               // a rank's notice, as the last step's all-reduce told every rank
    std::int64_t preempt_voters = 0;    // which ranks had one (StepResult::stop_voters)
    std::int64_t rng_gathered_gs = -1;  // rank 0: the other ranks' RNG states at that step (job_meta)
    nlohmann::json rng_gathered;
    std::vector<std::string> worker_notes;  // a follower's messages, for rank 0 (worker_report.h)
    int lost_rank = -1;                     // a collective failed (WorkerLost): the worker, when it can be named
};

}  // namespace trainer_detail

struct Trainer::Impl {
    TrainRequest req;
    Commands cmd;
    Wake wake;

    // The run, opened in setup() (run_setup.cpp).
    std::unique_ptr<Registry> reg;
    std::unique_ptr<FileLock> lock;
    RunRow run;
    TrainConfig cfg;
    DatasetPair data;
    trainer_detail::Network net;
    trainer_detail::SessionDevice dev;
    SessionRow session;
    trainer_detail::BranchState branch;

    // Training thread only: the last completed global step (position_of names its epoch and step).
    std::int64_t gs = 0;
    trainer_detail::LoopState loop;
    SessionStats stats;
    CommittedHead head;  // written by the I/O thread
    SessionReporter report;
    SavePolicy saver{{&cfg, &req, &run, &branch.id, &gs, &cmd, &wake, &report, &stats, &head}};
    // The I/O thread: checkpoints and every registry write. Declared after what its
    // callbacks use (head, report), so that it, and its thread, go first.
    std::unique_ptr<CheckpointWriter> writer;
    std::shared_ptr<const nlohmann::json> session_meta;  // see save_request
    trainer_detail::NonfiniteStep nonfinite;
    trainer_detail::JobState job;
    struct Telemetry;  // session_telemetry.cpp
    std::shared_ptr<Telemetry> telemetry;

    Impl(TrainRequest r, TrainerObserver* o) : req(std::move(r)), report(o, {&run, &session, &branch.id, &gs, &head}) {}

    // Where training is, worded as everywhere else: the last completed step.
    std::string here_text(bool with_global = false) const {
        return position_text(gs, run.steps_per_epoch, with_global);
    }
    Position here() const { return position_of(gs, run.steps_per_epoch); }

    // Setup (run_setup.cpp).
    void setup();
    void open_run(std::optional<RunRow>& existing);
    void start_writer(const std::vector<int>& io_cpus);
    void load_resume_point(ResumePlan& plan);
    void load_resume_dataset();
    void check_simulated_failure_steps(std::int64_t after, std::int64_t last) const;
    void read_poison_request();
    // Resume: the rate the loaded checkpoint was trained at (checked against
    // its config), then the one this session trains at (branch_lr.h).
    void choose_learning_rate(ResumePlan& plan);
    TrainResult nothing_to_do(const ResumePlan& plan);  // a resume of a finished run at its end
    void begin_session(const ResumePlan& plan);
    void announce_start(const ResumePlan& plan);
    // What the I/O thread needs to write and register a checkpoint of the current position (save_request.cpp).
    SaveRequest save_request(CheckpointKind kind);

    // The training loop (trainer.cpp): commands between steps, then the step,
    // the epoch's validation and the regular save. Each way out is a piece of
    // its own that ends the session through finish().
    TrainResult train_loop(const ResumePlan& plan);  // train_steps, ended by a lost worker too
    TrainResult train_steps(const ResumePlan& plan);
    void start_loop(const ResumePlan& plan);
    void train_step(const std::vector<std::int64_t>& perm);  // the hot path: allocates nothing but metric rows
    bool validate_epoch();  // false: a crash was asked for during it (nothing recorded)
    bool crash_requested() const { return cmd.crash || (cmd.crash_at > 0 && gs >= cmd.crash_at); }
    void save_if_due(bool end_of_epoch);
    void pause_until_woken();
    TrainResult simulated_crash(CrashedReason::Cause cause, const std::string& message);
    TrainResult stop_by_request();
    TrainResult give_up_on_storage();
    TrainResult preempt();
    TrainResult finish_training();
    TrainResult diverge();
    TrainResult finish(const SessionReason& reason, const std::string& message);  // the reason's outcome

    // A data-parallel job (data_parallel.cpp); all no-ops without req.group.
    bool preempt_due() const { return req.group ? job.preempt : cmd.preempt.load(); }
    std::int64_t world_size() const;
    // A job's worker other than rank 0: no registry, no lock, no checkpoint writer,
    // nothing under the home; what only it knows goes to rank 0 (worker_report.h).
    bool follower() const { return req.group && req.group->rank() != 0; }
    void note(const std::string& message) {
        if (follower()) job.worker_notes.push_back(message);
        report.observer().on_message(message);
    }
    void report_workers(Outcome outcome);  // at the end of a session: followers send, rank 0 gathers
    TrainResult worker_lost(const std::string& what);
    int lost_worker() const;  // rank 0, after a restart: the rank the job lost (-1: not known)
    void setup_data_parallel();
    void start_job(ResumePlan& plan);
    std::shared_ptr<const nlohmann::json> job_meta(std::shared_ptr<const nlohmann::json> meta);
    void publish_rank_state();
    std::string workers_text() const;
    bool job_restarted() const;  // a torchrun restart after a lost worker (TORCHELASTIC_RESTART_COUNT > 0)
    std::string voters_text() const;
    void record_job(SessionRow& s) const;

    // The device (device_check.cpp).
    void choose_device();
    void check_resume_device(const CheckpointRow& from, const nlohmann::json& checkpoint_meta);
    void announce_device_change();
    // Telemetry while the session trains (session_telemetry.cpp).
    void start_telemetry();
    void flush_telemetry();
    void stop_telemetry();
};

}  // namespace savepoint
