// Takes one TelemetrySample on the caller's thread: the process's and the
// machine's figures (process_stats.h) and, when a GPU is selected and NVML
// knows it, the GPU's (nvml_library.h). TelemetrySampler calls it every period;
// the benchmark calls it in a loop. One owner thread at a time.
#pragma once

#include "platform/nvml_library.h"
#include "platform/process_stats.h"
#include "platform/telemetry_sample.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace savepoint {

class TelemetryProbe {
public:
    // `session_started_at`: the session's start, seconds since the epoch (SessionRow::started_at),
    // from which each sample's t counts. An empty `gpu` watches none (gpu stays null) and
    // loads no NVML; otherwise NVML is opened here, which a real driver takes a moment to do.
    TelemetryProbe(std::string home, double session_started_at, std::int64_t session_id, const GpuSelector& gpu);

    // cpu_percent covers the time since the previous take() or restart_cpu_interval().
    TelemetrySample take();
    void restart_cpu_interval() { cpu_ = CpuMeter(); }

    bool watches_gpu() const { return device_.has_value(); }
    // The watched GPU's name ("NVIDIA H100 80GB HBM3"), or why none is watched ("no NVIDIA driver").
    const std::string& gpu_status_line() const { return gpu_status_; }

private:
    std::string home_;
    std::int64_t session_id_;
    double t_at_start_;                            // t when this probe was made
    std::chrono::steady_clock::time_point start_;  // t counts on from here, whatever the wall clock does
    CpuMeter cpu_;
    std::shared_ptr<NvmlLibrary> nvml_;
    std::optional<NvmlLibrary::Device> device_;
    std::string gpu_status_;
};

// What a status bar or a device choice says of a GPU before any training: its
// name, "no NVIDIA driver", or why NVML does not have it. Opens NVML for the
// call (a moment with a real driver: not on a GUI's thread in a hurry).
std::string gpu_status_line(const GpuSelector& gpu);

}  // namespace savepoint
