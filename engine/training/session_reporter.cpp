#include "training/session_reporter.h"

#include "data/data_order.h"
#include "training/session_clock.h"

namespace savepoint {

using trainer_detail::seconds_since;

SessionReporter::SessionReporter(TrainerObserver* observer, Sources sources)
    : obs_(observer ? observer : &null_observer_), src_(sources) {}

void SessionReporter::attach(CheckpointWriter* writer, std::int64_t epochs, std::string device_name,
                             std::function<void()> on_flush) {
    writer_ = writer;
    epochs_ = epochs;
    device_name_ = std::move(device_name);
    on_flush_ = std::move(on_flush);
}

void SessionReporter::start(std::int64_t global_step) {
    steps_at_start_ = global_step;
    started_ = Clock::now();
}

double SessionReporter::seconds_since_start() const { return seconds_since(started_); }

void SessionReporter::event(EventKind kind, const std::string& message, std::optional<std::int64_t> checkpoint,
                            std::string fields) {
    EventRow e;
    e.run_id = src_.run->id;
    e.session_id = src_.session->id;
    e.branch_id = *src_.branch_id;
    e.kind = kind;
    const std::int64_t gs = *src_.global_step;
    const Position here = position_of(gs, src_.run->steps_per_epoch);
    e.global_step = gs;
    e.epoch = here.epoch;
    e.step = here.step;
    e.checkpoint_id = checkpoint;
    e.message = message;
    e.fields = std::move(fields);
    e.created_at = now_seconds();
    if (writer_) writer_->post([e](Registry& r) { r.add_event(e); });
    obs_->on_event(e);
}

bool SessionReporter::flush_due() const { return pending_.size() >= 4096 || seconds_since(last_flush_) > 0.25; }

void SessionReporter::flush_metrics() {
    if (on_flush_) on_flush_();
    if (pending_.empty()) return;
    obs_->on_metrics(pending_);
    if (!writer_) {  // a job's other workers: rank 0 records the job's numbers
        pending_.clear();
        last_flush_ = Clock::now();
        return;
    }
    auto rows = std::make_shared<std::vector<MetricRow>>(std::move(pending_));
    pending_.clear();
    const std::int64_t run_id = src_.run->id, step_now = *src_.global_step;
    writer_->post([rows, run_id, step_now](Registry& r) {
        // Four times a second: not synced (a power loss may cost the last
        // batches of the plot, never a checkpoint).
        Registry::RelaxedCommits relaxed(r);
        r.append_metrics(run_id, *rows);
        r.set_run_progress(run_id, step_now);
    });
    last_flush_ = Clock::now();
}

void SessionReporter::report_progress(bool force) {
    if (!force && seconds_since(last_progress_) < 0.1) return;
    last_progress_ = Clock::now();
    const RunRow& run = *src_.run;
    const std::int64_t gs = *src_.global_step;
    Progress p;
    p.run = run.name;
    p.run_id = run.id;
    p.branch_id = *src_.branch_id;
    p.session_id = src_.session->id;
    const Position here = position_of(gs, run.steps_per_epoch);
    p.epoch = here.epoch;
    p.step = here.step;
    p.global_step = gs;
    p.steps_per_epoch = run.steps_per_epoch;
    p.epochs = epochs_;
    p.total_steps = run.total_steps;
    p.loss = loss;
    p.accuracy = accuracy;
    const double elapsed = seconds_since(started_);
    const double done = static_cast<double>(gs - steps_at_start_);
    p.elapsed_seconds = elapsed;
    p.steps_per_second = elapsed > 0 ? done / elapsed : 0;
    p.eta_seconds = p.steps_per_second > 0 ? (run.total_steps - gs) / p.steps_per_second : 0;
    p.phase = phase;
    p.validated = validated;
    p.validation_total = validation_total;
    p.last_checkpoint_at = src_.head->committed_at.load();
    p.device = device_name_;
    obs_->on_progress(p);
}

}  // namespace savepoint
