// A model of the user's own: a TorchScript module (torch.jit.script(m).save or
// torch.jit.trace(...).save in Python, or torch::jit::Module::save in C++),
// trained like the built-in ones. Its parameters and buffers are mirrored into
// a torch::nn::Module tree under the names PyTorch's state_dict gives them
// ("layer1.0.bn1.running_mean"), sharing their tensors, so the optimizer, the
// snapshot and restore_state see the module's own state and nothing is copied.
#pragma once

#include "model/models.h"

#include <torch/script.h>

#include <string>

namespace savepoint {

struct ScriptModelImpl : ClassifierImpl {
    explicit ScriptModelImpl(torch::jit::Module module);
    torch::Tensor forward(torch::Tensor x) override;
    // Switches the TorchScript module too: its dropout and batch norm read `training`.
    void train(bool on = true) override;
    // The class name Python gave it ("SmallResNet"), for run lists and summaries.
    const std::string& type_name() const { return type_name_; }
    torch::jit::Module& module() { return module_; }

private:
    torch::jit::Module module_;
    std::string type_name_;
};

// Loads `path` as TorchScript; `sha256`, if given, receives the SHA-256 of
// the bytes loaded. Throws InputError naming the file when it is missing, is
// not TorchScript (a plain state dict gets how to script the model), or has
// no parameters.
std::shared_ptr<ScriptModelImpl> load_script_model(const std::string& path, std::string* sha256 = nullptr);

// The short name a run list shows: the file's name ("resnet.pt") for a
// TorchScript model, the name itself for a built-in one.
std::string model_display_name(const std::string& model);

}  // namespace savepoint
