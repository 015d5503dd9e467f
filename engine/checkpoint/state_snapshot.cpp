#include "checkpoint/state_snapshot.h"

#include "model/fused_adam.h"
#include "model/optimizer_state_key.h"
#include "platform/errors.h"
#include "platform/planted_bugs.h"
#include "storage/sha256.h"

#include <ATen/Context.h>

namespace savepoint {
namespace {

DType to_dtype(c10::ScalarType t) {
    switch (t) {
        case torch::kFloat32:
            return DType::F32;
        case torch::kFloat64:
            return DType::F64;
        case torch::kInt64:
            return DType::I64;
        case torch::kUInt8:
            return DType::U8;
        case torch::kInt32:
            return DType::I32;
        case torch::kFloat16:
            return DType::F16;
        case torch::kBFloat16:
            return DType::BF16;
        default:
            throw std::runtime_error("checkpoint: unsupported tensor type " + std::string(c10::toString(t)));
    }
}

c10::ScalarType to_scalar(DType t) {
    switch (t) {
        case DType::F32:
            return torch::kFloat32;
        case DType::F64:
            return torch::kFloat64;
        case DType::I64:
            return torch::kInt64;
        case DType::U8:
            return torch::kUInt8;
        case DType::I32:
            return torch::kInt32;
        case DType::F16:
            return torch::kFloat16;
        case DType::BF16:
            return torch::kBFloat16;
    }
    return torch::kFloat32;
}

}  // namespace

namespace {

torch::Tensor generator_state(c10::DeviceType type) {
    auto gen = at::globalContext().defaultGenerator(c10::Device(type));
    std::lock_guard<std::mutex> lock(gen.mutex());
    return gen.get_state();
}

void set_generator_state(c10::DeviceType type, const torch::Tensor& state) {
    auto gen = at::globalContext().defaultGenerator(c10::Device(type));
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(state);
}

const RawTensor* find(const CheckpointContents& c, const std::string& name) {
    for (const auto& t : c.tensors)
        if (t.name == name) return &t;
    return nullptr;
}

}  // namespace

torch::Tensor to_tensor(const RawTensor& t) {
    auto opts = torch::TensorOptions().dtype(to_scalar(t.dtype));
    if (t.nbytes == 0) return torch::empty(t.dims, opts);
    return torch::from_blob(const_cast<std::uint8_t*>(t.data), t.dims, opts).clone();
}

const StateSnapshot::ModuleLayout& StateSnapshot::layout_of(torch::nn::Module& model) {
    const std::shared_ptr<torch::nn::Module> held = layout_.model.lock();
    if (held && held.get() == &model) return layout_;
    layout_ = {};
    // Empty when no shared_ptr owns the model: the walk below is then redone
    // on every capture, since nothing tells this model from a later one.
    layout_.model = model.weak_from_this();
    for (const auto& p : model.named_parameters(true)) layout_.params.emplace_back("model/" + p.key(), p.value());
    for (const auto& b : model.named_buffers(true)) layout_.buffers.emplace_back("model/buffer/" + b.key(), b.value());
    return layout_;
}

const StateSnapshot::OptimNames& StateSnapshot::optim_names(std::size_t index) {
    while (optim_names_.size() <= index) {
        const std::string prefix = "optim/" + std::to_string(optim_names_.size()) + "/";
        optim_names_.push_back({prefix + "step", prefix + "exp_avg", prefix + "exp_avg_sq", prefix + "max_exp_avg_sq",
                                prefix + "momentum_buffer"});
    }
    return optim_names_[index];
}

const CaptureWay& StateSnapshot::way_for(torch::optim::Optimizer& optimizer) {
    auto* fused = dynamic_cast<FusedAdam*>(&optimizer);
    if (copy_free_ && fused && fused->can_freeze()) return copy_free_way_;
    return copying_way_;
}

void StateSnapshot::capture(torch::nn::Module& model, torch::optim::Optimizer& optimizer) {
    torch::NoGradGuard no_grad;
    handover_ms_.store(0, std::memory_order_relaxed);
    const CaptureWay& way = way_for(optimizer);
    // Parameters and optimizer state, which only the optimizer step writes, go
    // the way's way; the rest is copied.
    auto take = [&](std::size_t index, const std::string& name, const torch::Tensor& t) {
        way.take(buffers_, index, name, t);
    };
    std::size_t i = 0;
    const ModuleLayout& layout = layout_of(model);
    for (const auto& [name, p] : layout.params) take(i++, name, p);
    param_count_ = i;
    for (const auto& [name, b] : layout.buffers) buffers_.copy_into(i++, name, b);

    auto& state = optimizer.state();
    // Laying out only: whether Adam's first step will give the parameters step, exp_avg, exp_avg_sq.
    const bool adam = buffers_.laying_out() && dynamic_cast<torch::optim::Adam*>(&optimizer) != nullptr;
    std::size_t index = 0;
    for (const auto& group : optimizer.param_groups()) {
        const bool adam_layout = adam && !static_cast<const torch::optim::AdamOptions&>(group.options()).amsgrad();
        for (const auto& p : group.params()) {
            auto it = state.find(optimizer_state_key(state, p));
            const OptimNames& names = optim_names(index++);
            if (it == state.end()) {
                // Before the first step: the slots Adam's first step will create (no amsgrad).
                if (adam_layout) {
                    buffers_.copy_scalar_into(i++, names.step, 0);
                    buffers_.copy_into(i++, names.exp_avg, p);
                    buffers_.copy_into(i++, names.exp_avg_sq, p);
                }
                continue;
            }
            if (auto* adam = dynamic_cast<torch::optim::AdamParamState*>(it->second.get())) {
                buffers_.copy_scalar_into(i++, names.step, adam->step());
                take(i++, names.exp_avg, adam->exp_avg());
                take(i++, names.exp_avg_sq, adam->exp_avg_sq());
                if (adam->max_exp_avg_sq().defined())
                    buffers_.copy_into(i++, names.max_exp_avg_sq, adam->max_exp_avg_sq());
            } else if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(it->second.get())) {
                if (sgd->momentum_buffer().defined())
                    buffers_.copy_into(i++, names.momentum_buffer, sgd->momentum_buffer());
            }
        }
    }
    buffers_.copy_into(i++, "rng/cpu", generator_state(c10::DeviceType::CPU));
    if (torch::cuda::is_available()) buffers_.copy_into(i++, "rng/cuda", generator_state(c10::DeviceType::CUDA));
    buffers_.resize(i);
    if (!buffers_.laying_out()) way.taken(optimizer);
    last_copy_free_ = way.copy_free() && !buffers_.laying_out();
}

