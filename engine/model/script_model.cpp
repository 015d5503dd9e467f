#include "model/script_model.h"

#include "platform/errors.h"
#include "platform/planted_bugs.h"
#include "storage/sha256.h"

#include <torch/csrc/jit/runtime/graph_executor.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

namespace savepoint {

namespace {

namespace fs = std::filesystem;

void mirror(torch::nn::Module& into, const torch::jit::Module& m);

// A child of the jit module, mirrored as a submodule.
struct MirrorImpl : torch::nn::Module {
    explicit MirrorImpl(const torch::jit::Module& m) { mirror(*this, m); }
};

// One level of the jit module: its own parameters and buffers (the same
// tensors), then each child as a submodule, so names come out dotted as in
// Python; the snapshot stores them as "model/<name>" and "model/buffer/<name>".
void mirror(torch::nn::Module& into, const torch::jit::Module& m) {
    // A frozen parameter (requires_grad False) is state the optimizer must not touch: kept as a buffer.
    for (const auto& p : m.named_parameters(false)) {
        if (p.value.requires_grad())
            into.register_parameter(p.name, p.value);
        else
            into.register_buffer(p.name, p.value);
    }
    if (!planted_bug(PlantedBug::ScriptModelSkipBuffers))  // negative control (docs/RELIABILITY.md)
        for (const auto& b : m.named_buffers(false)) into.register_buffer(b.name, b.value);
    for (const auto& c : m.named_children()) into.register_module(c.name, std::make_shared<MirrorImpl>(c.value));
}

std::string first_line(const std::string& text) {
    const auto nl = text.find('\n');
    return nl == std::string::npos ? text : text.substr(0, nl);
}

// What a file that is not TorchScript holds, when LibTorch's pickle reader can tell.
bool is_plain_pickle_dict(const std::vector<char>& bytes) {
    try {
        return torch::pickle_load(bytes).isGenericDict();
    } catch (const std::exception&) {
        return false;
    }
}

std::string class_name(const torch::jit::Module& m) {
    return m.type()->name() ? m.type()->name()->name() : std::string("Module");
}

}  // namespace

ScriptModelImpl::ScriptModelImpl(torch::jit::Module module) : module_(std::move(module)) {
    type_name_ = class_name(module_);
    mirror(*this, module_);
    module_.train(true);
}

torch::Tensor ScriptModelImpl::forward(torch::Tensor x) {
    // The optimizing executor rewrites the graph after a few profiled runs: a
    // resumed process would run other kernels for its first steps than the
    // run that never stopped. Unoptimized, every step runs the same ops.
    torch::jit::GraphOptimizerEnabledGuard plain(false);
    torch::jit::IValue out = module_.forward({std::move(x)});
    if (!out.isTensor())
        throw InputError("model", "forward(x) to return a tensor", out.tagKind() + " (from " + type_name_ + ")");
    return out.toTensor();
}

void ScriptModelImpl::train(bool on) {
    ClassifierImpl::train(on);
    module_.train(on);
}

std::shared_ptr<ScriptModelImpl> load_script_model(const std::string& path, std::string* sha256) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        throw InputError("model", "mlp, dnn, cnn or a TorchScript file",
                         "'" + path + "' (" + (fs::exists(path, ec) ? "not a regular file" : "no such file") + ")");
    // Read once: the hash recorded is of the very bytes loaded.
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) throw InputError(path + ": could not be read");
    if (sha256) *sha256 = sha256_hex(bytes.data(), bytes.size());
    torch::jit::Module module;
    try {
        std::istringstream stream(std::string(bytes.data(), bytes.size()));
        module = torch::jit::load(stream, torch::kCPU);
    } catch (const c10::Error& e) {
        // A torch.save file is a zip like TorchScript's, without the code: a state dict, most often.
        const std::string why = e.what_without_backtrace();
        if (is_plain_pickle_dict(bytes) || why.find("constants.pkl") != std::string::npos)
            throw InputError(path +
                             ": expected a TorchScript module, found a file saved with torch.save (a state "
                             "dict?): Savepoint needs the model's code as well as its weights; in Python, "
                             "torch.jit.script(model).save(\"" +
                             fs::path(path).filename().string() + "\")");
        throw InputError(path +
                         ": expected a TorchScript module (torch.jit.script(model).save(...)), found a file "
                         "LibTorch cannot load as one: " +
                         first_line(why));
    }
    if (!module.find_method("forward"))
        throw InputError(path + ": expected a TorchScript module with a forward(x) method, found none");
    auto model = std::make_shared<ScriptModelImpl>(std::move(module));
    if (model->parameters().empty())
        throw InputError(path + ": expected a model with parameters to train, found none (" + model->type_name() +
                         " has only buffers, constants or parameters with requires_grad=False)");
    return model;
}

std::string model_display_name(const std::string& model) {
    if (is_builtin_model(model)) return model;
    return fs::path(model).filename().string();
}

}  // namespace savepoint
