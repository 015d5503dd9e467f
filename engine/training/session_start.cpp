// Trainer: how a session starts once the run is open. A resume's learning rate
// and its finished-run case, the session's registry rows (a rollback's new
// branch), and the first event that says what this session does.
#include "training/trainer_impl.h"

#include <cstdlib>

namespace savepoint {

using namespace trainer_detail;

void Trainer::Impl::read_poison_request() {
    const char* v = std::getenv("SAVEPOINT_INJECT_NONFINITE");
    if (!v || !*v) return;
    const std::string s(v);
    const auto at = s.find('@');
    const std::string kind = s.substr(0, at);
    if (at == std::string::npos || (kind != "loss" && kind != "grad"))
        throw InputError("SAVEPOINT_INJECT_NONFINITE", "loss@N or grad@N (a global step)", s);
    nonfinite.poison_kind = kind == "loss" ? StepRunner::Poison::Loss : StepRunner::Poison::Gradient;
    nonfinite.poison_at = std::atoll(s.c_str() + at + 1);
}

TrainResult Trainer::Impl::nothing_to_do(const ResumePlan& plan) {
    // A crash or preemption asked for would silently not happen.
    for (const auto& [field, at] : {std::pair<const char*, std::int64_t>{"interrupt-at-step", req.interrupt_at_step},
                                    {"preempt-at-step", req.preempt_at_step}})
        if (at > 0)
            throw InputError(field, "a step this resume computes", std::to_string(at),
                             InputError::Says{"run '" + run.name + "' already finished at global step " +
                                              std::to_string(plan.from->global_step) +
                                              ", so this resume computes no step; found " + std::to_string(at)});
    TrainResult r;
    r.outcome = Outcome::NothingToDo;
    r.reason = NothingToDoReason{run.name, plan.from->global_step};
    r.run_id = run.id;
    r.global_step = plan.from->global_step;
    r.last_checkpoint_id = plan.from->id;
    r.params_sha256 = plan.from->params_sha256;
    r.message = "run '" + run.name + "' already finished at global step " + std::to_string(r.global_step) +
                "; nothing to resume (a resume from an earlier checkpoint or step rolls back)";
    return r;
}

// Loads the resume point checked against the rate it was trained at, then
// sets the one this session trains at: --lr (a new branch), else the rate of
// the branch whose steps it continues or replays.
void Trainer::Impl::choose_learning_rate(ResumePlan& plan) {
    cfg.lr = plan.from ? branch_lr(*reg, run.id, plan.from->branch_id, branch.run_lr) : branch.run_lr;
    load_resume_point(plan);
    const double lr = req.lr_override.value_or(branch_lr(*reg, run.id, plan.lr_branch_id, branch.run_lr));
    if (req.lr_override) plan.rollback = true;  // from the head too: the old rate's branch is kept
    cfg.lr = lr;
    set_learning_rate(*net.optimizer, lr);
}

void Trainer::Impl::begin_session(const ResumePlan& plan) {
    // A resume that starts older than the head is a rollback: a new branch; the old one stays.
    if (plan.rollback) {
        branch.id = reg->create_branch(run.id, run.active_branch_id,
                                       plan.from ? std::optional<std::int64_t>(plan.from->id) : std::nullopt,
                                       plan.target_global_step, recorded_lr(cfg.lr, branch.run_lr));
    }
    session.run_id = run.id;
    session.branch_id = branch.id;
    session.kind = !req.resume ? SessionKind::Train : plan.rollback ? SessionKind::Rollback : SessionKind::Resume;
    session.from_checkpoint_id = plan.from ? std::optional<std::int64_t>(plan.from->id) : std::nullopt;
    session.start_global_step = plan.start_global_step;
    session.target_global_step = plan.target_global_step;
    record_job(session);
    if (reg) {
        session.id = reg->begin_session(session);
        reg->set_run_status(run.id, RunStatus::Running);
        reg->set_run_device(run.id, dev.name);
    }
    gs = plan.target_global_step;
}

void Trainer::Impl::announce_start(const ResumePlan& plan) {
    const std::int64_t spe = run.steps_per_epoch;
    if (!req.resume) {
        report.event(EventKind::Start, "started run '" + run.name + "': " + cfg.model + " on " + data.description +
                                           ", " + std::to_string(cfg.epochs) + " epochs x " + std::to_string(spe) +
                                           " steps, device " + dev.name + workers_text());
        return;
    }
    const Position cont = position_of(plan.target_global_step + 1, spe);
    std::string from = plan.from ? "checkpoint #" + std::to_string(plan.from->id) + " at " +
                                       position_text(plan.from->global_step, spe, true)
                                 : std::string("the beginning (no usable checkpoint)");
    const bool restart = !plan.rollback && job_restarted();
    const int lost = restart ? lost_worker() : -1;
    std::string msg = (plan.rollback ? "rolling back run '"
                       : restart     ? (lost >= 0 ? "worker " + std::to_string(lost) : std::string("a worker")) +
                                       " was lost and torchrun restarted the job: resuming run '"
                                 : "resuming run '") +
                      run.name + "' from " + from;
    if (plan.target_global_step > plan.start_global_step) {
        msg += "; replaying " + std::to_string(plan.target_global_step - plan.start_global_step) + " steps to " +
               position_text(plan.target_global_step, spe);
    }
    msg += plan.target_global_step >= run.total_steps
               ? std::string("; that is the run's last step, so nothing is left to train")
               : "; continuing at " + position_text(cont);
    if (plan.rollback)
        msg += " on a new branch (#" + std::to_string(reg->branches(run.id).back().number) +
               " of this run; the old branch is kept)";
    if (req.lr_override) msg += " with learning rate " + lr_text(cfg.lr);
    msg += workers_text();
    report.event(plan.rollback ? EventKind::Rollback
                 : restart     ? EventKind::Restart
                               : EventKind::Resume,
                 msg, session.from_checkpoint_id,
                 restart ? nlohmann::json{{"lost_worker", lost}}.dump() : std::string("{}"));
    report.observer().on_message(msg);
    announce_device_change();
}

}  // namespace savepoint
