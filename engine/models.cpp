#include "models.h"

#include "errors.h"

namespace savepoint {
namespace nn = torch::nn;

MlpImpl::MlpImpl() {
    fc1 = register_module("fc1", nn::Linear(784, 512));
    drop = register_module("drop", nn::Dropout(0.2));
    fc2 = register_module("fc2", nn::Linear(512, 10));
}

torch::Tensor MlpImpl::forward(torch::Tensor x) {
    x = x.reshape({x.size(0), 784});
    return fc2(drop(torch::relu(fc1(x))));
}

DnnImpl::DnnImpl() {
    fc1 = register_module("fc1", nn::Linear(784, 256));
    fc2 = register_module("fc2", nn::Linear(256, 32));
    fc3 = register_module("fc3", nn::Linear(32, 10));
    drop = register_module("drop", nn::Dropout(0.2));
}

torch::Tensor DnnImpl::forward(torch::Tensor x) {
    x = x.reshape({x.size(0), 784});
    x = drop(torch::relu(fc1(x)));
    x = drop(torch::relu(fc2(x)));
    return fc3(x);
}

CnnImpl::CnnImpl() {
    conv1 = register_module("conv1", nn::Conv2d(nn::Conv2dOptions(1, 16, 3).padding(1)));
    conv2 = register_module("conv2", nn::Conv2d(nn::Conv2dOptions(16, 32, 3).padding(1)));
    fc1 = register_module("fc1", nn::Linear(32 * 7 * 7, 64));
    fc2 = register_module("fc2", nn::Linear(64, 10));
    drop = register_module("drop", nn::Dropout(0.2));
}

torch::Tensor CnnImpl::forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    x = x.reshape({x.size(0), 32 * 7 * 7});
    return fc2(drop(torch::relu(fc1(x))));
}

std::shared_ptr<ClassifierImpl> make_model(const std::string& name) {
    if (name == "mlp") return std::make_shared<MlpImpl>();
    if (name == "dnn") return std::make_shared<DnnImpl>();
    if (name == "cnn") return std::make_shared<CnnImpl>();
    throw InputError("--model: expected mlp|dnn|cnn, found '" + name + "'");
}

std::int64_t parameter_count(torch::nn::Module& m) {
    std::int64_t n = 0;
    for (const auto& p : m.parameters()) n += p.numel();
    return n;
}

}  // namespace savepoint
