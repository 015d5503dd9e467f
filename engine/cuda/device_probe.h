// Which device this process trains on, as a DeviceRecord; and whether this
// LibTorch can train on a GPU at all. The CUDA half (cuda_device.cpp) is
// compiled only when LibTorch has CUDA; cuda_none.cpp stands in for it.
#pragma once

#include "cuda/device_record.h"

#include <torch/types.h>

#include <string>

namespace savepoint {

// The record of `device`: the CPU (its model, the BLAS, LibTorch) or a CUDA device.
DeviceRecord describe_device(const torch::Device& device);

// Whether this build links a CUDA LibTorch (CMake's SAVEPOINT_HAVE_CUDA).
bool cuda_built();

// Why `--device cuda` cannot train here: the LibTorch has no CUDA, or no GPU is
// visible (with CUDA_VISIBLE_DEVICES when it is set). Empty when a GPU is usable.
std::string cuda_unavailable_reason();

// The CPU's model name (/proc/cpuinfo) and the BLAS LibTorch calls, as found at run time.
std::string cpu_model_name();
std::string blas_in_use();

// The CUDA half: the record of CUDA device `index`. Throws std::runtime_error in a CPU-only build.
DeviceRecord describe_cuda_device(int index);

}  // namespace savepoint
