// Divergence: which gradients a step checks, and the check itself (before the
// optimizer update, so the live parameters stay the last good ones).
#include "training/training_step.h"

#include <cmath>
#include <limits>
#include <optional>

namespace savepoint {

std::vector<std::pair<std::string, torch::Tensor>> gradient_sentinels(ClassifierImpl& model) {
    std::vector<std::pair<std::string, torch::Tensor>> all, small;
    for (const auto& item : model.named_parameters()) {
        all.emplace_back(item.key(), item.value());
        if (item.value().dim() == 1) small.emplace_back(item.key(), item.value());
    }
    return small.empty() ? all : small;
}

namespace {

// Whether a float32 CPU gradient is finite: a plain loop over a few hundred
// floats, no dispatch, no temporaries. nullopt: not such a tensor.
std::optional<bool> cpu_finite(const torch::Tensor& g) {
    if (!g.device().is_cpu() || g.scalar_type() != torch::kFloat32 || !g.is_contiguous()) return std::nullopt;
    const float* v = g.data_ptr<float>();
    float sum = 0;
    for (std::int64_t i = 0, n = g.numel(); i < n; ++i) sum += v[i] * 0.0f;  // NaN for any NaN or infinity
    return sum == 0.0f;
}

}  // namespace

void StepRunner::poison(double& loss) {
    if (poison_ == Poison::Loss) loss = std::nan("");
    if (poison_ == Poison::Gradient && !sentinels_.empty()) {
        torch::NoGradGuard no_grad;
        sentinels_.front().second.mutable_grad().view(-1)[0].fill_(std::numeric_limits<float>::infinity());
    }
    poison_ = Poison::None;
}

// "" when every sentinel gradient is finite, else "the gradient of <name>".
// On a GPU one sum of them all is read back (one synchronisation a step, not
// one per tensor); only when it is not finite are they looked at one by one.
std::string StepRunner::nonfinite_gradient() const {
    torch::Tensor device_sum;
    for (const auto& [name, p] : sentinels_) {
        const torch::Tensor& g = p.grad();
        if (!g.defined()) continue;
        if (const auto finite = cpu_finite(g)) {
            if (!*finite) return "the gradient of " + name;
            continue;
        }
        const torch::Tensor part = (g * 0).sum();
        device_sum = device_sum.defined() ? device_sum + part : part;
    }
    if (!device_sum.defined() || std::isfinite(device_sum.item<double>())) return {};
    for (const auto& [name, p] : sentinels_)
        if (p.grad().defined() && !torch::isfinite(p.grad()).all().item<bool>()) return "the gradient of " + name;
    return "a gradient";
}

}  // namespace savepoint
