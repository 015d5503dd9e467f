// The CUDA half of device_probe.h (compiled only when LibTorch has CUDA).
#include "cuda/device_probe.h"
#include "platform/nvml_library.h"

#include <ATen/cuda/CUDAContext.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <cuda_runtime_api.h>
#include <torch/version.h>

#include <string>

namespace savepoint {
namespace {

// CUDA's integers: 13000 is "13.0", 12040 is "12.4".
std::string cuda_version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

// cuDNN 9 counts major*10000 + minor*100 + patch; cuDNN 8 major*1000 + minor*100 + patch.
std::string cudnn_version_text(long v) {
    if (v <= 0) return {};
    const long major = v >= 90000 ? v / 10000 : v / 1000;
    const long rest = v >= 90000 ? v % 10000 : v % 1000;
    return std::to_string(major) + "." + std::to_string(rest / 100) + "." + std::to_string(rest % 100);
}

}  // namespace

bool cuda_built() { return true; }

DeviceRecord describe_cuda_device(int index) {
    DeviceRecord r;
    r.kind = "cuda";
    r.index = index;
    const cudaDeviceProp* p = at::cuda::getDeviceProperties(index);
    r.name = p->name;
    r.compute_capability = std::to_string(p->major) + "." + std::to_string(p->minor);
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) == cudaSuccess) r.pci_bus_id = bus;
    int runtime = 0, driver = 0;
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) r.cuda = cuda_version_text(runtime);
    // The driver's own version needs NVML; without it, the CUDA version the driver supports.
    if (auto nvml = NvmlLibrary::open()) r.driver = nvml->driver_version();
    if (r.driver.empty() && cudaDriverGetVersion(&driver) == cudaSuccess)
        r.driver = "supports CUDA " + cuda_version_text(driver);
    if (at::detail::getCUDAHooks().hasCuDNN()) r.cudnn = cudnn_version_text(at::detail::getCUDAHooks().versionCuDNN());
    r.libtorch = TORCH_VERSION;
    return r;
}

}  // namespace savepoint
