// Trainer: its part in a data-parallel job (TrainRequest::group). Rank 0 is the
// job's trainer of record (registry, checkpoints); every rank trains its shard
// of each global batch, averages gradients with the others every step, and
// stops with them at the same step boundary.
#include "distributed/gradient_allreduce.h"
#include "distributed/job_state.h"
#include "distributed/worker_report.h"
#include "training/trainer_impl.h"

namespace savepoint {

std::int64_t Trainer::Impl::world_size() const { return req.group ? req.group->world_size() : 1; }

void Trainer::Impl::setup_data_parallel() {
    if (!req.group) return;
    // Another policy decides saves by how fast rank 0's disk is: the ranks would
    // not capture at the same step boundaries.
    if (cfg.async_policy != "wait")
        throw InputError("async-policy", "'wait' when training under torchrun", "'" + cfg.async_policy + "'");
    job.allreduce = std::make_unique<GradientAllreduce>(req.group, net.model->parameters());
    net.stepper->data_parallel(job.allreduce.get(), req.group.get(), req.group->rank(), req.group->world_size());
}

void Trainer::Impl::start_job(ResumePlan& plan) {
    if (plan.from) {
        // Allowed: the data position is kept, but the batches and dropout streams are
        // not the ones the run had, so the bits differ (the sessions record both sizes).
        const std::vector<SessionRow> before = reg->sessions(run.id);
        if (!before.empty() && before.back().world_size != world_size())
            report.observer().on_message("warning: run '" + run.name + "' was trained by " +
                                         std::to_string(before.back().world_size) + " worker(s) and resumes with " +
                                         std::to_string(world_size()) +
                                         ": the data position is kept, but the result will not be bit-identical to an "
                                         "uninterrupted run");
    }
    if (!req.group) return;
    ProcessGroup& g = *req.group;
    if (g.rank() == 0) {
        JobStart s{plan.start_global_step, plan.target_global_step, cfg.lr, {}};
        if (plan.from) s.checkpoint_path = reg->absolute(plan.from->path);
        send_job_start(g, s);
    } else {
        std::string note;
        const JobStart s = receive_job_start(g, *net.model, *net.optimizer, cfg.seed, &note);
        if (!note.empty()) this->note(note);
        plan.start_global_step = s.start_global_step;
        plan.target_global_step = s.target_global_step;
        cfg.lr = s.lr;
        set_learning_rate(*net.optimizer, s.lr);
    }
    // Rank 0's parameters and buffers everywhere, whatever each rank loaded or initialised.
    std::vector<torch::Tensor> state = net.model->parameters();
    for (const auto& b : net.model->buffers()) state.push_back(b);
    broadcast_from_rank0(g, state);
}

std::shared_ptr<const nlohmann::json> Trainer::Impl::job_meta(std::shared_ptr<const nlohmann::json> meta) {
    if (!req.group || req.group->rank() != 0) return meta;
    auto m = std::make_shared<nlohmann::json>(*meta);
    (*m)["world_size"] = world_size();
    // Once per step: a retried save (checkpoint_retry) asks again, and the store's keys are gone by then.
    if (job.rng_gathered_gs != gs) {
        job.rng_gathered = gather_rng_states(*req.group, gs, [this] { return cmd.preempt.load(); });
        job.rng_gathered_gs = gs;
    }
    (*m)[kRankRngKey] = job.rng_gathered;
    return m;
}

void Trainer::Impl::publish_rank_state() {
    if (req.group && req.group->rank() != 0) publish_rng_state(*req.group, gs);
}

void Trainer::Impl::report_workers(Outcome outcome) {
    if (!req.group) return;
    if (follower()) {
        send_worker_report(*req.group, {job.worker_notes, gs - loop.steps_at_start, stats.train_seconds,
                                        job.allreduce ? job.allreduce->seconds() : 0,
                                        to_string(trainer_detail::session_end(outcome))});
        return;
    }
    // The others end at this same step boundary (a stop or notice is voted on) and report at
    // once; after a crash of this rank alone they do not, and nobody should wait long for them.
    const auto wait = outcome == Outcome::Crashed ? std::chrono::milliseconds(1000) : std::chrono::milliseconds(10000);
    GatheredReports g = gather_worker_reports(*req.group, wait);
    session.workers = g.workers_json;
    if (job.lost_rank > 0) {  // for the restart's message (lost_worker)
        nlohmann::json w = nlohmann::json::parse(session.workers, nullptr, false);
        for (auto& x : w)
            if (x.is_object() && x.value("rank", -1) == job.lost_rank) x["lost"] = true;
        if (w.is_array()) session.workers = w.dump();
    }
    for (const auto& line : g.lines) report.observer().on_message(line);
}

TrainResult Trainer::Impl::worker_lost(const std::string& what) {
    // Two workers: the lost one is the other. More: the transport does not say which.
    job.lost_rank = world_size() == 2 ? 1 - req.group->rank() : -1;
    CrashedReason why{CrashedReason::Cause::WorkerLost,
                      step_place(gs, run.steps_per_epoch),
                      job.lost_rank,
                      follower(),
                      std::nullopt,
                      what};
    std::string msg = (job.lost_rank >= 0 ? "worker " + std::to_string(job.lost_rank) : std::string("a worker")) +
                      " was lost at " + here_text(true) + " (" + what + "); ";
    if (follower()) {
        msg += "rank 0 holds the job's checkpoints";
    } else {
        const std::optional<std::int64_t> h = head.id();
        why.restart_checkpoint = h;
        msg += "torchrun restarts the job from " +
               (h ? "checkpoint #" + std::to_string(*h) : std::string("the start")) + " if it has a restart left";
    }
    return finish(why, msg);
}

int Trainer::Impl::lost_worker() const {
    const std::vector<SessionRow> s = reg->sessions(run.id);
    if (s.size() >= 2) {  // the session before this one, which has begun
        const SessionRow& prev = s[s.size() - 2];
        // Rank 0 itself (or its machine): nothing closed its session, recovery did.
        if (prev.ended_by == SessionEnd::Killed) return 0;
        const nlohmann::json w = nlohmann::json::parse(prev.workers, nullptr, false);
        for (const auto& x : w)
            if (x.is_object() && x.value("lost", false)) return x.value("rank", 0);
    }
    return -1;
}

void Trainer::Impl::record_job(SessionRow& s) const {
    if (!req.group) return;
    s.world_size = req.group->world_size();
    s.restart_count = req.group->env().restart_count;
    s.workers = req.group->workers();
}

std::string Trainer::Impl::voters_text() const {
    if (!req.group || job.preempt_voters == 0) return {};
    std::string who;
    for (int r = 0; r <= 24; ++r)
        if (job.preempt_voters & (std::int64_t{1} << r))
            who += (who.empty() ? "" : ", ") + std::to_string(r) + (r == 24 ? "+" : "");
    return "; sent to worker " + who + " of " + std::to_string(world_size());
}

bool Trainer::Impl::job_restarted() const { return req.group && req.group->env().restart_count > 0; }

std::string Trainer::Impl::workers_text() const {
    if (!req.group) return {};
    const WorldEnv& e = req.group->env();
    return ", " + std::to_string(e.world_size) + " data-parallel workers (torchrun restart " +
           std::to_string(e.restart_count) + ")";
}

}  // namespace savepoint
