// Data parallelism's two collectives over a ProcessGroup: every step's
// gradients averaged across the ranks from one flat bucket (one allreduce, not
// one per tensor), and the model's parameters and buffers broadcast from rank 0.
// Training thread only.
#pragma once

#include "distributed/process_group.h"

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace savepoint {

class GradientAllreduce {
public:
    // `params`: the model's parameters, in the same order on every rank.
    GradientAllreduce(std::shared_ptr<ProcessGroup> group, std::vector<torch::Tensor> params);

    // What each rank adds to the same allreduce, summed across the ranks: the
    // batch's loss and correct answers (the job's numbers), and a stop vote
    // (a preemption notice on any rank stops all of them at the same step).
    struct Control {
        double loss = 0, correct = 0, stop = 0;
    };

    // After backward, before the optimizer's step: every parameter's gradient
    // becomes the mean of the ranks' gradients, the same bits on every rank
    // (a missing gradient counts as zeros). Returns the sums of `local`.
    // Planted bug skip-gradient-allreduce: the gradients stay each rank's own.
    Control reduce(const Control& local);

    int world_size() const { return group_->world_size(); }
    // Time spent in reduce() so far (packing the bucket, the allreduce, unpacking), and its calls.
    double seconds() const { return seconds_; }
    std::int64_t calls() const { return calls_; }

private:
    std::shared_ptr<ProcessGroup> group_;
    std::vector<torch::Tensor> params_;
    torch::Tensor bucket_;  // every gradient, then the control words
    std::int64_t grad_numel_ = 0;
    bool skip_;
    double seconds_ = 0;
    std::int64_t calls_ = 0;
};

// Rank 0's values of `tensors` (parameters, then buffers) copied into every
// rank's, through one flat broadcast.
void broadcast_from_rank0(ProcessGroup& group, const std::vector<torch::Tensor>& tensors);

}  // namespace savepoint
