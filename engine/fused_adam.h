// Adam with the whole update of a parameter in one pass over memory on the
// CPU (moments, bias correction, parameter update, and zeroing the gradient
// for the next step), instead of LibTorch's seven tensor operations per
// parameter. State lives in LibTorch's AdamParamState, so checkpoints,
// restore_state() and the CUDA path (which falls back to torch::optim::Adam)
// are unchanged. Deterministic: the same inputs give the same bits.
#pragma once

#include <torch/torch.h>

namespace savepoint {

class FusedAdam : public torch::optim::Adam {
public:
    FusedAdam(std::vector<torch::Tensor> params, torch::optim::AdamOptions options)
        : torch::optim::Adam(std::move(params), std::move(options)) {}

    torch::Tensor step(LossClosure closure = nullptr) override;

    // True when the last step() released the gradients itself, so zero_grad() can be skipped.
    bool zeroes_gradients() const { return zeroed_; }

private:
    bool zeroed_ = false;
};

}  // namespace savepoint
