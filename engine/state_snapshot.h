// Everything needed to continue training exactly, copied out of the live
// model and optimizer at a step boundary into buffers that are reused from one
// save to the next. The copy is the only part of a checkpoint that blocks the
// training thread; serialising, hashing and writing happen on the I/O thread
// from these bytes, so the bytes hashed are the bytes written.
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

    // RawTensor views of the captured buffers, valid until the next capture.
    std::vector<RawTensor> raw_tensors() const;

    // SHA-256 of the model's parameter bytes in registration order.
    std::string params_sha256() const;
    std::uint64_t bytes() const;

private:
    std::vector<std::string> names_;
    std::vector<torch::Tensor> buffers_;  // CPU, contiguous
    std::size_t param_count_ = 0;         // the first entries are the model parameters
};

// Writes the state in `contents` back into model, optimizer and RNGs. Throws
// CorruptCheckpoint if a tensor is missing or its shape or type disagrees
// with the model (a checkpoint of another model or config).
void restore_state(const CheckpointContents& contents, torch::nn::Module& model,
                   torch::optim::Optimizer& optimizer, const std::string& name);

// SHA-256 of the live model's parameter bytes in registration order.
std::string params_sha256(torch::nn::Module& model);

}  // namespace savepoint
