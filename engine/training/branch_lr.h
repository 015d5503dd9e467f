// resume --lr: the learning rate a branch trains with when it is not the
// run's (after a divergence), which checkpoints it applies to, and the checks
// on the flag. A branch's rate is recorded in the registry (BranchRow::lr) and
// in the config its checkpoints store.
#pragma once

#include "registry/registry.h"
#include "training/resume_plan.h"

#include <torch/torch.h>

#include <optional>
#include <string>
#include <vector>

namespace savepoint {

struct TrainRequest;

// Before anything is opened: --lr only on a resume that names a rollback
// (--checkpoint, or --epoch and --step), and a rate TrainConfig accepts.
void check_lr_override(const TrainRequest& req);
// After planning: --lr starts at a checkpoint, with no replay before it (the
// replayed steps were trained at the old rate, so a checkpoint saved during
// them would belong to neither); InputError naming the checkpoint to use instead.
void check_lr_rollback(const ResumePlan& plan, const RunRow& run);
// The rate branch `branch_id` records (resume --lr); nullopt: it trains at the run's.
std::optional<double> recorded_branch_lr(const std::vector<BranchRow>& branches, std::int64_t branch_id);
// The rate branch `branch_id` trains with: its recorded one, else the run's.
double branch_lr(Registry& reg, std::int64_t run_id, std::int64_t branch_id, double run_lr);
// What a new branch records: the rate when it differs from the run's.
inline std::optional<double> recorded_lr(double lr, double run_lr) {
    return lr == run_lr ? std::nullopt : std::optional<double>(lr);
}
void set_learning_rate(torch::optim::Optimizer& optimizer, double lr);
std::string lr_text(double lr);  // "0.0001": as the flag would be typed

}  // namespace savepoint
