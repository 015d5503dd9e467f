// What a session tells its observer and the registry as it trains: progress
// reports (at most ten a second), metric rows (batched: to the observer and,
// unsynced, to the registry about four times a second) and the run's events.
// Training thread only; registry writes go through the checkpoint writer's I/O thread.
#pragma once

#include "checkpoint/checkpoint_writer.h"
#include "registry/registry.h"
#include "training/committed_head.h"
#include "training/session_clock.h"
#include "training/trainer.h"

#include <cmath>
#include <functional>

namespace savepoint {

class SessionReporter {
public:
    using Clock = trainer_detail::Clock;

    // What reports name, owned by the trainer: read at each report, never written here.
    struct Sources {
        const RunRow* run;
        const SessionRow* session;
        const std::int64_t* branch_id;
        const std::int64_t* global_step;
        const CommittedHead* head;
    };
    SessionReporter(TrainerObserver* observer, Sources sources);

    TrainerObserver& observer() { return *obs_; }
    // Set once the run is open: the I/O thread (none on a job's other workers),
    // the epochs and device progress names, and what each flush also hands on (telemetry).
    void attach(CheckpointWriter* writer, std::int64_t epochs, std::string device_name, std::function<void()> on_flush);
    // The loop's clock starts (steps per second, ETA) at this global step.
    void start(std::int64_t global_step);
    double seconds_since_start() const;
    Clock::time_point started() const { return started_; }

    // `fields`: the event's data as a JSON object (EventRow::fields).
    void event(EventKind kind, const std::string& message, std::optional<std::int64_t> checkpoint = std::nullopt,
               std::string fields = "{}");
    void metric(const MetricRow& row) { pending_.push_back(row); }
    void flush_metrics();
    bool flush_due() const;  // a quarter of a second since the last flush, or many rows waiting
    void report_progress(bool force = false);

    // The session's live numbers, as progress and the next checkpoint row carry them.
    Phase phase = Phase::Loading;
    std::int64_t validated = 0, validation_total = 0;  // the validation pass under way (0: none)
    double loss = NAN, accuracy = NAN, val_loss = NAN, val_accuracy = NAN;

private:
    TrainerObserver null_observer_;
    TrainerObserver* obs_;
    Sources src_;
    CheckpointWriter* writer_ = nullptr;
    std::int64_t epochs_ = 0;
    std::string device_name_;
    std::function<void()> on_flush_;
    std::vector<MetricRow> pending_;
    Clock::time_point last_flush_ = Clock::now(), last_progress_ = Clock::now(), started_ = Clock::now();
    std::int64_t steps_at_start_ = 0;
};

}  // namespace savepoint
