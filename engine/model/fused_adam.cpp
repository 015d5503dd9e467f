#include "model/fused_adam.h"

#include "model/optimizer_state_key.h"
#include "platform/planted_bugs.h"
#include "platform/simd_clones.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace savepoint {
namespace {

bool fusable(const torch::Tensor& p) {
    return p.device().is_cpu() && p.scalar_type() == torch::kFloat32 && p.is_contiguous() &&
           (!p.grad().defined() || (p.grad().is_contiguous() && p.grad().scalar_type() == torch::kFloat32));
}

// Below this many elements a parameter is updated on the calling thread alone.
constexpr std::int64_t kAdamGrain = 1 << 16;

// A moment whose gradient stays zero (a border pixel's weights) decays by β
// every step: after ~800 steps exp_avg is subnormal, and every arithmetic
// operation on a subnormal float takes a microcode assist of ~100 cycles on
// x86. On Fashion-MNIST one mlp weight in eight got there, which made this
// pass several times slower (docs/PERFORMANCE.md, fused Adam). Such a moment is flushed to zero instead: its
// contribution to the update (below 1e-38 / eps, i.e. ~1e-30) is far below
// what a float parameter can register, so only the moments' bits change, and
// the same way on every machine (no dependence on the FPU's FTZ/DAZ mode).
inline float flush_subnormal(float x) { return std::fabs(x) < std::numeric_limits<float>::min() ? 0.0f : x; }

struct AdamCoefficients {
    float b1, b2, one_minus_b1, one_minus_b2, step_size, inv_sqrt_bc2, eps;
};

// One pass over memory; element i reads and writes only index i, so the loop
// vectorises whether the output is the input or a spare, and splitting it
// across threads cannot change a bit. Out-of-line and cloned per instruction
// set (simd_clones.h): the sqrt and division dominate it.
SAVEPOINT_SIMD_CLONES
void adam_update(const AdamCoefficients c, const float* grad, const float* param_in, const float* m_in,
                 const float* v_in, float* param_out, float* m_out, float* v_out, std::int64_t n) {
#pragma omp simd
    for (std::int64_t i = 0; i < n; ++i) {
        const float g = grad[i];
        const float mi = flush_subnormal(c.b1 * m_in[i] + c.one_minus_b1 * g);
        const float vi = flush_subnormal(c.b2 * v_in[i] + c.one_minus_b2 * (g * g));
        m_out[i] = mi;
        v_out[i] = vi;
        param_out[i] = param_in[i] - c.step_size * (mi / (std::sqrt(vi) * c.inv_sqrt_bc2 + c.eps));
    }
}

}  // namespace

bool FusedAdam::fusable_now() {
    for (auto& group : param_groups()) {
        auto& o = static_cast<torch::optim::AdamOptions&>(group.options());
        if (o.amsgrad() || o.weight_decay() != 0) return false;
        for (auto& p : group.params())
            if (!fusable(p)) return false;
    }
    return true;
}

bool FusedAdam::can_freeze() { return fusable_now(); }

// `p`'s spare parameter, exp_avg and exp_avg_sq buffers, made on first use
// (Adam's moments have the parameter's shape and type). `touch`: write every
// page now, so that the step that first uses them takes no page faults.
std::array<torch::Tensor, 3>& FusedAdam::spares_for(const torch::Tensor& p, bool touch) {
    auto& spare = spares_[p.unsafeGetTensorImpl()];
    if (!spare[0].defined())
        for (auto& t : spare) {
            t = torch::empty_like(p);
            if (touch) std::memset(t.data_ptr(), 0, static_cast<std::size_t>(t.numel()) * t.element_size());
        }
    return spare;
}

void FusedAdam::reserve_spares() {
    if (!fusable_now()) return;
    for (auto& group : param_groups())
        for (auto& p : group.params()) spares_for(p, true);
}

