#include "checkpoint/state_snapshot.h"

#include "model/fused_adam.h"
#include "model/optimizer_state_key.h"
#include "platform/errors.h"
#include "platform/planted_bugs.h"
#include "storage/sha256.h"
#include "storage/stream_copy.h"

#include <ATen/Context.h>

#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

void StateSnapshot::grow_to(std::size_t index) {
    if (index < buffers_.size()) return;
    buffers_.resize(index + 1);
    names_.resize(index + 1);
    owned_.resize(index + 1, false);
}

// The snapshot's own CPU buffer at `index`, reused from the last capture;
// reallocated only when the shape or type changed (first capture, or Adam
// state appearing after step 1) or when the slot holds a live tensor from a
// copy-free capture.
torch::Tensor& StateSnapshot::owned_buffer(std::size_t index, c10::IntArrayRef sizes, c10::ScalarType type) {
    grow_to(index);
    torch::Tensor& dst = buffers_[index];
    if (!owned_[index] || !dst.defined() || dst.sizes() != sizes || dst.scalar_type() != type) {
        dst = torch::empty(sizes, torch::TensorOptions().dtype(type).device(torch::kCPU));
        owned_[index] = true;
    }
    return dst;
}

namespace {

// A background capture's copies go in pieces of this size: small enough that
// the training thread, arriving at the optimizer step before the I/O thread
// is done, can take over what is left and wait for at most one piece in
// progress; large enough that handing them out costs nothing measurable.
constexpr std::size_t kPieceBytes = 256 * 1024;
// Below this a copy is left to the capture itself: microseconds, not worth a hand-over.
constexpr std::size_t kBackgroundMinBytes = 64 * 1024;

void cpu_relax(unsigned spins) {
#if defined(__x86_64__)
    _mm_pause();
#endif
    // On a busy or single CPU, give the thread being waited for a chance to
    // run; past a few thousand spins (it was descheduled), stop burning CPU
    // time a quota may be counting.
    if (spins > 4096)
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    else if (spins % 64 == 63)
        std::this_thread::yield();
}

}  // namespace

// Copies `src` into the reused buffer at `index`; or, for a background
// capture and a tensor only the optimizer step writes (`may_defer`), records
// the copy for finish_copies().
void StateSnapshot::copy_into(std::size_t index, const std::string& name, const torch::Tensor& src, bool may_defer) {
    torch::Tensor& dst = owned_buffer(index, src.sizes(), src.scalar_type());
    names_[index] = name;
    if (reserving_) {
        // Every page written once now, so that the first real capture faults none.
        std::memset(dst.data_ptr(), 0, dst.numel() * dst.element_size());
        return;
    }
    const std::size_t bytes = src.numel() * src.element_size();
    if (may_defer && background_copy_ && src.device().is_cpu() && src.is_contiguous() && bytes >= kBackgroundMinBytes) {
        auto* d = static_cast<std::uint8_t*>(dst.data_ptr());
        const auto* from = static_cast<const std::uint8_t*>(src.data_ptr());
        for (std::size_t at = 0; at < bytes; at += kPieceBytes)
            pieces_.push_back({d + at, from + at, std::min(kPieceBytes, bytes - at)});
        sources_.push_back(src.storage());  // this storage, whatever set_data() later does to the parameter
        return;
    }
    // Same type, contiguous, on the CPU: a plain memcpy, without copy_'s
    // dispatch and TensorIterator set-up for what is one block of bytes.
    if (src.device().is_cpu() && src.is_contiguous())
        copy_streaming(dst.data_ptr(), src.data_ptr(), bytes);
    else
        dst.copy_(src.detach());
}

// Writes a step count into the reused 0-d int64 buffer at `index`: no
// temporary tensor per capture (torch::tensor costs a dispatch and an allocation).
void StateSnapshot::copy_scalar_into(std::size_t index, const std::string& name, std::int64_t value) {
    torch::Tensor& dst = owned_buffer(index, {}, torch::kInt64);
    *dst.data_ptr<std::int64_t>() = value;
    names_[index] = name;
}

// Keeps the live tensor itself (copy-free capture; the optimizer is frozen).
void StateSnapshot::keep_live(std::size_t index, const std::string& name, const torch::Tensor& live) {
    grow_to(index);
    buffers_[index] = live.detach();  // an alias of the live storage, which the frozen optimizer leaves alone
    owned_[index] = false;
    names_[index] = name;
}

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

