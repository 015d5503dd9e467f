#include "models/fault_tolerance_stats.h"

#include <algorithm>
#include <cmath>

namespace savepoint::ui {

double young_daly_interval(double cost_seconds, double mtbf_seconds) {
    if (!(cost_seconds > 0) || !(mtbf_seconds > 0)) return 0;
    return std::sqrt(2.0 * cost_seconds * mtbf_seconds);
}

bool is_interruption(SessionEnd ended_by) {
    switch (ended_by) {
        case SessionEnd::Crash:
        case SessionEnd::Preempted:
        case SessionEnd::Killed:
        case SessionEnd::Failed:
        case SessionEnd::Interrupted:
            return true;
        case SessionEnd::None:
        case SessionEnd::Finished:
        case SessionEnd::Stopped:
        case SessionEnd::Diverged:  // the training's own doing, not the machine's
            return false;
    }
    return false;
}

FtStats compute_fault_tolerance(const FtInputs& in) {
    FtStats s;
    std::int64_t worker_steps_lost = 0;
    s.checkpoints_written = in.checkpoints_written;
    s.useful_steps = in.useful_steps;
    const auto& ss = in.sessions;
    for (std::size_t i = 0; i < ss.size(); ++i) {
        const FtSession& x = ss[i];
        // A session still running elsewhere (another process) reports its compute
        // time when it ends: until then its time so far stands in for it.
        const bool running = !(x.ended_at > 0);
        s.train_seconds +=
            running && x.train_seconds <= 0 && in.now > x.started_at ? in.now - x.started_at : x.train_seconds;
        s.checkpoint_seconds += x.checkpoint_seconds;
        s.checkpoint_stall_seconds += x.checkpoint_stall_seconds;
        s.steps_computed += x.steps_computed + x.steps_replayed;
        const double end = x.ended_at > 0 ? x.ended_at : in.now;
        if (end > x.started_at) {
            s.instance_seconds += end - x.started_at;
            s.worker_seconds += (end - x.started_at) * x.world_size;
        }
        s.max_world_size = std::max(s.max_world_size, x.world_size);
        if (x.job_restart) ++s.job_restarts;
        const std::int64_t lost_before = s.steps_lost;
        if (is_interruption(x.ended_by)) ++s.interruptions;
        if (i + 1 < ss.size()) {
            const FtSession& next = ss[i + 1];
            // Work past the state the next session loaded was thrown away: lost up to
            // where the interruption left the run, given up by choice before that
            // when the next session rolled back further.
            const std::int64_t end = std::max(x.end_global_step, next.start_global_step);
            std::int64_t cut = next.start_global_step;
            if (next.rollback)
                cut = is_interruption(x.ended_by) && x.resume_point_at_end >= 0
                          ? std::clamp(x.resume_point_at_end, next.start_global_step, end)
                          : end;
            s.steps_lost += end - cut;
            s.steps_by_choice += cut - next.start_global_step;
            // The next session computes (or replays) from its start; what it redoes of the lost range:
            const std::int64_t redo_until = std::max(next.end_global_step, next.target_global_step);
            s.steps_recomputed += std::max<std::int64_t>(0, std::min(end, redo_until) - cut);
            if (is_interruption(x.ended_by) && x.ended_at > 0 && next.started_at > x.ended_at)
                s.downtime_seconds += next.started_at - x.ended_at;
        } else if (is_interruption(x.ended_by) && in.resume_point_global_step >= 0) {
            // Interrupted and not resumed yet: what a resume from the head will redo is lost already.
            s.steps_lost += std::max<std::int64_t>(0, x.end_global_step - in.resume_point_global_step);
        }
        worker_steps_lost += (s.steps_lost - lost_before) * x.world_size;
    }
    // Sessions add their write and stall times to the registry when they end; the
    // saves' own rows have them as each one commits (the two agree once all have ended).
    auto seconds_of = [](const std::vector<double>& ms) {
        double total = 0;
        for (double x : ms)
            if (std::isfinite(x)) total += x / 1000.0;
        return total;
    };
    s.checkpoint_seconds = std::max(s.checkpoint_seconds, seconds_of(in.checkpoint_write_ms));
    s.checkpoint_stall_seconds = std::max(s.checkpoint_stall_seconds, seconds_of(in.checkpoint_stall_ms));
    s.seconds_per_step = in.seconds_per_step_override > 0 ? in.seconds_per_step_override
                         : s.steps_computed > 0           ? s.train_seconds / static_cast<double>(s.steps_computed)
                                                          : 0;
    s.wall_seconds_lost = static_cast<double>(s.steps_lost) * s.seconds_per_step;
    s.worker_seconds_lost = static_cast<double>(worker_steps_lost) * s.seconds_per_step;
    s.useful_steps_per_worker_hour =
        s.worker_seconds > 0 ? static_cast<double>(s.useful_steps) / (s.worker_seconds / 3600) : 0;
    s.checkpoint_share = s.train_seconds > 0 ? s.checkpoint_seconds / s.train_seconds : 0;
    s.stall_share = s.train_seconds > 0 ? s.checkpoint_stall_seconds / s.train_seconds : 0;
    s.goodput = s.steps_computed > 0 ? std::min(1.0, static_cast<double>(s.useful_steps) / s.steps_computed) : 1;

    double total_ms = 0;
    for (double ms : in.checkpoint_write_ms)
        if (std::isfinite(ms)) total_ms += ms;
    const auto n = std::count_if(in.checkpoint_write_ms.begin(), in.checkpoint_write_ms.end(),
                                 [](double ms) { return std::isfinite(ms); });
    s.mean_checkpoint_cost_seconds = n > 0 ? total_ms / 1000.0 / static_cast<double>(n) : 0;

    s.mtbf_observed = !in.force_assumed_mtbf && s.interruptions > 0;
    s.mtbf_seconds = s.mtbf_observed ? s.instance_seconds / s.interruptions : in.assumed_mtbf_seconds;
    s.optimal_interval_seconds = young_daly_interval(s.mean_checkpoint_cost_seconds, s.mtbf_seconds);
    s.optimal_interval_steps = s.seconds_per_step > 0 ? s.optimal_interval_seconds / s.seconds_per_step : 0;

    const double d = std::clamp(in.spot_discount, 0.0, 1.0);
    s.billable_seconds = s.instance_seconds * (1.0 - d);
    s.savings_seconds = s.instance_seconds - s.billable_seconds;
    s.savings_fraction = s.instance_seconds > 0 ? s.savings_seconds / s.instance_seconds : 0;
    return s;
}

}  // namespace savepoint::ui