const void* FusedAdam::spare_param_data(const torch::Tensor& p) const {
    auto it = spares_.find(p.unsafeGetTensorImpl());
    return it == spares_.end() || !it->second[0].defined() ? nullptr : it->second[0].data_ptr();
}

// The fallback below updates in place; frozen buffers belong to a snapshot
// that may still be being written, so the live state moves to copies first.
void FusedAdam::thaw_one(torch::Tensor& p) {
    p.set_data(p.detach().clone());
    auto it = state().find(optimizer_state_key(state(), p));
    if (it == state().end()) return;
    auto& s = static_cast<torch::optim::AdamParamState&>(*it->second);
    s.exp_avg(s.exp_avg().clone());
    s.exp_avg_sq(s.exp_avg_sq().clone());
}

void FusedAdam::thaw_by_copying() {
    for (auto& group : param_groups())
        for (auto& p : group.params()) thaw_one(p);
    frozen_ = false;
}

torch::Tensor FusedAdam::step(LossClosure closure) {
    torch::NoGradGuard no_grad;
    torch::Tensor loss = {};
    if (closure != nullptr) {
        at::AutoGradMode enable_grad(true);
        loss = closure();
    }
    if (!fusable_now()) {
        if (frozen_) thaw_by_copying();
        zeroed_ = false;
        return torch::optim::Adam::step(nullptr);
    }
    for (auto& group : param_groups()) {
        auto& o = static_cast<torch::optim::AdamOptions&>(group.options());
        const double beta1 = std::get<0>(o.betas()), beta2 = std::get<1>(o.betas());
        for (auto& p : group.params()) {
            if (!p.grad().defined()) {
                // Not updated this step, but a later step would update it in place:
                // a frozen one moves to a copy now.
                if (frozen_) thaw_one(p);
                continue;
            }
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

            const float* param_in = p.data_ptr<float>();
            const float* m_in = s.exp_avg().data_ptr<float>();
            const float* v_in = s.exp_avg_sq().data_ptr<float>();
            const float* grad = p.mutable_grad().data_ptr<float>();
            float* param_out = p.data_ptr<float>();
            float* m_out = s.exp_avg().data_ptr<float>();
            float* v_out = s.exp_avg_sq().data_ptr<float>();
            std::array<torch::Tensor, 3>* spare = nullptr;
            // Negative control (docs/RELIABILITY.md): update in place although frozen.
            if (frozen_ && !planted_bug(PlantedBug::WriteFrozenState)) {
                // Write into the spares; the frozen buffers stay as the snapshot saw them.
                spare = &spares_for(p, false);
                param_out = (*spare)[0].data_ptr<float>();
                m_out = (*spare)[1].data_ptr<float>();
                v_out = (*spare)[2].data_ptr<float>();
            }
            const std::int64_t n = p.numel();
            // A second core adds memory bandwidth and another sqrt/div unit.
            const AdamCoefficients c{b1, b2, one_minus_b1, one_minus_b2, step_size, inv_sqrt_bc2, eps};
            at::parallel_for(0, n, kAdamGrain, [&](std::int64_t begin, std::int64_t end) {
                adam_update(c, grad + begin, param_in + begin, m_in + begin, v_in + begin, param_out + begin,
                            m_out + begin, v_out + begin, end - begin);
            });
            if (spare) {
                // Swap: the spares become live, the frozen buffers become the next spares
                // (the snapshot that holds them is written out before the next freeze).
                torch::Tensor old_param = p.detach();
                torch::Tensor old_m = s.exp_avg(), old_v = s.exp_avg_sq();
                p.set_data((*spare)[0]);
                s.exp_avg((*spare)[1]);
                s.exp_avg_sq((*spare)[2]);
                *spare = {old_param, old_m, old_v};
            }
            // Undefined, not zeroed: the next backward then hands its fresh gradient
            // over instead of adding it into a zeroed buffer (one pass less per parameter).
            p.mutable_grad().reset();
        }
    }
    frozen_ = false;
    zeroed_ = true;
    return loss;
}

}  // namespace savepoint