double StateSnapshot::finish_copies(bool training_thread) const {
    if (!pending_.load(std::memory_order_acquire)) return 0;
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t n = pieces_.size();
    for (std::size_t i = next_piece_.fetch_add(1, std::memory_order_relaxed); i < n;
         i = next_piece_.fetch_add(1, std::memory_order_relaxed)) {
        copy_streaming(pieces_[i].dst, pieces_[i].src,
                       pieces_[i].bytes);  // fenced: the stores are visible before the count
        pieces_done_.fetch_add(1, std::memory_order_release);
    }
    // The other thread may still be on the piece it took.
    for (unsigned spins = 0; pieces_done_.load(std::memory_order_acquire) < n; ++spins) cpu_relax(spins);
    pending_.store(false, std::memory_order_release);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (training_thread) training_copy_ms_.store(ms, std::memory_order_release);
    return ms / 1000;
}

void StateSnapshot::capture(torch::nn::Module& model, torch::optim::Optimizer& optimizer) {
    torch::NoGradGuard no_grad;
    // A capture comes only after the previous save is written, whose first act
    // was to finish these; this keeps a capture without a save between (tests) safe too.
    finish_copies();
    pieces_.clear();
    sources_.clear();
    next_piece_.store(0, std::memory_order_relaxed);
    pieces_done_.store(0, std::memory_order_relaxed);
    training_copy_ms_.store(0, std::memory_order_relaxed);
    handover_ms_.store(0, std::memory_order_relaxed);
    auto* fused = dynamic_cast<FusedAdam*>(&optimizer);
    const bool copy_free = copy_free_ && fused && fused->can_freeze();
    // The update just taken wrote the armed slots, all of them, and nothing
    // has stepped since (a capture any later must copy: those bytes are old).
    // Negative control (docs/RELIABILITY.md): take an armed update's copies however many steps ago.
    const bool fresh = fused && (armed_step_ == fused->steps_taken() || planted_bug(PlantedBug::StaleUpdateCopy));
    const bool update_copied = !reserving_ && !copy_free && fresh && armed_step_ >= 0 &&
                               fused->copied_through() == armed_step_ && fused->copied_count() == armed_params_;
    armed_step_ = -1;
    // Parameters and optimizer state: only the optimizer step writes them.
    auto take = [&](std::size_t index, const std::string& name, const torch::Tensor& t) {
        if (copy_free)
            keep_live(index, name, t);
        else if (update_copied && index < armed_slot_.size() && armed_slot_[index])
            names_[index] = name;
        else
            copy_into(index, name, t, true);
    };
    std::size_t i = 0;
    const ModuleLayout& layout = layout_of(model);
    for (const auto& [name, p] : layout.params) take(i++, name, p);
    param_count_ = i;
    update_slots_.clear();
    for (const auto& [name, b] : layout.buffers) copy_into(i++, name, b);

    auto& state = optimizer.state();
    const bool adam = reserving_ && dynamic_cast<torch::optim::Adam*>(&optimizer) != nullptr;
    std::size_t index = 0;
    for (const auto& group : optimizer.param_groups()) {
        // reserve() only: whether Adam's first step will give this group's parameters step, exp_avg, exp_avg_sq.
        const bool adam_layout = adam && !static_cast<const torch::optim::AdamOptions&>(group.options()).amsgrad();
        for (const auto& p : group.params()) {
            auto it = state.find(optimizer_state_key(state, p));
            const OptimNames& names = optim_names(index++);
            // The parameter's own slot among the model's (the same tensor, registered there).
            std::size_t value_slot = param_count_;
            for (std::size_t k = 0; k < param_count_; ++k)
                if (layout.params[k].second.unsafeGetTensorImpl() == p.unsafeGetTensorImpl()) value_slot = k;
            if (it == state.end()) {
                // Before the first step: the slots Adam's first step will create (no amsgrad).
                if (adam_layout) {
                    copy_scalar_into(i++, names.step, 0);
                    update_slots_.push_back({p.unsafeGetTensorImpl(), value_slot, i, i + 1});
                    copy_into(i++, names.exp_avg, p);
                    copy_into(i++, names.exp_avg_sq, p);
                }
                continue;
            }
            if (auto* adam = dynamic_cast<torch::optim::AdamParamState*>(it->second.get())) {
                copy_scalar_into(i++, names.step, adam->step());
                if (!adam->max_exp_avg_sq().defined())
                    update_slots_.push_back({p.unsafeGetTensorImpl(), value_slot, i, i + 1});
                take(i++, names.exp_avg, adam->exp_avg());
                take(i++, names.exp_avg_sq, adam->exp_avg_sq());
                if (adam->max_exp_avg_sq().defined())
                    copy_into(i++, names.max_exp_avg_sq, adam->max_exp_avg_sq(), true);
            } else if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(it->second.get())) {
                if (sgd->momentum_buffer().defined())
                    copy_into(i++, names.momentum_buffer, sgd->momentum_buffer(), true);
            }
        }
    }
    copy_into(i++, "rng/cpu", generator_state(c10::DeviceType::CPU));
    if (torch::cuda::is_available()) copy_into(i++, "rng/cuda", generator_state(c10::DeviceType::CUDA));
    buffers_.resize(i);
    names_.resize(i);
    owned_.resize(i);
    // Published last: a reader that sees the flag sees every piece.
    if (!pieces_.empty()) pending_.store(true, std::memory_order_release);
    // Last: from here on the optimizer's next step leaves the kept tensors alone.
    if (copy_free) fused->freeze();
    last_copy_free_ = copy_free;
    last_update_copy_ = update_copied;
}

