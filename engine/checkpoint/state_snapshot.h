// Everything needed to continue training exactly, taken from the live model
// and optimizer at a step boundary. This is the only part of a checkpoint that
// blocks the training thread; serialising, hashing and writing happen on the
// I/O thread from these bytes, so the bytes hashed are the bytes written.
//
// Three ways to take it (CaptureMode in trainer.h picks one; Auto may switch
// between copying and the background copy from one save to the next):
// - Copy-free: with FusedAdam on the CPU the snapshot keeps the live
//   parameter and moment tensors themselves and freezes the optimizer, whose
//   next step writes into spare buffers instead.
// - Copying: they are copied into buffers reused from one save to the next,
//   on the training thread; with FusedAdam, by the update before the capture
//   (arm_update_copy), which is cheaper (docs/PERFORMANCE.md, state snapshot).
// - Background copy: the same copy, left to the I/O thread. Only the next
//   optimizer step writes those tensors, so they stay as captured through
//   that step's forward and backward pass, time enough
//   for another core to copy them. finish_copies() is the gate: the training
//   thread passes it before the optimizer step, and every reader of the
//   snapshot before reading; whoever gets there first does the copying, the
//   other helps with what is left and waits for the rest.
// Small state (step counts, RNG, module buffers, which the forward pass may
// change) is always copied at once.
#pragma once

#include "formats/checkpoint_format.h"

#include <torch/torch.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace savepoint {

class StateSnapshot {
public:
    // Copies parameters, buffers, optimizer state and RNG states.
    // Tensor names: "model/<name>", "optim/<param index>/<field>", "rng/cpu", "rng/cuda".
    void capture(torch::nn::Module& model, torch::optim::Optimizer& optimizer);
    void set_copy_free(bool on) { copy_free_ = on; }
    // A copying capture leaves its large copies (parameters, optimizer state)
    // to finish_copies(). Nothing may write those tensors until it returns.
    void set_background_copy(bool on) { background_copy_ = on; }
    bool background_copy() const { return background_copy_; }

    // Does the copies a background capture left, together with any other
    // thread doing the same, and returns once all are done: the seconds that
    // took (0 when none were pending). Safe from any thread.
    double finish_copies(bool training_thread = false) const;
    bool copies_pending() const { return pending_.load(std::memory_order_acquire); }
    // What the training thread (`training_thread` in finish_copies) spent on
    // the last capture's copies: part of the checkpoint's stall.
    double training_copy_ms() const { return training_copy_ms_.load(std::memory_order_acquire); }
    // What handing this capture to the I/O thread took the training thread
    // (the request, the queue, the wake-up): part of the checkpoint's stall too.
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
    bool last_capture_was_copy_free() const { return last_copy_free_; }

    // A copying capture whose large copies the optimizer update before it
    // makes (FusedAdam::copy_next_update_into): each chunk of new parameters
    // and moments goes into this snapshot's buffers while still in L1, and
    // the capture after that step copies only the small state. Call right
    // before the step after which the capture is due, and only while no save
    // reads this snapshot (CheckpointWriter::snapshot_busy). Returns false,
    // arming nothing, where it does not apply (not FusedAdam, a copy-free
    // capture, no layout yet); the capture then copies as usual. A capture
    // uses the update's copies only if they are of the optimizer's latest
    // step, so a capture taken later (a skipped or deferred save) copies.
    bool arm_update_copy(torch::nn::Module& model, torch::optim::Optimizer& optimizer);
    bool last_capture_was_update_copy() const { return last_update_copy_; }
    bool last_capture_was_background() const { return !pieces_.empty(); }

    // RawTensor views of the captured buffers, valid until the next capture.
    // These readers finish any pending copies first.
    std::vector<RawTensor> raw_tensors() const;

    // SHA-256 of the model's parameter bytes in registration order.
    std::string params_sha256() const;
    // Those bytes as ranges, for a hash computed alongside others (sha256_streams.h).
    std::vector<Sha256Stream::Range> params_ranges() const;
    std::uint64_t bytes() const;

private:
    void grow_to(std::size_t index);
    void copy_into(std::size_t index, const std::string& name, const torch::Tensor& src, bool may_defer = false);
    void keep_live(std::size_t index, const std::string& name, const torch::Tensor& live);
    void copy_scalar_into(std::size_t index, const std::string& name, std::int64_t value);
    torch::Tensor& owned_buffer(std::size_t index, c10::IntArrayRef sizes, c10::ScalarType type);

    std::vector<std::string> names_;
    std::vector<torch::Tensor> buffers_;  // CPU, contiguous
    std::vector<bool> owned_;             // false: a live tensor kept by a copy-free capture, never written here
    std::size_t param_count_ = 0;         // the first entries are the model parameters
    bool copy_free_ = true;
    bool background_copy_ = false;
    // A background capture's copies, in pieces that two threads can share.
    struct Piece {
        void* dst;
        const void* src;
        std::size_t bytes;
    };
    std::vector<Piece> pieces_;
    std::vector<c10::Storage> sources_;  // keeps the live storages alive until copied
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
    mutable std::atomic<std::size_t> next_piece_{0};
    mutable std::atomic<std::size_t> pieces_done_{0};
    mutable std::atomic<bool> pending_{false};
    mutable std::atomic<double> training_copy_ms_{0};
    std::atomic<double> handover_ms_{0};
    bool reserving_ = false;  // inside reserve(): buffers are made and touched, not filled
    bool last_copy_free_ = false;
    // Where the last capture put each optimizer parameter's value and Adam
    // moments (slots into buffers_), for arm_update_copy.
    struct UpdateSlots {
        const void* param;  // TensorImpl
        std::size_t value, exp_avg, exp_avg_sq;
    };
    std::vector<UpdateSlots> update_slots_;
    std::vector<bool> armed_slot_;  // slots the armed update fills
    std::int64_t armed_step_ = -1;  // FusedAdam::steps_taken() of the step that fills them
    std::size_t armed_params_ = 0;
    bool last_update_copy_ = false;
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
