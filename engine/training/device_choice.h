// Which device a run's config trains on here, and refusing one it cannot
// (device_check.cpp). Before anything is written: the dry run and a new run's setup.
#pragma once

#include "training/train_config.h"

namespace savepoint {

// "cuda", or "auto" with a usable GPU.
bool trains_on_cuda(const TrainConfig& cfg);

// Throws InputError: --device cuda without CUDA (the LibTorch has none, or no
// GPU is visible), or a CUDA run with a non-deterministic CUBLAS_WORKSPACE_CONFIG.
void refuse_unusable_device(const TrainConfig& cfg);

}  // namespace savepoint
