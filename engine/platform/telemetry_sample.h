// One second of telemetry while training: the process (CPU, memory, bytes
// written), the machine (available memory, free disk space of the home) and,
// with an NVIDIA driver, the training GPU. Plain values: they cross threads
// and are stored as registry rows (Registry::append_telemetry).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace savepoint {

// What NVML says of one GPU. A reading the GPU does not support (power on some
// boards) is NaN: stored as NULL, printed as null.
struct GpuSample {
    double util_percent = 0;  // busy time of the last sample period, 0..100
    std::int64_t mem_used_bytes = 0, mem_total_bytes = 0;
    double temp_c = 0, power_w = 0, sm_clock_mhz = 0;
    std::uint64_t throttle = 0;  // NVML's clocksThrottleReasons bits (kThrottle* below)
};

struct TelemetrySample {
    double t = 0;          // seconds since the session began
    double wall_time = 0;  // seconds since the epoch
    std::int64_t session_id = 0;
    double cpu_percent = 0;  // over the last period; 100 = one core busy
    std::int64_t rss_bytes = 0, mem_available_bytes = 0, written_bytes = 0, disk_free_bytes = 0;
    std::optional<GpuSample> gpu;  // none: no NVIDIA driver, or not training on a GPU
};

// NVML's nvmlClocksThrottleReason* bits (nvml.h; the same values as its newer
// nvmlClocksEventReason* names).
inline constexpr std::uint64_t kThrottleGpuIdle = 0x1;
inline constexpr std::uint64_t kThrottleApplicationsClocksSetting = 0x2;
inline constexpr std::uint64_t kThrottleSwPowerCap = 0x4;
inline constexpr std::uint64_t kThrottleHwSlowdown = 0x8;
inline constexpr std::uint64_t kThrottleSyncBoost = 0x10;
inline constexpr std::uint64_t kThrottleSwThermalSlowdown = 0x20;
inline constexpr std::uint64_t kThrottleHwThermalSlowdown = 0x40;
inline constexpr std::uint64_t kThrottleHwPowerBrakeSlowdown = 0x80;
inline constexpr std::uint64_t kThrottleDisplayClockSetting = 0x100;

// The names of the bits set, lowest first, as NVML spells them without its
// prefix ("SwPowerCap"); a bit NVML added later is named by its value ("0x200").
std::vector<std::string> throttle_reason_names(std::uint64_t mask);

// Whether the mask holds a slowdown a user should hear of: the power cap, a
// thermal or a hardware slowdown. An idle GPU, or clocks held by a setting, is
// the GPU doing what it was told.
bool throttle_is_slowdown(std::uint64_t mask);

}  // namespace savepoint
