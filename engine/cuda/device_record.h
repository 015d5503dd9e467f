// What a checkpoint was trained on: enough to tell whether resuming elsewhere
// can still give the bits of a run that never stopped. A different kind of
// device, GPU model or library version cannot promise them (docs/CUDA.md,
// section "Deterministic CUDA").
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace savepoint {

struct DeviceRecord {
    std::string kind;                // "cpu" | "cuda"
    int index = -1;                  // the CUDA device's index within this process; -1 on the CPU
    std::string name;                // the GPU's name, or the CPU's model name
    std::string compute_capability;  // "9.0"; empty on the CPU
    std::string pci_bus_id;          // where NVML finds the same GPU; never compared
    std::string driver;              // the NVIDIA driver's version, or the CUDA version it supports
    std::string cuda;                // the CUDA runtime's version
    std::string cudnn;               // the cuDNN LibTorch loaded
    std::string libtorch;
    std::string blas;  // the CPU's BLAS as LibTorch resolved it at run time

    bool empty() const { return kind.empty(); }
    nlohmann::json to_json() const;
    // Missing keys stay empty: records from older checkpoints have none.
    static DeviceRecord from_json(const nlohmann::json& j);
    // "NVIDIA H100 80GB HBM3 (compute 9.0), CUDA 13.0, cuDNN 9.10.2, LibTorch 2.11.0";
    // "CPU Intel Xeon ... , OpenBLAS 0.3.21 ..., LibTorch 1.13.1".
    std::string summary() const;
};

// One thing that differs between where a checkpoint was trained and where it resumes.
struct DeviceDifference {
    std::string what;  // "device", "GPU", "compute capability", "CPU", "BLAS", "CUDA", "cuDNN", "driver", "LibTorch"
    std::string saved, now;
};

// What differs in a way that can change the bits (not the index or the bus id:
// the same model of GPU in another slot computes the same). Empty when `saved`
// is empty (a checkpoint from before the record existed).
std::vector<DeviceDifference> device_differences(const DeviceRecord& saved, const DeviceRecord& now);

}  // namespace savepoint
