#include "fused_adam.h"

#include "optimizer_state_key.h"

#include <cmath>

namespace savepoint {
namespace {

bool fusable(const torch::Tensor& p) {
    return p.device().is_cpu() && p.scalar_type() == torch::kFloat32 && p.is_contiguous() &&
           (!p.grad().defined() || (p.grad().is_contiguous() && p.grad().scalar_type() == torch::kFloat32));
}

}  // namespace

torch::Tensor FusedAdam::step(LossClosure closure) {
    torch::NoGradGuard no_grad;
    torch::Tensor loss = {};
    if (closure != nullptr) {
        at::AutoGradMode enable_grad(true);
        loss = closure();
    }
    for (auto& group : param_groups()) {
        auto& o = static_cast<torch::optim::AdamOptions&>(group.options());
        bool ok = !o.amsgrad() && o.weight_decay() == 0;
        for (auto& p : group.params()) ok = ok && fusable(p);
        if (!ok) {
            zeroed_ = false;
            return torch::optim::Adam::step(nullptr);
        }
    }
    for (auto& group : param_groups()) {
        auto& o = static_cast<torch::optim::AdamOptions&>(group.options());
        const double beta1 = std::get<0>(o.betas()), beta2 = std::get<1>(o.betas());
        for (auto& p : group.params()) {
            if (!p.grad().defined()) continue;
            auto key = optimizer_state_key(state(), p);
            auto it = state().find(key);
            if (it == state().end()) {
                auto s = std::make_unique<torch::optim::AdamParamState>();
                s->step(0);
                s->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
                s->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
                it = state().emplace(key, std::move(s)).first;
            }
            auto& s = static_cast<torch::optim::AdamParamState&>(*it->second);
            s.step(s.step() + 1);
            const double bias_correction1 = 1 - std::pow(beta1, s.step());
            const double bias_correction2 = 1 - std::pow(beta2, s.step());
            const float step_size = static_cast<float>(o.lr() / bias_correction1);
            const float inv_sqrt_bc2 = static_cast<float>(1.0 / std::sqrt(bias_correction2));
            const float b1 = static_cast<float>(beta1), b2 = static_cast<float>(beta2);
            const float one_minus_b1 = static_cast<float>(1 - beta1), one_minus_b2 = static_cast<float>(1 - beta2);
            const float eps = static_cast<float>(o.eps());

            float* __restrict param = p.data_ptr<float>();
            float* __restrict grad = p.mutable_grad().data_ptr<float>();
            float* __restrict m = s.exp_avg().data_ptr<float>();
            float* __restrict v = s.exp_avg_sq().data_ptr<float>();
            const std::int64_t n = p.numel();
            // One pass over memory; the loop vectorises.
#pragma omp simd
            for (std::int64_t i = 0; i < n; ++i) {
                const float g = grad[i];
                const float mi = b1 * m[i] + one_minus_b1 * g;
                const float vi = b2 * v[i] + one_minus_b2 * (g * g);
                m[i] = mi;
                v[i] = vi;
                param[i] -= step_size * (mi / (std::sqrt(vi) * inv_sqrt_bc2 + eps));
            }
            // Undefined, not zeroed: the next backward then hands its fresh gradient
            // over instead of adding it into a zeroed buffer (one pass less per parameter).
            p.mutable_grad().reset();
        }
    }
    zeroed_ = true;
    return loss;
}

}  // namespace savepoint
