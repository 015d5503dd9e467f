// Trainer's private state, shared by trainer.cpp (the training loop and the
// commands) and run_setup.cpp (opening or creating the run and loading the
// checkpoint a resume starts from). Internal to the engine.
#pragma once

#include "training/trainer.h"

#include "checkpoint/capture_choice.h"
#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/recovery.h"
#include "checkpoint/state_snapshot.h"
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
#include "training/training_step.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace savepoint {

namespace trainer_detail {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// What a session that ended with an Outcome records and reports last (outcomes.cpp).
SessionEnd session_end(Outcome o);
RunStatus run_status(Outcome o);
Phase ended_phase(Outcome o);

}  // namespace trainer_detail

struct Trainer::Impl {
    TrainRequest req;
    TrainerObserver* obs;
    TrainerObserver null_observer;
    Commands cmd;
    std::mutex wake_mutex;
    std::condition_variable wake;

    // Set up in run().
    std::unique_ptr<Registry> reg;
    std::unique_ptr<FileLock> lock;
    RunRow run;
    TrainConfig cfg;
    DatasetPair data;
    torch::Device device{torch::kCPU};
    std::string device_name;
    std::shared_ptr<ClassifierImpl> model;
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    std::unique_ptr<StepRunner> stepper;
    std::shared_ptr<StateSnapshot> snapshot = std::make_shared<StateSnapshot>();
    std::unique_ptr<CheckpointWriter> writer;
    std::vector<int> training_cpus;  // empty: leave the training thread where the scheduler puts it
    SessionRow session;
    std::int64_t branch_id = 0;
    std::optional<std::int64_t> resumed_from;

    // Training position and live numbers (training thread only): gs and the
    // last completed step it names (position_of), kept together by train_step.
    std::int64_t gs = 0, epoch = 1, step = 0;
    // The validation pass under way: test samples done and in all (0: none).
    std::int64_t validated = 0, validation_total = 0;
    double last_loss = NAN, last_acc = NAN, last_val_loss = NAN, last_val_acc = NAN;
    std::vector<MetricRow> pending;
    trainer_detail::Clock::time_point last_flush = trainer_detail::Clock::now(),
                                      last_progress = trainer_detail::Clock::now(),
                                      started = trainer_detail::Clock::now();
    std::int64_t steps_at_start = 0;
    double compute_seconds = 0, stall_seconds = 0, validation_seconds = 0, max_stall_ms = 0;
    double last_stall_ms = 0;  // the last capture's, before any wait for its background copy
    std::int64_t checkpoints_requested = 0;
    std::int64_t copy_free_captures = 0;
    std::int64_t background_copy_captures = 0;
    std::int64_t update_copy_captures = 0;
    // What the last step's update spent copying into the snapshot (0: it copied nothing),
    // charged to the capture that follows it.
    double update_copy_seconds = 0;
    // Auto with a CPU left to the I/O thread: copying or background copy, save by save.
    bool choose_capture = false;
    CaptureChoice capture_choice;
    // What the async policy did: saves skipped ('skip', or a 'defer' overtaken by
    // the next due point), saves taken late ('defer') and by how many steps in all.
    std::int64_t saves_skipped = 0, saves_deferred = 0, steps_deferred = 0;
    std::int64_t saves_waited = 0;
    double save_wait_seconds = 0;
    // Policy 'defer': the global step a regular save fell due at while the
    // previous one was still being written (0: none pending).
    std::int64_t deferred_gs = 0;
    std::vector<double> step_started_at;  // with req.record_step_times
    Phase phase = Phase::Loading;

    // Written by the I/O thread.
    std::mutex saved_mutex;
    std::optional<std::int64_t> last_committed;
    std::int64_t last_committed_branch = 0, last_committed_gs = -1;  // where last_committed is
    std::atomic<double> last_checkpoint_at{0};
    std::atomic<double> checkpoint_io_seconds{0};
    std::atomic<std::int64_t> last_checkpoint_bytes{0};  // for the low-disk warning

    Impl(TrainRequest r, TrainerObserver* o) : req(std::move(r)), obs(o ? o : &null_observer) {}

