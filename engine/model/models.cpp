#include "model/models.h"
#include "model/script_model.h"

#include "model/fast_dropout.h"
#include "platform/errors.h"

namespace savepoint {
namespace nn = torch::nn;

namespace {

// fc(x) for a wide first layer, computed as (W·xᵀ)ᵀ + b. OpenBLAS runs the
// [B,784]x[784,512] product x·Wᵀ that nn::Linear asks for at under half the
// speed of the same product written W·xᵀ (docs/PERFORMANCE.md, models); the
// result is the same matrix up to rounding, laid out transposed.
torch::Tensor wide_linear(const nn::Linear& fc, const torch::Tensor& x) {
    return torch::addmm(fc->bias.unsqueeze(1), fc->weight, x.t()).t();
}

torch::Tensor dropout(const nn::Dropout& d, const torch::Tensor& x) {
    return fast_dropout(x, d->options.p(), d->is_training());
}

}  // namespace

MlpImpl::MlpImpl() {
    fc1 = register_module("fc1", nn::Linear(784, 512));
    drop = register_module("drop", nn::Dropout(0.2));
    fc2 = register_module("fc2", nn::Linear(512, 10));
}

torch::Tensor MlpImpl::forward(torch::Tensor x) {
    x = x.reshape({x.size(0), 784});
    return fc2(dropout(drop, torch::relu(wide_linear(fc1, x))));
}

DnnImpl::DnnImpl() {
    fc1 = register_module("fc1", nn::Linear(784, 256));
    fc2 = register_module("fc2", nn::Linear(256, 32));
    fc3 = register_module("fc3", nn::Linear(32, 10));
    drop = register_module("drop", nn::Dropout(0.2));
}

torch::Tensor DnnImpl::forward(torch::Tensor x) {
    x = x.reshape({x.size(0), 784});
    x = dropout(drop, torch::relu(wide_linear(fc1, x)));
    x = dropout(drop, torch::relu(fc2(x)));
    return fc3(x);
}

CnnImpl::CnnImpl() {
    conv1 = register_module("conv1", nn::Conv2d(nn::Conv2dOptions(1, 16, 3).padding(1)));
    conv2 = register_module("conv2", nn::Conv2d(nn::Conv2dOptions(16, 32, 3).padding(1)));
    fc1 = register_module("fc1", nn::Linear(32 * 7 * 7, 64));
    fc2 = register_module("fc2", nn::Linear(64, 10));
    drop = register_module("drop", nn::Dropout(0.2));
}

namespace {

// 2x2 max pooling then ReLU, as the maximum of four strided views: the same
// values as relu then max_pool2d (the two commute), at a fraction of the time
// LibTorch's CPU max_pool2d takes (docs/PERFORMANCE.md, validation).
torch::Tensor pool2_relu(const torch::Tensor& y) {
    using torch::indexing::None;
    using torch::indexing::Slice;
    const auto at = [&](int r, int c) { return y.index({"...", Slice(r, None, 2), Slice(c, None, 2)}); };
    return torch::maximum(torch::maximum(at(0, 0), at(0, 1)), torch::maximum(at(1, 0), at(1, 1))).clamp_min_(0);
}

}  // namespace

torch::Tensor CnnImpl::forward(torch::Tensor x) {
    if (!is_training() && !torch::GradMode::is_enabled()) {
        // Validation: no autograd to feed, so the faster pooling serves.
        x = pool2_relu(conv1(x));
        x = pool2_relu(conv2(x));
        x = x.reshape({x.size(0), 32 * 7 * 7});
        return fc2(torch::relu(fc1(x)));
    }
    x = torch::max_pool2d(torch::relu(conv1(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    x = x.reshape({x.size(0), 32 * 7 * 7});
    return fc2(dropout(drop, torch::relu(fc1(x))));
}

std::shared_ptr<ClassifierImpl> make_model(const std::string& name) {
    if (name == "mlp") return std::make_shared<MlpImpl>();
    if (name == "dnn") return std::make_shared<DnnImpl>();
    if (name == "cnn") return std::make_shared<CnnImpl>();
    return load_script_model(name);
}

std::int64_t parameter_count(torch::nn::Module& m) {
    std::int64_t n = 0;
    for (const auto& p : m.parameters()) n += p.numel();
    return n;
}

}  // namespace savepoint
