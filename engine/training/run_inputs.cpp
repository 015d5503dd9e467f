#include "training/run_inputs.h"

#include "cuda/cuda_determinism.h"
#include "data/dataset_fingerprint.h"
#include "data/dataset_spec.h"
#include "data/tensor_file_dataset.h"  // tensor_shape_text
#include "model/script_model.h"
#include "platform/errors.h"
#include "training/cuda_kernel_check.h"
#include "training/device_choice.h"

#include <ATen/CPUGeneratorImpl.h>

#include <filesystem>
#include <mutex>
#include <sstream>

namespace savepoint {

namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

std::string shape_text(c10::IntArrayRef sizes) {
    std::ostringstream os;
    os << "[";
    for (std::size_t d = 0; d < sizes.size(); ++d) os << (d ? ", " : "") << sizes[d];
    os << "]";
    return os.str();
}

// The line of a LibTorch or TorchScript error that says what went wrong: the
// interpreter's own message comes last, after its traceback.
std::string reason(const std::exception& e) {
    const auto* c10 = dynamic_cast<const c10::Error*>(&e);
    std::string text = c10 ? c10->what_without_backtrace() : e.what();
    const auto at = text.rfind("Error: ");
    if (at != std::string::npos && text.find("TorchScript") != std::string::npos) text = text.substr(at + 7);
    return text.substr(0, text.find('\n'));
}

// The default CPU generator as it was: the dry run draws nothing the run would.
class GeneratorKept {
public:
    GeneratorKept() : gen_(at::detail::getDefaultCPUGenerator()) {
        std::lock_guard<std::mutex> l(gen_.mutex());
        state_ = gen_.get_state();
    }
    ~GeneratorKept() {
        std::lock_guard<std::mutex> l(gen_.mutex());
        gen_.set_state(state_);
    }

private:
    at::Generator gen_;
    torch::Tensor state_;
};

std::string model_name(ClassifierImpl& model, const TrainConfig& cfg) {
    if (auto* s = dynamic_cast<ScriptModelImpl*>(&model))
        return s->type_name() + " (" + model_display_name(cfg.model) + ")";
    return cfg.model;
}

// A label in `labels` that the model's `classes` logits cannot score, as an error.
void check_labels(const torch::Tensor& labels, std::int64_t classes, const char* key, const std::string& where) {
    if (labels.numel() == 0) return;
    const std::int64_t top = labels.max().item<std::int64_t>();
    if (top < classes) return;
    const std::int64_t first = labels.ge(classes).nonzero()[0][0].item<std::int64_t>();
    throw InputError(where + ": " + key + ": expected class labels from 0 to " + std::to_string(classes - 1) +
                     " (the model returns " + std::to_string(classes) + " logits), found label " + std::to_string(top) +
                     " (the first label out of range at index " + std::to_string(first) + ")");
}

}  // namespace

std::vector<std::string> DryRunReport::lines() const {
    std::vector<std::string> out;
    out.push_back("model:  " + model + ", " + std::to_string(parameters) + " parameters" +
                  (buffer_values ? ", " + std::to_string(buffer_values) + " buffer values" : ""));
    out.push_back("data:   " + data);
    out.push_back("input:  " + shape_text(input_shape) + " " + input_type);
    out.push_back("output: " + shape_text(output_shape) +
                  (classes ? " (" + std::to_string(classes) + " classes; every label fits)" : " (mse targets)"));
    return out;
}

RunInputs load_run_inputs(TrainConfig& cfg) {
    RunInputs in;
    if (is_tensor_file_spec(cfg.data)) {
        std::string sha;
        in.data = load_tensor_file(cfg.data, cfg.loss, &sha);
        cfg.data = absolute(cfg.data);
        cfg.data_sha256 = {{"file", sha}};
    } else {
        if (cfg.loss == "mse")
            throw InputError("loss", "'ce' for " + cfg.data + " (class labels; mse needs a FILE.pt with float targets)",
                             "'mse'");
        in.data = load_dataset(cfg.data);
        // A directory is recorded as an absolute path: a resume from another
        // working directory must find the same files, not fail or find others.
        if (!is_builtin_dataset(cfg.data)) cfg.data = absolute(cfg.data);
        cfg.data_sha256 = dataset_fingerprint(in.data);
    }
    // Built-in models draw their parameters from the seeded default generator: same seed, same bits.
    torch::manual_seed(cfg.seed);
    if (cfg.builtin_model()) {
        in.model = make_model(cfg.model);
    } else {
        in.model = load_script_model(cfg.model, &cfg.model_sha256);
        cfg.model = absolute(cfg.model);
    }
    return in;
}

