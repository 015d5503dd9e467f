// Forward and backward of a Linear -> ReLU -> dropout stack (the `mlp` and
// `dnn` models) on the CPU, written out instead of recorded by autograd.
//
// At the mlp's batch sizes autograd's graph, the temporaries it allocates and
// the dozen dispatched element-wise operations around the GEMMs cost about as
// much as the GEMMs (docs/PERFORMANCE.md, linear-stack step). Here the GEMMs write into buffers kept
// from step to step, and bias, ReLU, dropout, softmax and cross-entropy are
// one loop each. The math is the autograd path's: the same dropout masks from
// the same generator draws (so a checkpoint's RNG state still decides them),
// the same loss; the results agree with autograd to float rounding
// (tests/engine/test_linear_stack_step.cpp), and like it they are a pure
// function of weights, batch and generator state, so a resume stays
// bit-identical.
//
// Activations are kept feature-major ([features, batch]): the first layer's
// product is then W·xᵀ, the layout OpenBLAS runs fastest (see models.cpp).
#pragma once

#include <torch/torch.h>

#include <memory>
#include <vector>

#include "model/models.h"

namespace savepoint {

struct StackStepResult {
    double loss = 0;           // mean cross-entropy over the batch
    std::int64_t correct = 0;  // rows whose largest logit is the label
};

class LinearStackStep {
public:
    // Null unless `model` is an mlp or dnn whose parameters are CPU float32
    // contiguous tensors with dropout 0 <= p < 1; the caller then uses autograd.
    static std::unique_ptr<LinearStackStep> for_model(ClassifierImpl& model);

    // One training-mode forward and backward: x is float [B, ...] with
    // in_features values per row, labels int64 [B]. Leaves each parameter's
    // gradient in its .grad(), overwritten (not accumulated), for the optimizer.
    StackStepResult forward_backward(const torch::Tensor& x, const torch::Tensor& labels);

private:
    struct Layer {
        torch::nn::Linear fc{nullptr};
        double dropout = 0;  // after this layer's ReLU; the last layer has neither
        torch::Tensor z;     // [out, B] this layer's output (logits for the last)
        torch::Tensor gate;  // [out, B] d(activation)/dz: the dropout scale where z > 0, else 0
        torch::Tensor dz;    // [out, B] loss gradient at z
        torch::Tensor mask;  // [out, B] fast_dropout's mask for the [B, out] activation, transposed
        torch::Tensor grad_w, grad_b;
    };

    explicit LinearStackStep(std::vector<Layer> layers) : layers_(std::move(layers)) {}
    void allocate(std::int64_t batch);

    std::vector<Layer> layers_;
    std::int64_t batch_ = 0;
};

}  // namespace savepoint
