// The three networks Savepoint trains. `mlp` and `dnn` are the models of the
// TensorFlow fault-tolerance guide (Keras Sequential and Estimator
// DNNClassifier); `cnn` is a small convolutional net. All take [B,1,28,28]
// and return logits [B,10].
#pragma once

#include <torch/torch.h>

#include <memory>
#include <string>

namespace savepoint {

struct ClassifierImpl : torch::nn::Module {
    virtual torch::Tensor forward(torch::Tensor x) = 0;
};

// Flatten(28x28) -> Dense(512, ReLU) -> Dropout(0.2) -> Dense(10): 407,050 parameters.
struct MlpImpl : ClassifierImpl {
    MlpImpl();
    torch::Tensor forward(torch::Tensor x) override;
    torch::nn::Linear fc1{nullptr}, fc2{nullptr};
    torch::nn::Dropout drop{nullptr};
};

// Hidden units [256, 32], ReLU, dropout 0.2 after each hidden layer.
struct DnnImpl : ClassifierImpl {
    DnnImpl();
    torch::Tensor forward(torch::Tensor x) override;
    torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
    torch::nn::Dropout drop{nullptr};
};

// conv3x3(16) -> pool -> conv3x3(32) -> pool -> Dense(64, ReLU) -> Dropout(0.2) -> Dense(10).
struct CnnImpl : ClassifierImpl {
    CnnImpl();
    torch::Tensor forward(torch::Tensor x) override;
    torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
    torch::nn::Linear fc1{nullptr}, fc2{nullptr};
    torch::nn::Dropout drop{nullptr};
};

// mlp, dnn or cnn: the networks above; any other model is a TorchScript file.
inline bool is_builtin_model(const std::string& name) { return name == "mlp" || name == "dnn" || name == "cnn"; }

// Builds a model by name; parameters are drawn from LibTorch's default
// generator, so seed it first. Any other name is a TorchScript file
// (script_model.h), whose parameters come from the file.
std::shared_ptr<ClassifierImpl> make_model(const std::string& name);

std::int64_t parameter_count(torch::nn::Module& m);

}  // namespace savepoint