std::shared_ptr<ClassifierImpl> load_recorded_model(const TrainConfig& cfg, const std::string& moved,
                                                    const std::string& run_name) {
    torch::manual_seed(cfg.seed);
    if (cfg.builtin_model()) {
        if (!moved.empty())
            throw InputError("model",
                             "no model file (run '" + run_name + "' trains the built-in model '" + cfg.model +
                                 "', which does not move)",
                             "'" + moved + "'")
                .with(Remedy{Remedy::Kind::LeaveModelOut, run_name});
        return make_model(cfg.model);
    }
    const std::string& path = moved.empty() ? cfg.model : moved;
    std::string sha;
    std::shared_ptr<ScriptModelImpl> model;
    try {
        model = load_script_model(path, &sha);
    } catch (const InputError& e) {
        if (!moved.empty()) throw;
        throw InputError(std::string(e.what()) + " (run '" + run_name + "' was created with the model in " + path + ")")
            .with(Remedy{Remedy::Kind::ModelMoved, run_name});
    }
    if (!cfg.model_sha256.empty() && sha != cfg.model_sha256)
        throw InputError(path + ": SHA-256: expected " + cfg.model_sha256 + " (the model file run '" + run_name +
                         "' was created with), found " + sha +
                         "; a changed model cannot continue the run's checkpoints (start a new run with it)");
    return model;
}

DryRunReport check_model_on_data(ClassifierImpl& model, const DatasetPair& data, const TrainConfig& cfg) {
    if (cfg.batch > data.train.size())
        throw InputError(
            "batch",
            "at most " + std::to_string(data.train.size()) + " (the samples in the training split of " + cfg.data + ")",
            std::to_string(cfg.batch), FieldRule::integers(1, data.train.size()));
    DryRunReport r;
    r.model = model_name(model, cfg);
    r.data = data.description;
    r.train_samples = data.train.size();
    r.test_samples = data.test.size();
    for (const auto& p : model.parameters()) r.parameters += p.numel();
    for (const auto& b : model.buffers()) r.buffer_values += b.numel();
    const std::int64_t n = std::min(cfg.batch, data.train.size());
    const bool bytes = data.train.images.scalar_type() == torch::kUInt8;
    torch::Tensor x = data.train.images.narrow(0, 0, n);
    x = bytes ? pixels_to_float(x) : x;
    r.input_shape = x.sizes().vec();
    r.input_type = bytes ? "float32 (uint8 scaled to [0, 1])" : "float32";
    torch::Tensor out;
    {
        GeneratorKept kept;
        const bool was_training = model.is_training();
        model.eval();
        try {
            c10::InferenceMode inference;
            out = model.forward(x);
        } catch (const std::exception& e) {
            model.train(was_training);
            throw InputError("model " + r.model + ": forward(x) failed on a batch of shape " + shape_text(x.sizes()) +
                             " from train_x of " + data.description + ": " + reason(e));
        }
        model.train(was_training);
    }
    r.output_shape = out.sizes().vec();
    const std::string where = "model " + r.model;
    if (!at::isFloatingType(out.scalar_type()))
        throw InputError(where + ": output: expected floating-point values, found " + tensor_shape_text(out));
    if (cfg.loss == "ce") {
        if (out.dim() != 2 || out.size(0) != n)
            throw InputError(where + ": output: expected logits of shape [" + std::to_string(n) +
                             ", classes] for a batch of " + std::to_string(n) + ", found " + shape_text(out.sizes()));
        r.classes = out.size(1);
        check_labels(data.train.labels, r.classes, "train_y", cfg.data);
        check_labels(data.test.labels, r.classes, "test_y", cfg.data);
    } else {
        const torch::Tensor y = data.train.labels.narrow(0, 0, n);
        if (out.sizes() != y.sizes())
            throw InputError(where + ": output: expected the targets' shape " + shape_text(y.sizes()) +
                             " (loss 'mse'), found " + shape_text(out.sizes()));
    }
    if (!torch::isfinite(out).all().item<bool>())
        throw InputError(where + ": output: expected finite values for finite inputs, found NaN or infinity");
    return r;
}

DryRunReport dry_run(TrainConfig cfg) {
    cfg.validate();
    refuse_unusable_device(cfg);
    RunInputs in = load_run_inputs(cfg);
    DryRunReport r = check_model_on_data(*in.model, in.data, cfg);
    if (!cfg.builtin_model() && trains_on_cuda(cfg)) {
        use_deterministic_cuda();
        check_deterministic_kernels(*in.model, in.data, cfg, torch::Device(torch::kCUDA, 0));
    }
    return r;
}

}  // namespace savepoint