bool StateSnapshot::arm_update_copy(torch::nn::Module& model, torch::optim::Optimizer& optimizer) {
    armed_step_ = -1;
    auto* fused = dynamic_cast<FusedAdam*>(&optimizer);
    if (!fused || (copy_free_ && fused->can_freeze()) || !fused->can_freeze() || copies_pending() ||
        update_slots_.empty())
        return false;
    const ModuleLayout& layout = layout_of(model);
    std::vector<FusedAdam::UpdateCopy> targets;
    armed_slot_.assign(buffers_.size(), false);
    for (const auto& u : update_slots_) {
        if (u.value >= layout.params.size() || u.exp_avg_sq >= buffers_.size()) return false;
        const torch::Tensor& live = layout.params[u.value].second;
        const std::int64_t n = live.numel();
        // The slots as the last capture (or reserve) left them: this snapshot's own
        // float buffers of the parameter's size. A copy-free capture's slots hold
        // live tensors instead, which must never be written: not armed.
        for (std::size_t slot : {u.value, u.exp_avg, u.exp_avg_sq}) {
            const torch::Tensor& b = buffers_[slot];
            if (!owned_[slot] || !b.defined() || b.scalar_type() != torch::kFloat32 || b.numel() != n ||
                !b.is_contiguous())
                return false;
            armed_slot_[slot] = true;
        }
        targets.push_back({u.param, buffers_[u.value].data_ptr<float>(), buffers_[u.exp_avg].data_ptr<float>(),
                           buffers_[u.exp_avg_sq].data_ptr<float>(), n});
    }
    armed_params_ = targets.size();
    fused->copy_next_update_into(std::move(targets));
    armed_step_ = fused->steps_taken() + 1;
    return true;
}

void StateSnapshot::reserve(torch::nn::Module& model, torch::optim::Optimizer& optimizer) {
    // A copy-free capture keeps the live tensors; what needs making is the
    // optimizer's spares, which the first frozen step would otherwise allocate.
    auto* fused = dynamic_cast<FusedAdam*>(&optimizer);
    if (copy_free_ && fused && fused->can_freeze()) {
        fused->reserve_spares();
        return;
    }
    reserving_ = true;
    try {
        capture(model, optimizer);
    } catch (...) {
        reserving_ = false;
        throw;
    }
    reserving_ = false;
}

std::vector<RawTensor> StateSnapshot::raw_tensors() const {
    finish_copies();
    std::vector<RawTensor> out;
    out.reserve(buffers_.size());
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
        const auto& b = buffers_[i];
        RawTensor r;
        r.name = names_[i];
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
    finish_copies();
    std::vector<Sha256Stream::Range> out;
    for (std::size_t i = 0; i < param_count_; ++i)
        out.push_back(
            {buffers_[i].data_ptr(), static_cast<std::size_t>(buffers_[i].numel() * buffers_[i].element_size())});
    return out;
}

std::uint64_t StateSnapshot::bytes() const {
    std::uint64_t n = 0;
    for (const auto& b : buffers_) n += b.numel() * b.element_size();
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
