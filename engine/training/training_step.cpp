#include "training/training_step.h"
#include "platform/planted_bugs.h"

#include "data/batch_gather.h"
#include "data/data_order.h"
#include "distributed/gradient_allreduce.h"
#include "model/fused_adam.h"

#include <algorithm>

namespace savepoint {

namespace {

// On the CPU a plain loop over [B,10] logits beats argmax+eq+sum+item (four
// dispatched operations and three temporaries) for a per-step metric.
std::int64_t count_correct(const torch::Tensor& logits, const torch::Tensor& labels) {
    if (!logits.device().is_cpu() || logits.scalar_type() != torch::kFloat32 || !logits.is_contiguous())
        return logits.argmax(1).eq(labels).sum().item<std::int64_t>();
    const float* l = logits.data_ptr<float>();
    const std::int64_t* y = labels.data_ptr<std::int64_t>();
    const std::int64_t rows = logits.size(0), cols = logits.size(1);
    std::int64_t correct = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
        const float* row = l + r * cols;
        std::int64_t best = 0;
        for (std::int64_t c = 1; c < cols; ++c)
            if (row[c] > row[best]) best = c;
        correct += best == y[r];
    }
    return correct;
}

// Pixels kept as bytes (CPU) become float here; already-converted ones pass.
torch::Tensor model_input(const torch::Tensor& x) { return x.scalar_type() == torch::kUInt8 ? pixels_to_float(x) : x; }

}  // namespace

StepRunner::StepRunner(ClassifierImpl& model, torch::optim::Optimizer& optimizer, const DatasetPair& data,
                       torch::Device device, std::int64_t batch)
    : model_(model), optimizer_(optimizer), device_(device), batch_(batch) {
    // On the CPU the pixels stay bytes and each batch is converted (25k values
    // at batch 32); on a GPU they are converted once, there, so no step pays it.
    train_x_ = device.is_cpu() ? data.train.images : pixels_to_float(data.train.images.to(device));
    train_y_ = data.train.labels.to(device);
    test_x_ = device.is_cpu() ? data.test.images : pixels_to_float(data.test.images.to(device));
    test_y_ = data.test.labels.to(device);
    index_cpu_ = torch::empty({batch}, torch::kInt64);
    fused_ = dynamic_cast<FusedAdam*>(&optimizer);
    sentinels_ = gradient_sentinels(model);
    check_divergence_ = !planted_bug(PlantedBug::SkipDivergenceCheck);
    if (device.is_cpu()) stack_ = LinearStackStep::for_model(model);
    if (device.is_cpu() && train_x_.scalar_type() == torch::kUInt8 && train_x_.is_contiguous() &&
        train_y_.scalar_type() == torch::kInt64 && train_y_.is_contiguous()) {
        auto shape = train_x_.sizes().vec();
        shape[0] = batch;
        batch_x_ = torch::empty(shape, torch::kFloat32);
        batch_y_ = torch::empty({batch}, torch::kInt64);
    }
}

StepResult StepRunner::step(const std::vector<std::int64_t>& perm, std::int64_t step) {
    // Rank r of W takes the r-th batch-sized part of the step's global batch.
    batch_positions(perm, (step - 1) * world_ + rank_ + 1, batch_, index_cpu_.data_ptr<std::int64_t>());
    torch::Tensor x, y;
    if (batch_x_.defined()) {
        // Into the same buffers every step; the step is done with them before the next one.
        gather_batch(train_x_.data_ptr<std::uint8_t>(), train_y_.data_ptr<std::int64_t>(), batch_x_.numel() / batch_,
                     index_cpu_.data_ptr<std::int64_t>(), batch_, batch_x_.data_ptr<float>(),
                     batch_y_.data_ptr<std::int64_t>());
        x = batch_x_;
        y = batch_y_;
    } else {
        torch::Tensor index = device_.is_cpu() ? index_cpu_ : index_cpu_.to(device_);
        x = model_input(train_x_.index_select(0, index));
        y = train_y_.index_select(0, index);
    }
    model_.train();
    double loss = 0;
    std::int64_t correct = 0;
    if (stack_) {
        // Gradients are overwritten, not accumulated: no zero_grad() needed.
        const StackStepResult s = stack_->forward_backward(x, y);
        loss = s.loss;
        correct = s.correct;
    } else {
        // FusedAdam zeroes gradients during its own pass; a separate zero_grad() would read them all again.
        if (!fused_ || !fused_->zeroes_gradients()) optimizer_.zero_grad();
        torch::Tensor logits = model_.forward(x);
        torch::Tensor batch_loss = mse_ ? torch::mse_loss(logits, y) : torch::nn::functional::cross_entropy(logits, y);
        batch_loss.backward();
        loss = batch_loss.item<double>();
        correct = mse_ ? 0 : count_correct(logits, y);
    }
    StepResult r;
    if (allreduce_) {
        // Every path (linear stack, autograd, fused Adam or not) leaves its gradients in .grad() here.
        const double vote = stop_vote_ ? static_cast<double>(std::int64_t{1} << std::min<std::int64_t>(rank_, 24)) : 0;
        const auto sums = allreduce_->reduce({loss, static_cast<double>(correct), vote});
        loss = sums.loss / static_cast<double>(world_);
        correct = static_cast<std::int64_t>(sums.correct);
        r.stop_voters = static_cast<std::int64_t>(sums.stop);
    }
    // Before the update: a non-finite loss or gradient stops training with the
    // parameters still the last good ones (planted bug: the check skipped).
    if (poison_ != Poison::None) poison(loss);
    if (check_divergence_) {
        if (!std::isfinite(loss))
            r.nonfinite = "loss";
        else
            r.nonfinite = nonfinite_gradient();
        if (!r.nonfinite.empty()) {
            r.loss = loss;
            return r;
        }
    }
    optimizer_.step();
    r.loss = loss;
    r.accuracy = mse_ ? 0 : static_cast<double>(correct) / static_cast<double>(batch_ * world_);
    return r;
}

