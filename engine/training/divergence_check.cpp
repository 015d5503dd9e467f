// Divergence: which gradients a step checks, and the check itself (before the
// optimizer update, so the live parameters stay the last good ones).
#include "training/training_step.h"

#include <cmath>
#include <limits>

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

bool all_finite(const torch::Tensor& g) {
    if (g.device().is_cpu() && g.scalar_type() == torch::kFloat32 && g.is_contiguous()) {
        // A few hundred floats: a plain loop, no dispatch, no temporaries.
        const float* v = g.data_ptr<float>();
        float sum = 0;
        for (std::int64_t i = 0, n = g.numel(); i < n; ++i) sum += v[i] * 0.0f;  // NaN for any NaN or infinity
        return sum == 0.0f;
    }
    return torch::isfinite(g).all().item<bool>();
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
std::string StepRunner::nonfinite_gradient() const {
    for (const auto& [name, p] : sentinels_) {
        const torch::Tensor& g = p.grad();
        if (g.defined() && !all_finite(g)) return "the gradient of " + name;
    }
    return {};
}

}  // namespace savepoint
