// A LibTorch without CUDA: there is no CUDA device to describe.
#include "cuda/device_probe.h"

#include <stdexcept>

namespace savepoint {

bool cuda_built() { return false; }

DeviceRecord describe_cuda_device(int index) {
    throw std::runtime_error("CUDA device " + std::to_string(index) + ": this build has no CUDA");
}

}  // namespace savepoint
