// Everything needed to continue training exactly, taken from the live model
// and optimizer at a step boundary. This is the only part of a checkpoint that
// blocks the training thread; serialising, hashing and writing happen on the
// I/O thread from these bytes, so the bytes hashed are the bytes written.
//
// Two ways to take it. With FusedAdam on the CPU the snapshot keeps the live
// parameter and moment tensors themselves and freezes the optimizer, whose
// next step writes into spare buffers instead (no copy: ~5 MB for mlp that
// would cost the training thread ~0.7 ms). Otherwise (CUDA, SGD, amsgrad...)
// they are copied into buffers reused from one save to the next. Small state
// (step counts, RNG, module buffers) is always copied.
#pragma once

#include "checkpoint_format.h"

#include <torch/torch.h>

#include <string>
#include <vector>

namespace savepoint {

class StateSnapshot {
public:
    // Copies parameters, buffers, optimizer state and RNG states.
    // Tensor names: "model/<name>", "optim/<param index>/<field>", "rng/cpu", "rng/cuda".
    void capture(torch::nn::Module& model, torch::optim::Optimizer& optimizer);
    void set_copy_free(bool on) { copy_free_ = on; }

    // Before training starts: lays out and touches the buffers a copying
    // capture will fill, so that the first capture inside the training loop
    // allocates nothing. For mlp that first touch of ~5 MB cost the first
    // capture 2-20 ms on these VMs (huge-page faults, compaction at times),
    // against ~0.2 ms for every later one. Adam's moments get the slots the
    // first step will create. Captures nothing; the next capture overwrites all.
    // Copy-free, it has FusedAdam make its spare buffers instead (reserve_spares).
    void reserve(torch::nn::Module& model, torch::optim::Optimizer& optimizer);
    bool last_capture_was_copy_free() const { return last_copy_free_; }

    // RawTensor views of the captured buffers, valid until the next capture.
    std::vector<RawTensor> raw_tensors() const;

    // SHA-256 of the model's parameter bytes in registration order.
    std::string params_sha256() const;
    // Those bytes as ranges, for a hash computed alongside others (sha256_streams.h).
    std::vector<Sha256Stream::Range> params_ranges() const;
    std::uint64_t bytes() const;

private:
    void grow_to(std::size_t index);
    void copy_into(std::size_t index, const std::string& name, const torch::Tensor& src);
    void keep_live(std::size_t index, const std::string& name, const torch::Tensor& live);
    void copy_scalar_into(std::size_t index, const std::string& name, std::int64_t value);
    torch::Tensor& owned_buffer(std::size_t index, c10::IntArrayRef sizes, c10::ScalarType type);

    std::vector<std::string> names_;
    std::vector<torch::Tensor> buffers_;  // CPU, contiguous
    std::vector<bool> owned_;             // false: a live tensor kept by a copy-free capture, never written here
    std::size_t param_count_ = 0;         // the first entries are the model parameters
    bool copy_free_ = true;
    bool reserving_ = false;  // inside reserve(): buffers are made and touched, not filled
    bool last_copy_free_ = false;
};

// Writes the state in `contents` back into model, optimizer and RNGs. Throws
// CorruptCheckpoint if a tensor is missing or its shape or type disagrees
// with the model (a checkpoint of another model or config).
void restore_state(const CheckpointContents& contents, torch::nn::Module& model,
                   torch::optim::Optimizer& optimizer, const std::string& name);

// SHA-256 of the live model's parameter bytes in registration order.
std::string params_sha256(torch::nn::Module& model);

}  // namespace savepoint
