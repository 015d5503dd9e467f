#include "training/branch_lr.h"

#include "data/data_order.h"
#include "platform/errors.h"
#include "training/train_config.h"
#include "training/trainer.h"

#include <sstream>

namespace savepoint {

std::string lr_text(double lr) {
    std::ostringstream s;
    s << lr;
    return s.str();
}

void check_lr_override(const TrainRequest& req) {
    if (!req.lr_override) return;
    const double lr = *req.lr_override;
    if (!TrainConfig::rule("lr").admits(lr)) throw InputError("lr", TrainConfig::rule("lr"), lr_text(lr));
    const bool rollback = req.target.checkpoint_id || req.target.epoch || req.target.step;
    if (!req.resume || !rollback)
        throw InputError("lr", "a rollback with it (a checkpoint, or an epoch and step)", "the learning rate alone",
                         InputError::Says{"a new learning rate starts a new branch from a checkpoint"})
            .with(Remedy{Remedy::Kind::RollBackFirst, req.run_name});
}

void check_lr_rollback(const ResumePlan& plan, const RunRow& run) {
    if (plan.target_global_step == plan.start_global_step) return;
    const std::string target = position_text(plan.target_global_step, run.steps_per_epoch);
    throw InputError("lr", "a rollback to a checkpoint", target,
                     InputError::Says{"a new learning rate starts at a checkpoint, and no checkpoint is at " + target})
        .with(Remedy{Remedy::Kind::RollBackTo, run.name, plan.from ? plan.from->id : 0,
                     plan.from ? position_text(plan.from->global_step, run.steps_per_epoch) : std::string()});
}

std::optional<double> recorded_branch_lr(const std::vector<BranchRow>& branches, std::int64_t branch_id) {
    for (const auto& b : branches)
        if (b.id == branch_id) return b.lr;
    return std::nullopt;
}

double branch_lr(Registry& reg, std::int64_t run_id, std::int64_t branch_id, double run_lr) {
    return recorded_branch_lr(reg.branches(run_id), branch_id).value_or(run_lr);
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr) {
    for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

}  // namespace savepoint