    // Where training is, worded as everywhere else: the last completed step.
    std::string here_text(bool with_global = false) const {
        return position_text(gs, run.steps_per_epoch, with_global);
    }

    void event(EventKind kind, const std::string& message, std::optional<std::int64_t> ckpt = std::nullopt) {
        EventRow e;
        e.run_id = run.id;
        e.session_id = session.id;
        e.branch_id = branch_id;
        e.kind = kind;
        const Position here = position_of(gs, run.steps_per_epoch);
        e.global_step = gs;
        e.epoch = here.epoch;
        e.step = here.step;
        e.checkpoint_id = ckpt;
        e.message = message;
        e.created_at = now_seconds();
        if (writer) writer->post([e](Registry& r) { r.add_event(e); });
        obs->on_event(e);
    }

    void flush_metrics() {
        flush_telemetry();
        if (pending.empty()) return;
        obs->on_metrics(pending);
        if (!writer) {  // a job's other workers: rank 0 records the job's numbers
            pending.clear();
            last_flush = trainer_detail::Clock::now();
            return;
        }
        auto rows = std::make_shared<std::vector<MetricRow>>(std::move(pending));
        pending.clear();
        const std::int64_t run_id = run.id, step_now = gs;
        writer->post([rows, run_id, step_now](Registry& r) {
            // Four times a second: not synced (a power loss may cost the last
            // batches of the plot, never a checkpoint).
            Registry::RelaxedCommits relaxed(r);
            r.append_metrics(run_id, *rows);
            r.set_run_progress(run_id, step_now);
        });
        last_flush = trainer_detail::Clock::now();
    }

    void report_progress(bool force = false) {
        if (!force && trainer_detail::seconds_since(last_progress) < 0.1) return;
        last_progress = trainer_detail::Clock::now();
        Progress p;
        p.run = run.name;
        p.run_id = run.id;
        p.branch_id = branch_id;
        p.session_id = session.id;
        const Position here = position_of(gs, run.steps_per_epoch);
        p.epoch = here.epoch;
        p.step = here.step;
        p.global_step = gs;
        p.steps_per_epoch = run.steps_per_epoch;
        p.epochs = cfg.epochs;
        p.total_steps = run.total_steps;
        p.loss = last_loss;
        p.accuracy = last_acc;
        const double elapsed = trainer_detail::seconds_since(started);
        const double done = static_cast<double>(gs - steps_at_start);
        p.elapsed_seconds = elapsed;
        p.steps_per_second = elapsed > 0 ? done / elapsed : 0;
        p.eta_seconds = p.steps_per_second > 0 ? (run.total_steps - gs) / p.steps_per_second : 0;
        p.phase = phase;
        p.validated = validated;
        p.validation_total = validation_total;
        p.last_checkpoint_at = last_checkpoint_at.load();
        p.device = device_name;
        obs->on_progress(p);
    }

    std::optional<std::int64_t> head() {
        std::lock_guard<std::mutex> l(saved_mutex);
        return last_committed;
    }

    std::shared_ptr<const nlohmann::json> session_meta;  // see save_request

    // What the I/O thread needs to write and register a checkpoint of the current position (save_request.cpp).
    SaveRequest save_request(CheckpointKind kind);

