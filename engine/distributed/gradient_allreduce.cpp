#include "distributed/gradient_allreduce.h"

#include "platform/errors.h"
#include "platform/planted_bugs.h"

#include <chrono>

namespace savepoint {

namespace {

constexpr std::int64_t kControlWords = 3;

torch::ScalarType common_type(const std::vector<torch::Tensor>& ts) {
    const torch::ScalarType t = ts.empty() ? torch::kFloat32 : ts.front().scalar_type();
    for (const auto& x : ts)
        if (x.scalar_type() != t)
            throw InputError(
                "model: expected every parameter of one floating-point type for data-parallel training, "
                "found " +
                std::string(c10::toString(t)) + " and " + c10::toString(x.scalar_type()));
    return t;
}

}  // namespace

GradientAllreduce::GradientAllreduce(std::shared_ptr<ProcessGroup> group, std::vector<torch::Tensor> params)
    : group_(std::move(group)), params_(std::move(params)), skip_(planted_bug(PlantedBug::SkipGradientAllreduce)) {
    for (const auto& p : params_) grad_numel_ += p.numel();
    const auto options =
        params_.empty() ? torch::TensorOptions(torch::kFloat32) : params_.front().options().dtype(common_type(params_));
    // Allocated once: every step fills the same buffer.
    bucket_ = torch::zeros({grad_numel_ + kControlWords}, options.requires_grad(false));
}

GradientAllreduce::Control GradientAllreduce::reduce(const Control& local) {
    const auto t0 = std::chrono::steady_clock::now();
    torch::NoGradGuard no_grad;
    std::int64_t at = 0;
    if (!skip_) {
        for (auto& p : params_) {
            const std::int64_t n = p.numel();
            torch::Tensor slot = bucket_.narrow(0, at, n);
            if (p.grad().defined())
                slot.copy_(p.grad().reshape({n}));
            else
                slot.zero_();
            at += n;
        }
    }
    const std::int64_t words = skip_ ? kControlWords : grad_numel_ + kControlWords;
    torch::Tensor control = bucket_.narrow(0, grad_numel_, kControlWords);
    control[0] = local.loss;
    control[1] = local.correct;
    control[2] = local.stop;
    // The skipped bucket still carries the control words, so the ranks stay in step.
    torch::Tensor sent = skip_ ? control : bucket_.narrow(0, 0, words);
    group_->allreduce_sum(sent);
    if (!skip_) {
        // Dividing by a power of two is exact; by 3 it rounds the same on every rank.
        torch::Tensor grads = bucket_.narrow(0, 0, grad_numel_);
        grads.div_(static_cast<double>(world_size()));
        at = 0;
        for (auto& p : params_) {
            const std::int64_t n = p.numel();
            if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
            p.mutable_grad().copy_(bucket_.narrow(0, at, n).view(p.grad().sizes()));
            at += n;
        }
    }
    Control sums;
    sums.loss = control[0].item<double>();
    sums.correct = control[1].item<double>();
    sums.stop = control[2].item<double>();
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++calls_;
    return sums;
}

void broadcast_from_rank0(ProcessGroup& group, const std::vector<torch::Tensor>& tensors) {
    if (tensors.empty()) return;
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> flat;
    flat.reserve(tensors.size());
    for (const auto& t : tensors) flat.push_back(t.detach().reshape({t.numel()}).to(torch::kFloat64));
    // Float64 holds every float32 and int64 buffer value this engine keeps (BatchNorm's count) exactly.
    torch::Tensor bucket = torch::cat(flat);
    group.broadcast(bucket, 0);
    std::int64_t at = 0;
    for (const auto& t : tensors) {
        const std::int64_t n = t.numel();
        t.detach().copy_(bucket.narrow(0, at, n).view(t.sizes()));
        at += n;
    }
}

}  // namespace savepoint