std::optional<EvalResult> StepRunner::evaluate(const BetweenBatches& between) {
    const bool shared = group_ && world_ > 1;
    if (shared) {
        // Each rank's batch norm statistics are its own shard's; the job's are rank 0's (its checkpoints').
        std::vector<torch::Tensor> buffers = model_.buffers();
        if (!buffers.empty() && !planted_bug(PlantedBug::EvalOwnBuffers)) broadcast_from_rank0(*group_, buffers);
    }
    const std::int64_t n = test_y_.size(0);
    const std::int64_t batches = (n + eval_batch_ - 1) / eval_batch_;
    // Per batch: its summed loss and its correct answers. A batch another rank evaluates stays 0 here.
    torch::Tensor sums = torch::zeros({batches, 2}, torch::kFloat64);
    {
        // No autograd records at all (cheaper than NoGradGuard: no version counters).
        c10::InferenceMode inference;
        model_.eval();
        const bool done = evaluate_batches(between, sums.data_ptr<double>());
        model_.train();
        if (!done) return std::nullopt;
    }
    if (shared) {
        // Every entry is one rank's number plus zeros: exact, whatever order the transport adds in.
        torch::Tensor t = sums.to(device_);
        group_->allreduce_sum(t);
        sums = t.cpu();
    }
    if (between) between(n, n);
    // Added in batch order, as one process adds them.
    const double* s = sums.data_ptr<double>();
    double loss_sum = 0, correct = 0;
    for (std::int64_t b = 0; b < batches; ++b) {
        loss_sum += s[2 * b];
        correct += s[2 * b + 1];
    }
    EvalResult r;
    r.loss = n ? loss_sum / static_cast<double>(n) : 0;
    r.accuracy = mse_ ? 0 : n ? correct / static_cast<double>(n) : 0;
    return r;
}

bool StepRunner::evaluate_batches(const BetweenBatches& between, double* sums) {
    const std::int64_t n = test_y_.size(0);
    for (std::int64_t i = (rank_ % world_) * eval_batch_; i < n; i += world_ * eval_batch_) {
        if (between && !between(i, n)) return false;
        const std::int64_t b = i / eval_batch_, len = std::min<std::int64_t>(eval_batch_, n - i);
        torch::Tensor x = model_input(test_x_.narrow(0, i, len));
        torch::Tensor y = test_y_.narrow(0, i, len);
        torch::Tensor logits = model_.forward(x).contiguous();
        if (mse_) {
            // Summed per sample (its mean over the target's values), so the pass's mean matches training's.
            sums[2 * b] = torch::mse_loss(logits, y, at::Reduction::Sum).item<double>() * len /
                          static_cast<double>(std::max<std::int64_t>(1, y.numel()));
            continue;
        }
        sums[2 * b] = torch::nn::functional::cross_entropy(
                          logits, y, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                          .item<double>();
        sums[2 * b + 1] = static_cast<double>(count_correct(logits, y));
    }
    return true;
}

}  // namespace savepoint