    // Hands a snapshot to the I/O thread. Blocks only to take the state (a
    // background capture leaves its copy to the I/O thread; the next update
    // waits for what is left of it, in StepRunner::step) and, with the 'wait'
    // policy, while the previous save is still writing: until its bytes are
    // written and hashed, not until it commits (CheckpointWriter).
    bool checkpoint(CheckpointKind kind, bool wait_until_committed) {
        publish_rank_state();      // for rank 0's checkpoint of this same step
        if (!writer) return true;  // a job's other workers: rank 0 writes the job's checkpoint
        const auto t0 = trainer_detail::Clock::now();
        double waited = 0;  // for the previous save: the disk's doing, not this capture's
        if (writer->snapshot_busy()) {
            if (cfg.async_policy == "skip" && kind == CheckpointKind::Regular) {
                ++saves_skipped;
                event(EventKind::SaveSkipped, "checkpoint at " + here_text() +
                                                  " skipped: the previous one was still being written (policy: skip)");
                return false;
            }
            writer->wait_for_snapshot();
            ++saves_waited;
            waited = trainer_detail::seconds_since(t0);
            save_wait_seconds += waited;
        }
        if (deferred_gs) note_deferred_save_taken(kind);
        if (auto err = writer->take_save_error()) {
            // The recovery retries with a snapshot of this very step: saving again would duplicate it.
            return recover_from_storage_error(*err, kind);
        }
        phase = Phase::Checkpointing;
        if (choose_capture) snapshot->set_background_copy(capture_choice.background_next());
        snapshot->capture(*model, *optimizer);
        const auto captured = trainer_detail::Clock::now();
        double stall_ms = std::chrono::duration<double, std::milli>(captured - t0).count();
        ++checkpoints_requested;
        if (snapshot->last_capture_was_copy_free()) ++copy_free_captures;
        if (snapshot->last_capture_was_background()) ++background_copy_captures;
        if (snapshot->last_capture_was_update_copy()) {
            // Its large copies were made inside the step before: that share is this capture's.
            ++update_copy_captures;
            stall_ms += update_copy_seconds * 1000;
        }

        SaveRequest sr = save_request(kind);
        sr.stall_ms = stall_ms;
        writer->save_async(snapshot, std::move(sr));
        if (req.after_handover) req.after_handover(gs);
        const double handover_ms =
            std::chrono::duration<double, std::milli>(trainer_detail::Clock::now() - captured).count();
        snapshot->note_handover_ms(handover_ms);
        if (choose_capture)
            capture_choice.captured(snapshot->last_capture_was_background(), (stall_ms + handover_ms) / 1000 - waited);
        stall_seconds += (stall_ms + handover_ms) / 1000;
        max_stall_ms = std::max(max_stall_ms, stall_ms + handover_ms);
        last_stall_ms = stall_ms + handover_ms;
        phase = Phase::Training;
        if (wait_until_committed) {
            writer->wait_for_save();
            if (auto err = writer->take_save_error()) return recover_from_storage_error(*err, kind);
        }
        return true;
    }

    // Whether a regular save falls due after global step `at` (which ends an
    // epoch or not), before the async policy has its say.
    bool regular_save_due(std::int64_t at, bool end_of_epoch) const {
        bool due = cfg.save_every_steps > 0 ? at % cfg.save_every_steps == 0 : end_of_epoch;
        if (due && req.save_blocks > 0 && ((at - 1) / req.save_blocks) % 2 == 1) due = false;
        return due;
    }

    // Before a step: if a copying capture will follow it, the update copies
    // into the snapshot itself (StateSnapshot::arm_update_copy). Only while no
    // save reads the snapshot; a save that then does not happen (skipped,
    // deferred further) costs one copy, and the capture after a later step copies as usual.
    void arm_update_copy_if_due(std::int64_t replay_until, std::int64_t total) {
        const std::int64_t next = gs + 1;
        if (!writer || !req.update_copy || next <= replay_until || next >= total) return;
        if (!regular_save_due(next, step + 1 == run.steps_per_epoch) && !deferred_gs) return;
        if (writer->snapshot_busy() || writer->has_save_error()) return;
        const bool background = choose_capture ? capture_choice.background_next() : snapshot->background_copy();
        if (!background) snapshot->arm_update_copy(*model, *optimizer);
    }

    // A regular save falls due at this step boundary (`due`), or one deferred
    // earlier may be taken now. With the 'defer' policy a save due while the
    // previous one is still being written is taken at the first boundary after
    // that one is written: training never waits for the disk, and the checkpoint
    // lands a step or two late instead of being dropped ('skip') — it is exact
    // all the same, since any step boundary is a resume point.
    bool regular_save(bool due) {
        if (!due && !deferred_gs) return false;  // most steps: no lock, no string compare
        if (cfg.async_policy != "defer") return due && checkpoint(CheckpointKind::Regular, false);
        if (due && deferred_gs) {
            // Overtaken by the next due point, which stands for both: a capture at
            // a due point is that point's, on time, and a deferred one is never.
            ++saves_skipped;
            event(EventKind::SaveSkipped,
                  "checkpoint due at " + deferred_pos_text() +
                      " skipped: the previous one was still being written when the next fell due at " + here_text() +
                      " (policy: defer)");
            deferred_gs = 0;
        }
        if (writer->snapshot_busy() && !writer->has_save_error()) {
            if (due) deferred_gs = gs;
            return false;
        }
        return (due || deferred_gs) && checkpoint(CheckpointKind::Regular, false);
    }

