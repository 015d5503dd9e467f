#include "platform/telemetry_probe.h"

#include <sys/time.h>

namespace savepoint {

namespace {

double wall_seconds() {
    timeval tv{};
    ::gettimeofday(&tv, nullptr);
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

// The selected device and the words for it; `device` is left empty when there is none.
std::string find_gpu(const NvmlLibrary* nvml, const GpuSelector& gpu, std::optional<NvmlLibrary::Device>* device) {
    if (!nvml) return "no NVIDIA driver";  // NvmlLibrary::unavailable_reason() says more
    if (gpu.empty()) return "no GPU selected";
    *device = nvml->find(gpu);
    if (!*device)
        return "GPU " + (gpu.pci_bus_id.empty() ? "#" + std::to_string(gpu.index) : gpu.pci_bus_id) +
               " not found by NVML (" + std::to_string(nvml->device_count()) + " devices)";
    const std::string name = nvml->device_name(**device);
    return name.empty() ? "an NVIDIA GPU NVML cannot name" : name;
}

}  // namespace

TelemetryProbe::TelemetryProbe(std::string home, double session_started_at, std::int64_t session_id,
                               const GpuSelector& gpu)
    : home_(std::move(home)),
      session_id_(session_id),
      t_at_start_(wall_seconds() - session_started_at),
      start_(std::chrono::steady_clock::now()) {
    if (gpu.empty()) {
        gpu_status_ = "no GPU selected";
        return;
    }
    nvml_ = NvmlLibrary::open();
    gpu_status_ = find_gpu(nvml_.get(), gpu, &device_);
}

TelemetrySample TelemetryProbe::take() {
    TelemetrySample s;
    s.t = t_at_start_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    s.wall_time = wall_seconds();
    s.session_id = session_id_;
    s.cpu_percent = cpu_.percent();
    s.rss_bytes = process_resident_bytes();
    s.mem_available_bytes = available_memory_bytes();
    s.written_bytes = process_written_bytes();
    s.disk_free_bytes = free_disk_bytes(home_);
    if (device_) s.gpu = nvml_->sample(*device_);
    return s;
}

std::string gpu_status_line(const GpuSelector& gpu) {
    const auto nvml = NvmlLibrary::open();
    std::optional<NvmlLibrary::Device> device;
    return find_gpu(nvml.get(), gpu, &device);
}

}  // namespace savepoint
