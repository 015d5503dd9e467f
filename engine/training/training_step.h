// One optimisation step and one validation pass, with the batch gathered by
// index from tensors already on the training device. Owned by the Trainer's
// thread; reuses its index buffer from step to step. On the CPU the mlp and
// dnn train through LinearStackStep; the cnn, and every model on CUDA,
// through autograd.
#pragma once

#include "data/dataset.h"
#include "model/linear_stack_step.h"
#include "model/models.h"

#include <torch/torch.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace savepoint {

class FusedAdam;
class GradientAllreduce;
class ProcessGroup;

struct StepResult {
    double loss = 0;
    double accuracy = 0;
    // Not empty: the loss or a gradient was NaN or infinite, and the optimizer
    // update was not made (the live state is still the previous step's):
    // "loss" or "the gradient of <parameter>".
    std::string nonfinite;
    // Data-parallel: the ranks that voted to stop after this step (vote_stop), bit r for rank r
    // (bit 24 for every rank from 24 on: the sum travels as a float). 0: none.
    std::int64_t stop_voters = 0;
};

struct EvalResult {
    double loss = 0;
    double accuracy = 0;
};

// The parameters whose gradients a step checks for NaN and infinity: the
// one-dimensional ones (biases, norms), a few hundred floats. Each layer's
// bias gradient sums the error signal that reaches it, so a NaN or an infinity
// anywhere in that signal shows there; a weight gradient can then only
// overflow on its own, from values ~1e19, long after the loss has. A model
// without any checks every gradient (divergence_check.cpp).
std::vector<std::pair<std::string, torch::Tensor>> gradient_sentinels(ClassifierImpl& model);

class StepRunner {
public:
    StepRunner(ClassifierImpl& model, torch::optim::Optimizer& optimizer, const DatasetPair& data, torch::Device device,
               std::int64_t batch);

    // Trains on the batch of 1-based `step` in the epoch permutation `perm`.
    StepResult step(const std::vector<std::int64_t>& perm, std::int64_t step);

    // Called between the batches of a validation pass with the test samples done
    // and in all; returning false abandons the pass (a simulated crash).
    using BetweenBatches = std::function<bool(std::int64_t done, std::int64_t total)>;

    // Loss and accuracy over the whole test split, in eval mode, without autograd;
    // nullopt when `between` abandoned it. The sums run in a fixed order, so a pass
    // gives the same bits whenever it runs. In a data-parallel job each rank
    // evaluates every world-th batch with rank 0's buffers, and the pass gives
    // every rank the bits one process would get from rank 0's model.
    std::optional<EvalResult> evaluate(const BetweenBatches& between = {});
    // Test samples per forward pass of evaluate() (docs/PERFORMANCE.md, validation).
    void set_eval_batch(std::int64_t n) { eval_batch_ = std::max<std::int64_t>(1, n); }
    static constexpr std::int64_t kEvalBatch = 128;

    // Tests (SAVEPOINT_INJECT_NONFINITE, trainer.cpp): the next step's loss, or
    // its first checked gradient, is made NaN / infinite after the backward pass,
    // as a real divergence would leave it; the built-in models with
    // cross-entropy do not diverge on their own (docs/RELIABILITY.md, fault classes).
    enum class Poison { None, Loss, Gradient };
    void poison_next_step(Poison p) { poison_ = p; }

    // --loss mse: mean squared error against float targets; accuracy is then 0 (no classes; the
    // registry keeps a number in that column).
    void use_mse(bool on) { mse_ = on; }
    // A data-parallel job's rank: each step trains on this rank's part of the
    // global batch (world × batch samples of the permutation) and averages the
    // gradients through `allreduce` before the update, whichever path computed them;
    // a validation pass is shared out over `group`.
    void data_parallel(GradientAllreduce* allreduce, ProcessGroup* group, std::int64_t rank, std::int64_t world) {
        allreduce_ = allreduce;
        group_ = group;
        rank_ = rank;
        world_ = world;
    }
    void vote_stop(bool stop) { stop_vote_ = stop; }  // sent with the next step's all-reduce

private:
    ClassifierImpl& model_;
    torch::optim::Optimizer& optimizer_;
    torch::Device device_;
    std::int64_t batch_;
    std::int64_t eval_batch_ = kEvalBatch;
    torch::Tensor train_x_, train_y_, test_x_, test_y_;
    torch::Tensor index_cpu_;
    torch::Tensor batch_x_, batch_y_;         // CPU: the batch, gathered into the same buffers every step
    std::unique_ptr<LinearStackStep> stack_;  // null: autograd
    bool mse_ = false;
    GradientAllreduce* allreduce_ = nullptr;
    ProcessGroup* group_ = nullptr;
    std::int64_t rank_ = 0, world_ = 1;
    bool stop_vote_ = false;
    FusedAdam* fused_ = nullptr;  // the optimizer, when it is one
    // The parameters whose gradients stand for all (divergence_check.cpp).
    std::vector<std::pair<std::string, torch::Tensor>> sentinels_;
    bool check_divergence_ = true;
    Poison poison_ = Poison::None;
    std::string nonfinite_gradient() const;
    // This rank's batches of a validation pass, each one's loss sum and correct answers into `sums`
    // ([batches][2]); false when `between` abandoned the pass.
    bool evaluate_batches(const BetweenBatches& between, double* sums);
    void poison(double& loss);
};

}  // namespace savepoint