    std::string deferred_pos_text() const {
        const Position p = position_of(deferred_gs, run.steps_per_epoch);
        return position_text(p);
    }

    // Any capture after a deferral stands for the deferred save (a manual,
    // emergency or final one too): it says how late it came.
    void note_deferred_save_taken(CheckpointKind kind) {
        const std::int64_t late = gs - deferred_gs;
        if (late > 0) {
            ++saves_deferred;
            steps_deferred += late;
            event(EventKind::SaveDeferred,
                  "checkpoint due at " + deferred_pos_text() + " taken " + std::to_string(late) +
                      (late == 1 ? " step" : " steps") + " later, at " + here_text() +
                      (kind == CheckpointKind::Regular ? "" : std::string(" (") + to_string(kind) + ")") +
                      ": the previous one was still being written (policy: defer)");
        }
        deferred_gs = 0;
    }

    // Training pauses until the save can be retried (request_continue() or the
    // retry timer). Returns false if asked to stop instead or out of retries.
    // The retry is a save of `kind` at this step (a final or emergency save stays one).
    bool recover_from_storage_error(const std::string& message, CheckpointKind kind) {
        if (writer->registry_damaged()) {
            // Not a full disk: no retry can help, and none is made.
            obs->on_message("checkpoint could not be committed: " + message);
            storage_failed = true;
            storage_failure = message;
            return false;
        }
        if ((cmd.stop || cmd.preempt) && !cmd.crash) {
            // Leaving anyway (a stop, or a preemption's grace period): no waiting for the
            // disk, but one attempt now, since the failure may have been an earlier save's.
            event(EventKind::Error,
                  "checkpoint could not be written: " + message + "; trying once more before stopping");
            obs->on_storage_error(message);
            phase = Phase::Checkpointing;
            snapshot->capture(*model, *optimizer);
            const bool ok = checkpoint_retry(kind);
            phase = Phase::Training;
            return ok;
        }
        phase = Phase::WaitingForDisk;
        // As a pause does: the plot then shows every step up to where training waits,
        // not only those of the last quarter-second flush.
        flush_metrics();
        event(EventKind::Error, "checkpoint could not be written: " + message +
                                    "; training is paused, the previous checkpoint and the registry are intact");
        obs->on_storage_error(message);
        report_progress(true);
        for (std::int64_t attempt = 0; attempt < req.storage_retries; ++attempt) {
            std::unique_lock<std::mutex> l(wake_mutex);
            wake.wait_for(l, std::chrono::duration<double>(req.storage_retry_seconds), [this] {
                return cmd.resume_now.load() || cmd.stop.load() || cmd.crash.load() || cmd.preempt.load();
            });
            if (cmd.stop || cmd.crash || cmd.preempt) return false;
            cmd.resume_now = false;
            l.unlock();
            obs->on_message("retrying the checkpoint at " + here_text());
            phase = Phase::Checkpointing;
            snapshot->capture(*model, *optimizer);
            // Retry synchronously on the I/O thread through the normal path.
            if (checkpoint_retry(kind)) {
                phase = Phase::Training;
                return true;
            }
        }
        storage_failed = true;
        return false;
    }
    bool storage_failed = false;
    std::string storage_failure;  // set when the registry is damaged: said instead of "gave up after retries"

    bool checkpoint_retry(CheckpointKind kind);
    void setup();
    void open_run(std::optional<RunRow>& existing);
    void load_resume_point(ResumePlan& plan);
    void load_resume_dataset();
    void check_simulated_failure_steps(std::int64_t after, std::int64_t last) const;

