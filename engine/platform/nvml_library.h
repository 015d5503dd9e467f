// NVIDIA's management library (NVML), loaded at run time: a machine without an
// NVIDIA driver builds and runs the same binary, and simply has no GPU
// telemetry. The library is libnvidia-ml.so.1, or the file named by
// SAVEPOINT_NVML_LIBRARY (the tests' fake, tests/engine/fake_nvml.c).
//
// Nothing in it changes after open(), and NVML's calls are thread-safe: one
// object may serve any thread (in practice the telemetry sampler's).
#pragma once

#include "platform/telemetry_sample.h"

#include <memory>
#include <optional>
#include <string>

namespace savepoint {

// Which GPU to watch: the one CUDA trains on, by its PCI bus id when known
// (CUDA's and NVML's device numbers can differ: CUDA_VISIBLE_DEVICES, CUDA's
// fastest-first order), else by NVML's index.
struct GpuSelector {
    std::string pci_bus_id;  // "00000000:17:00.0" (NVML also takes CUDA's "0000:17:00.0")
    int index = -1;          // tried when there is no bus id, or NVML does not know it; -1: none
    bool empty() const { return pci_bus_id.empty() && index < 0; }
};

class NvmlLibrary {
public:
    using Device = struct nvmlDevice_st*;  // NVML's nvmlDevice_t

    // Loads the library and initialises NVML; null when either fails, with the
    // reason kept for unavailable_reason().
    static std::shared_ptr<NvmlLibrary> open();
    // Why the last open() gave null, e.g. "no NVIDIA driver (libnvidia-ml.so.1:
    // cannot open shared object file: No such file or directory)"; empty after one succeeded.
    static std::string unavailable_reason();

    ~NvmlLibrary();  // nvmlShutdown, then the library is unloaded
    NvmlLibrary(const NvmlLibrary&) = delete;
    NvmlLibrary& operator=(const NvmlLibrary&) = delete;

    const std::string& path() const { return path_; }  // what dlopen was given
    std::string driver_version() const;                // "550.54.15"; empty when NVML cannot say
    int device_count() const;                          // 0 when NVML cannot say

    std::optional<Device> find(const GpuSelector& gpu) const;
    std::optional<Device> device_by_pci_bus_id(const std::string& bus_id) const;
    std::optional<Device> device_by_index(int index) const;
    std::string device_name(Device device) const;  // "NVIDIA H100 80GB HBM3"; empty when NVML cannot say
    // One reading; none when NVML cannot read the device's memory (a GPU fallen
    // off the bus). A figure the device does not report is NaN (throttle: 0).
    std::optional<GpuSample> sample(Device device) const;

private:
    struct Api;
    NvmlLibrary(void* handle, std::string path, std::unique_ptr<Api> api);

    void* handle_ = nullptr;
    std::string path_;
    std::unique_ptr<Api> api_;
};

}  // namespace savepoint
