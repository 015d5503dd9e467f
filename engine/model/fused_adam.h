// Adam with the whole update of a parameter in one pass over memory on the
// CPU (moments, bias correction, parameter update, and zeroing the gradient
// for the next step), instead of LibTorch's seven tensor operations per
// parameter. State lives in LibTorch's AdamParamState, so checkpoints,
// restore_state() and the CUDA path (which falls back to torch::optim::Adam)
// are unchanged. Deterministic: the same inputs give the same bits.
#pragma once

#include <torch/torch.h>

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace savepoint {

class FusedAdam : public torch::optim::Adam {
public:
    FusedAdam(std::vector<torch::Tensor> params, torch::optim::AdamOptions options)
        : torch::optim::Adam(std::move(params), std::move(options)) {}

    torch::Tensor step(LossClosure closure = nullptr) override;

    // True when the last step() released the gradients itself, so zero_grad() can be skipped.
    bool zeroes_gradients() const { return zeroed_; }

    // Copy-free checkpoints. A snapshot may keep the live parameter and moment
    // tensors themselves instead of copying them, if nothing writes those
    // buffers while the I/O thread reads them. freeze() promises that: the next
    // step() writes its results into spare buffers (the ones the previous
    // snapshot held, by then written out) and swaps them in, leaving the frozen
    // ones untouched. Same arithmetic in the same order, so the same bits.
    // Only for the fused path (CPU, float32, contiguous, no amsgrad or weight
    // decay): can_freeze() says whether it applies now.
    bool can_freeze();
    void freeze() { frozen_ = true; }
    bool frozen() const { return frozen_; }
    // Allocates and touches the spare buffers now (before training), not in the
    // first frozen step, whose first touch of them would stall training on page
    // faults (StateSnapshot::reserve). No-op where freezing does not apply.
    void reserve_spares();
    // The spare a frozen step would write parameter `p` into next (tests).
    const void* spare_param_data(const torch::Tensor& p) const;

private:
    bool fusable_now();
    std::array<torch::Tensor, 3>& spares_for(const torch::Tensor& p, bool touch);
    void thaw_one(torch::Tensor& p);
    void thaw_by_copying();

    bool zeroed_ = false;
    bool frozen_ = false;
    // Per parameter (by TensorImpl): spare parameter, exp_avg, exp_avg_sq buffers.
    std::unordered_map<const void*, std::array<torch::Tensor, 3>> spares_;
};

}  // namespace savepoint