    // The training loop (trainer.cpp): commands between steps, then the step,
    // the epoch's validation and the regular save. Each way out is a piece of
    // its own that ends the session through finish().
    std::int64_t replay_until = 0;  // steps up to this global step replay what a session before computed
    bool saved_at_gs = false;       // a checkpoint holds (or is writing) the current step
    TrainResult train_loop(const ResumePlan& plan);  // train_steps, ended by a lost worker too
    TrainResult train_steps(const ResumePlan& plan);
    void start_loop(const ResumePlan& plan);
    void train_step(const std::vector<std::int64_t>& perm);  // the hot path: allocates nothing but metric rows
    bool validate_epoch();  // false: a crash was asked for during it (nothing recorded)
    bool crash_requested() const { return cmd.crash || (cmd.crash_at > 0 && gs >= cmd.crash_at); }
    void save_if_due(bool end_of_epoch);
    void pause_until_woken();
    TrainResult simulated_crash(const std::string& message);
    TrainResult stop_by_request();
    TrainResult give_up_on_storage();
    TrainResult preempt();
    TrainResult finish_training();
    TrainResult finish(Outcome outcome, const std::string& message);
    // The step after gs had a non-finite loss or gradient (`nonfinite` says
    // which, StepResult::nonfinite); its update was not made (trainer.cpp).
    std::string nonfinite;
    double nonfinite_loss = 0;
    // Tests: SAVEPOINT_INJECT_NONFINITE=loss@N or grad@N poisons global step N (StepRunner::poison_next_step).
    std::int64_t poison_at = 0;
    StepRunner::Poison poison_kind = StepRunner::Poison::None;
    void read_poison_request();
    TrainResult diverge();
    // A data-parallel job (data_parallel.cpp); all no-ops without req.group.
    std::unique_ptr<GradientAllreduce> allreduce;
    bool job_preempt = false;           // a rank's notice, as the last step's all-reduce told every rank
    std::int64_t preempt_voters = 0;    // which ranks had one (StepResult::stop_voters)
    std::int64_t rng_gathered_gs = -1;  // rank 0: the other ranks' RNG states at that step (job_meta)
    nlohmann::json rng_gathered;
    bool preempt_due() const { return req.group ? job_preempt : cmd.preempt.load(); }
    std::int64_t world_size() const;
    // A job's worker other than rank 0: no registry, no lock, no checkpoint writer,
    // nothing under the home; what only it knows goes to rank 0 (worker_report.h).
    bool follower() const { return req.group && req.group->rank() != 0; }
    std::vector<std::string> worker_notes;
    void note(const std::string& message) {
        if (follower()) worker_notes.push_back(message);
        obs->on_message(message);
    }
    void report_workers(Outcome outcome);  // at the end of a session: followers send, rank 0 gathers
    // A collective failed (WorkerLost): the session ends as a crash, naming the worker when it can.
    int lost_rank = -1;
    TrainResult worker_lost(const std::string& what);
    std::string lost_worker_text() const;  // rank 0, after a restart: who the job lost ("worker 1", "a worker")
    void setup_data_parallel();
    void start_job(ResumePlan& plan);
    std::shared_ptr<const nlohmann::json> job_meta(std::shared_ptr<const nlohmann::json> meta);
    void publish_rank_state();
    std::string workers_text() const;
    bool job_restarted() const;  // a torchrun restart after a lost worker (TORCHELASTIC_RESTART_COUNT > 0)
    std::string voters_text() const;
    void record_job(SessionRow& s) const;
    // Resume: the rate the loaded checkpoint was trained at (checked against
    // its config), then the one this session trains at (branch_lr.h).
    double run_lr = 0;
    void choose_learning_rate(ResumePlan& plan);
    // The device this session trains on, recorded in each of its checkpoints, and what differs
    // from the one the resume point was trained on (device_check.cpp).
    DeviceRecord device_record;
    std::string device_json;  // device_record as the registry keeps it (CheckpointRow::device_json)
    std::vector<DeviceDifference> device_changes;
    std::string device_changed_from;  // the resume point's device, summarised
    void choose_device();
    void check_resume_device(const CheckpointRow& from, const nlohmann::json& checkpoint_meta);
    void announce_device_change();
    // Telemetry while the session trains (session_telemetry.cpp).
    struct Telemetry;
    std::shared_ptr<Telemetry> telemetry;
    void start_telemetry();
    void flush_telemetry();
    void stop_telemetry();
};

}  // namespace savepoint
