// Before a run trains a TorchScript model on CUDA: every operation it uses
// must have a deterministic CUDA kernel, or its bits would differ run to run.
// Checked with one forward and backward pass, so an op of the backward pass
// is found too, before anything is written (the dry run, the New run dialog, train).
#pragma once

#include "data/dataset.h"
#include "model/models.h"
#include "training/train_config.h"

#include <torch/types.h>

namespace savepoint {

// Moves `model` to `device` (a CUDA device, with use_deterministic_cuda() in
// force) and runs one batch forward and backward in eval mode; the gradients
// are dropped and the generators kept. Throws InputError naming the operation
// ("index_add_cuda_ has no deterministic CUDA implementation").
void check_deterministic_kernels(ClassifierImpl& model, const DatasetPair& data, const TrainConfig& cfg,
                                 const torch::Device& device);

}  // namespace savepoint
