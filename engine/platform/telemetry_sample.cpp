#include "platform/telemetry_sample.h"

#include <cstdio>

namespace savepoint {

namespace {

struct ThrottleBit {
    std::uint64_t bit;
    const char* name;
};

constexpr ThrottleBit kThrottleBits[] = {
    {kThrottleGpuIdle, "GpuIdle"},
    {kThrottleApplicationsClocksSetting, "ApplicationsClocksSetting"},
    {kThrottleSwPowerCap, "SwPowerCap"},
    {kThrottleHwSlowdown, "HwSlowdown"},
    {kThrottleSyncBoost, "SyncBoost"},
    {kThrottleSwThermalSlowdown, "SwThermalSlowdown"},
    {kThrottleHwThermalSlowdown, "HwThermalSlowdown"},
    {kThrottleHwPowerBrakeSlowdown, "HwPowerBrakeSlowdown"},
    {kThrottleDisplayClockSetting, "DisplayClockSetting"},
};

}  // namespace

std::vector<std::string> throttle_reason_names(std::uint64_t mask) {
    std::vector<std::string> out;
    for (int i = 0; i < 64; ++i) {
        const std::uint64_t bit = std::uint64_t{1} << i;
        if (!(mask & bit)) continue;
        const char* name = nullptr;
        for (const auto& b : kThrottleBits)
            if (b.bit == bit) name = b.name;
        if (name) {
            out.emplace_back(name);
        } else {
            char hex[24];
            std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(bit));
            out.emplace_back(hex);
        }
    }
    return out;
}

bool throttle_is_slowdown(std::uint64_t mask) {
    return (mask & (kThrottleSwPowerCap | kThrottleHwSlowdown | kThrottleSwThermalSlowdown |
                    kThrottleHwThermalSlowdown | kThrottleHwPowerBrakeSlowdown)) != 0;
}

}  // namespace savepoint