void StateSnapshot::reserve(torch::nn::Module& model, torch::optim::Optimizer& optimizer) {
    if (way_for(optimizer).reserve(optimizer)) return;
    // Inside reserve() the buffers are made and touched, not filled; however capture() ends.
    struct LayingOut {
        SnapshotBuffers& b;
        ~LayingOut() { b.set_laying_out(false); }
    } laying_out{buffers_};
    buffers_.set_laying_out(true);
    capture(model, optimizer);
}

std::vector<RawTensor> StateSnapshot::raw_tensors() const {
    std::vector<RawTensor> out;
    out.reserve(buffers_.size());
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
        const auto& b = buffers_.at(i);
        RawTensor r;
        r.name = buffers_.name(i);
        r.dtype = to_dtype(b.scalar_type());
        r.dims.assign(b.sizes().begin(), b.sizes().end());
        r.data = static_cast<const std::uint8_t*>(b.data_ptr());
        r.nbytes = b.numel() * b.element_size();
        out.push_back(std::move(r));
    }
    return out;
}

std::string StateSnapshot::params_sha256() const {
    std::vector<Sha256Stream> s(1);
    s[0].ranges = params_ranges();
    sha256_streams(s);
    return to_hex(s[0].digest.data(), s[0].digest.size());
}

std::vector<Sha256Stream::Range> StateSnapshot::params_ranges() const {
    std::vector<Sha256Stream::Range> out;
    for (std::size_t i = 0; i < param_count_; ++i) {
        const torch::Tensor& b = buffers_.at(i);
        out.push_back({b.data_ptr(), static_cast<std::size_t>(b.numel() * b.element_size())});
    }
    return out;
}

std::uint64_t StateSnapshot::bytes() const {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < buffers_.size(); ++i) n += buffers_.at(i).numel() * buffers_.at(i).element_size();
    return n;
}

std::string params_sha256(torch::nn::Module& model) {
    Sha256 h;
    for (const auto& p : model.parameters(true)) {
        torch::Tensor c = p.detach().to(torch::kCPU).contiguous();
        h.update(c.data_ptr(), c.numel() * c.element_size());
    }
    auto d = h.finish();
    return to_hex(d.data(), d.size());
}

void restore_state(const CheckpointContents& contents, torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                   const std::string& name) {
    torch::NoGradGuard no_grad;
    auto require = [&](const std::string& key, const torch::Tensor& like) -> torch::Tensor {
        const RawTensor* raw = find(contents, key);
        if (!raw) throw CorruptCheckpoint(name + ": tensor '" + key + "' is missing (checkpoint of another model?)");
        torch::Tensor t = to_tensor(*raw);
        if (like.defined() && (t.sizes() != like.sizes() || t.scalar_type() != like.scalar_type()))
            throw CorruptCheckpoint(name + ": tensor '" + key + "': expected shape " + c10::str(like.sizes()) +
                                    ", found " + c10::str(t.sizes()));
        return t;
    };
    for (auto& p : model.named_parameters(true)) p.value().copy_(require("model/" + p.key(), p.value()));
    for (auto& b : model.named_buffers(true)) b.value().copy_(require("model/buffer/" + b.key(), b.value()));

    auto& state = optimizer.state();
    state.clear();
    std::size_t index = 0;
    const bool adam = dynamic_cast<torch::optim::Adam*>(&optimizer) != nullptr;
    for (auto& group : optimizer.param_groups()) {
        for (auto& p : group.params()) {
            const std::string prefix = "optim/" + std::to_string(index++) + "/";
            const auto device = p.device();
            if (adam) {
                if (!find(contents, prefix + "step")) continue;  // saved before the first step
                auto s = std::make_unique<torch::optim::AdamParamState>();
                s->step(require(prefix + "step", {}).item<std::int64_t>());
                s->exp_avg(require(prefix + "exp_avg", p).to(device));
                s->exp_avg_sq(require(prefix + "exp_avg_sq", p).to(device));
                if (find(contents, prefix + "max_exp_avg_sq"))
                    s->max_exp_avg_sq(require(prefix + "max_exp_avg_sq", p).to(device));
                state[optimizer_state_key(state, p)] = std::move(s);
            } else if (find(contents, prefix + "momentum_buffer")) {
                auto s = std::make_unique<torch::optim::SGDParamState>();
                s->momentum_buffer(require(prefix + "momentum_buffer", p).to(device));
                state[optimizer_state_key(state, p)] = std::move(s);
            }
        }
    }
    if (!planted_bug(PlantedBug::DropRng)) set_generator_state(c10::DeviceType::CPU, require("rng/cpu", {}));
    if (torch::cuda::is_available() && find(contents, "rng/cuda"))
        set_generator_state(c10::DeviceType::CUDA, require("rng/cuda", {}));
}

}  // namespace savepoint
