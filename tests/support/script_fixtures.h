// TorchScript models and tensor files for tests, made in C++ (no Python): a
// torch::jit::Module built with register_parameter/register_buffer and
// define(), saved as Python's torch.jit.script(m).save would, and a
// dictionary of tensors saved with torch::pickle_save, which torch.load reads.
// Header-only; tests that train link LibTorch already.
#pragma once

#include <torch/script.h>
#include <torch/torch.h>

#include <fstream>
#include <string>
#include <vector>

namespace testsupport {

// A module with a `training` attribute, as every Python nn.Module has (train()/eval() need it).
inline torch::jit::Module scriptModule(const std::string& name) {
    torch::jit::Module m(name);
    m.register_attribute("training", c10::BoolType::get(), true);
    return m;
}

// BatchNorm1d as Python scripts it: weight, bias, and three buffers the forward pass updates.
inline torch::jit::Module batchNorm1d(std::int64_t features) {
    torch::jit::Module bn = scriptModule("BatchNorm1d");
    bn.register_parameter("weight", torch::ones({features}).requires_grad_(), false);
    bn.register_parameter("bias", torch::zeros({features}).requires_grad_(), false);
    bn.register_buffer("running_mean", torch::zeros({features}));
    bn.register_buffer("running_var", torch::ones({features}));
    bn.register_buffer("num_batches_tracked", torch::zeros({}, torch::kInt64));
    bn.define(R"(
def forward(self, x):
    if self.training:
        self.num_batches_tracked.add_(1)
    return torch.batch_norm(x, self.weight, self.bias, self.running_mean, self.running_var, self.training, 0.1, 1e-5, False)
)");
    return bn;
}

// [B, ...inputs] -> flatten -> Linear(hidden) -> BatchNorm1d -> ReLU -> Dropout(0.2) -> Linear(outputs).
// Parameters drawn from a fixed seed: the same file every time.
inline torch::jit::Module bnMlp(std::int64_t inputs, std::int64_t hidden, std::int64_t outputs,
                                const std::string& name = "BnMlp") {
    torch::manual_seed(1234);
    torch::jit::Module m = scriptModule(name);
    m.register_parameter("w1", (torch::randn({hidden, inputs}) / std::sqrt(double(inputs))).requires_grad_(), false);
    m.register_parameter("b1", torch::zeros({hidden}).requires_grad_(), false);
    m.register_module("bn", batchNorm1d(hidden));
    m.register_parameter("w2", (torch::randn({outputs, hidden}) / std::sqrt(double(hidden))).requires_grad_(), false);
    m.register_parameter("b2", torch::zeros({outputs}).requires_grad_(), false);
    m.define(R"(
def forward(self, x):
    h = torch.matmul(x.flatten(1), self.w1.t()) + self.b1
    h = torch.relu(self.bn.forward(h))
    h = torch.dropout(h, 0.2, self.training)
    return torch.matmul(h, self.w2.t()) + self.b2
)");
    return m;
}

inline void writeBytes(const std::string& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// torch.save({...}) of these tensors, under these keys.
inline void writeTensorFile(const std::string& path, const std::vector<std::pair<std::string, torch::Tensor>>& items) {
    c10::Dict<std::string, torch::Tensor> dict;
    for (const auto& [k, v] : items) dict.insert(k, v);
    writeBytes(path, torch::pickle_save(c10::IValue(dict)));
}

// A small classification set: uint8 [N, 1, 8, 8] images whose class is which
// quadrant is bright, learnable in a few dozen steps; fixed seed.
inline std::vector<std::pair<std::string, torch::Tensor>> quadrantData(std::int64_t train, std::int64_t test,
                                                                       std::int64_t classes = 4) {
    torch::manual_seed(99);
    const auto make = [classes](std::int64_t n) {
        torch::Tensor y = torch::randint(classes, {n}, torch::kInt64);
        torch::Tensor x = torch::randint(0, 60, {n, 1, 8, 8}, torch::kInt64);
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t q = y[i].item<std::int64_t>() % 4;
            x[i].narrow(1, (q / 2) * 4, 4).narrow(2, (q % 2) * 4, 4).add_(150);
        }
        return std::make_pair(x.to(torch::kUInt8), y);
    };
    auto [x, y] = make(train);
    auto [xt, yt] = make(test);
    return {{"train_x", x}, {"train_y", y}, {"test_x", xt}, {"test_y", yt}};
}

}  // namespace testsupport
