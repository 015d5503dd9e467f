// Everything needed to continue training exactly, taken from the live model
// and optimizer at a step boundary. This is the only part of a checkpoint that
// blocks the training thread; serialising, hashing and writing happen on the
// I/O thread from these bytes, so the bytes hashed are the bytes written.
//
// The parameters and optimizer state are taken one of two ways (capture_way.h):
// copy-free, keeping the live tensors and freezing FusedAdam, whose next step
// writes into spares; or copied into buffers reused from one save to the next.
// Small state (step counts, RNG, module buffers, which the forward pass may
// change) is always copied.
#pragma once

#include "checkpoint/capture_way.h"
#include "checkpoint/snapshot_buffers.h"
#include "formats/checkpoint_format.h"
#include "storage/sha256_streams.h"

#include <torch/torch.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace savepoint {

class StateSnapshot {
public:
    // Takes parameters, buffers, optimizer state and RNG states.
    // Tensor names: "model/<name>", "optim/<param index>/<field>", "rng/cpu", "rng/cuda".
    void capture(torch::nn::Module& model, torch::optim::Optimizer& optimizer);
    // Copy-free where it applies (FusedAdam, FusedAdam::can_freeze); copying otherwise.
    void set_copy_free(bool on) { copy_free_ = on; }
    bool last_capture_was_copy_free() const { return last_copy_free_; }

    // What handing this capture to the I/O thread took the training thread
    // (the request, the queue, the wake-up): part of the checkpoint's stall.
    // Noted right after the hand-over, read at the commit, milliseconds later.
    void note_handover_ms(double ms) { handover_ms_.store(ms, std::memory_order_release); }
    double handover_ms() const { return handover_ms_.load(std::memory_order_acquire); }

    // Before training starts: lays out and touches the buffers a copying
    // capture will fill, so that the first capture inside the training loop
    // allocates nothing: the first touch of fresh memory (page faults, compaction
    // at times) would make the first capture many times dearer than every later
    // one (docs/PERFORMANCE.md, state snapshot). Adam's moments get the slots the
    // first step will create. Captures nothing; the next capture overwrites all.
    // Copy-free, it has FusedAdam make its spare buffers instead (reserve_spares).
    void reserve(torch::nn::Module& model, torch::optim::Optimizer& optimizer);

    // RawTensor views of the captured buffers, valid until the next capture.
    std::vector<RawTensor> raw_tensors() const;

    // SHA-256 of the model's parameter bytes in registration order.
    std::string params_sha256() const;
    // Those bytes as ranges, for a hash computed alongside others (sha256_streams.h).
    std::vector<Sha256Stream::Range> params_ranges() const;
    std::uint64_t bytes() const;

private:
    // The way this capture takes the large state, for this optimizer now.
    const CaptureWay& way_for(torch::optim::Optimizer& optimizer);

    SnapshotBuffers buffers_;
    std::size_t param_count_ = 0;  // the first entries are the model parameters
    bool copy_free_ = true;
    CopyFreeCapture copy_free_way_;
    CopyingCapture copying_way_;
    std::atomic<double> handover_ms_{0};
    bool last_copy_free_ = false;
    // What a capture walks in the model, found once per model: its parameters
    // and buffers under their snapshot names. Module::named_parameters builds
    // a dictionary of fresh strings on every call, a good share of a capture
    // (docs/PERFORMANCE.md, state snapshot). The weak pointer tells whether it is still the same
    // model, and while it is held a destroyed model's memory is not handed to
    // a new one (test_state_snapshot: snapshotFollowsTheModelItIsGiven). A
    // model's parameters and buffers are registered when it is constructed,
    // as every Savepoint model's are.
    struct ModuleLayout {
        std::weak_ptr<torch::nn::Module> model;
        std::vector<std::pair<std::string, torch::Tensor>> params, buffers;
    };
    ModuleLayout layout_;
    const ModuleLayout& layout_of(torch::nn::Module& model);
    // "optim/<index>/<field>" for each parameter index, made once.
    struct OptimNames {
        std::string step, exp_avg, exp_avg_sq, max_exp_avg_sq, momentum_buffer;
    };
    std::vector<OptimNames> optim_names_;
    const OptimNames& optim_names(std::size_t index);
};

// Writes the state in `contents` back into model, optimizer and RNGs. Throws
// CorruptCheckpoint if a tensor is missing or its shape or type disagrees
// with the model (a checkpoint of another model or config).
void restore_state(const CheckpointContents& contents, torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                   const std::string& name);

// A checkpoint's tensor as a LibTorch tensor of its type and shape (a copy, on the CPU).
torch::Tensor to_tensor(const RawTensor& t);

// SHA-256 of the live model's parameter bytes in registration order.
std::string params_sha256(torch::nn::Module& model);

}  // namespace savepoint
