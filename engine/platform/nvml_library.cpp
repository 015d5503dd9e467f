#include "platform/nvml_library.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <mutex>

namespace savepoint {

namespace {

// The few NVML constants this file uses (and, in Api, its structs), as nvml.h
// declares them: no header and no link-time dependency, for the driver's library
// is found at run time or not at all.
using nvmlReturn_t = int;  // NVML_SUCCESS = 0
constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr int kNvmlTemperatureGpu = 0;  // nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU
constexpr int kNvmlClockSm = 1;         // nvmlClockType_t NVML_CLOCK_SM

std::mutex& reason_mutex() {
    static std::mutex m;
    return m;
}
std::string& last_reason() {
    static std::string r;
    return r;
}
void set_reason(std::string r) {
    std::lock_guard<std::mutex> lock(reason_mutex());
    last_reason() = std::move(r);
}

}  // namespace

// The entry points, looked up once. The _v2 forms where NVML has them: the
// unsuffixed ones are kept by the driver for old binaries only.
struct NvmlLibrary::Api {
    using Dev = NvmlLibrary::Device;
    struct nvmlUtilization_t {
        unsigned int gpu, memory;  // percent of the last sample period
    };
    struct nvmlMemory_t {
        unsigned long long total, free, used;  // bytes
    };
    nvmlReturn_t (*init)() = nullptr;      // nvmlInit_v2
    nvmlReturn_t (*shutdown)() = nullptr;  // nvmlShutdown
    const char* (*error_string)(nvmlReturn_t) = nullptr;
    nvmlReturn_t (*driver_version)(char*, unsigned int) = nullptr;
    nvmlReturn_t (*count)(unsigned int*) = nullptr;
    nvmlReturn_t (*by_index)(unsigned int, Dev*) = nullptr;
    nvmlReturn_t (*by_pci)(const char*, Dev*) = nullptr;
    nvmlReturn_t (*name)(Dev, char*, unsigned int) = nullptr;
    nvmlReturn_t (*utilization)(Dev, nvmlUtilization_t*) = nullptr;
    nvmlReturn_t (*memory)(Dev, nvmlMemory_t*) = nullptr;
    nvmlReturn_t (*temperature)(Dev, int, unsigned int*) = nullptr;
    nvmlReturn_t (*power)(Dev, unsigned int*) = nullptr;  // milliwatts
    nvmlReturn_t (*clock)(Dev, int, unsigned int*) = nullptr;
    nvmlReturn_t (*throttle)(Dev, unsigned long long*) = nullptr;

    std::string error(nvmlReturn_t rc) const {
        const char* s = error_string ? error_string(rc) : nullptr;
        return s ? std::string(s) : "NVML error " + std::to_string(rc);
    }
};

namespace {

template <typename F>
void look_up(void* handle, const char* symbol, F& fn) {
    fn = reinterpret_cast<F>(::dlsym(handle, symbol));
}

}  // namespace

std::shared_ptr<NvmlLibrary> NvmlLibrary::open() {
    const char* env = std::getenv("SAVEPOINT_NVML_LIBRARY");
    const std::string path = env && *env ? env : "libnvidia-ml.so.1";
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = ::dlerror();
        set_reason("no NVIDIA driver (" + (why ? std::string(why) : path + ": cannot be loaded") + ")");
        return nullptr;
    }
    auto api = std::make_unique<Api>();
    look_up(handle, "nvmlInit_v2", api->init);
    look_up(handle, "nvmlShutdown", api->shutdown);
    look_up(handle, "nvmlErrorString", api->error_string);
    look_up(handle, "nvmlSystemGetDriverVersion", api->driver_version);
    look_up(handle, "nvmlDeviceGetCount_v2", api->count);
    look_up(handle, "nvmlDeviceGetHandleByIndex_v2", api->by_index);
    look_up(handle, "nvmlDeviceGetHandleByPciBusId_v2", api->by_pci);
    look_up(handle, "nvmlDeviceGetName", api->name);
    look_up(handle, "nvmlDeviceGetUtilizationRates", api->utilization);
    look_up(handle, "nvmlDeviceGetMemoryInfo", api->memory);
    look_up(handle, "nvmlDeviceGetTemperature", api->temperature);
    look_up(handle, "nvmlDeviceGetPowerUsage", api->power);
    look_up(handle, "nvmlDeviceGetClockInfo", api->clock);
    look_up(handle, "nvmlDeviceGetCurrentClocksThrottleReasons", api->throttle);
    // NVML 12.x renamed it (the same bits); a driver may one day keep only the new name.
    if (!api->throttle) look_up(handle, "nvmlDeviceGetCurrentClocksEventReasons", api->throttle);

    const char* missing = !api->init       ? "nvmlInit_v2"
                          : !api->shutdown ? "nvmlShutdown"
                          : !api->count    ? "nvmlDeviceGetCount_v2"
                          : !api->by_index ? "nvmlDeviceGetHandleByIndex_v2"
                          : !api->memory   ? "nvmlDeviceGetMemoryInfo"
                                           : nullptr;
    if (missing) {
        set_reason("no usable NVIDIA driver (" + path + " has no " + missing + ")");
        ::dlclose(handle);
        return nullptr;
    }
    if (const nvmlReturn_t rc = api->init(); rc != kNvmlSuccess) {
        set_reason("no usable NVIDIA driver (nvmlInit: " + api->error(rc) + ")");
        ::dlclose(handle);
        return nullptr;
    }
    set_reason({});
    return std::shared_ptr<NvmlLibrary>(new NvmlLibrary(handle, path, std::move(api)));
}

std::string NvmlLibrary::unavailable_reason() {
    std::lock_guard<std::mutex> lock(reason_mutex());
    return last_reason();
}

NvmlLibrary::NvmlLibrary(void* handle, std::string path, std::unique_ptr<Api> api)
    : handle_(handle), path_(std::move(path)), api_(std::move(api)) {}

NvmlLibrary::~NvmlLibrary() {
    api_->shutdown();
    ::dlclose(handle_);
}

std::string NvmlLibrary::driver_version() const {
    char buf[96] = {};  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE is 80
    if (!api_->driver_version || api_->driver_version(buf, sizeof buf) != kNvmlSuccess) return {};
    return buf;
}

int NvmlLibrary::device_count() const {
    unsigned int n = 0;
    return api_->count(&n) == kNvmlSuccess ? static_cast<int>(n) : 0;
}

std::optional<NvmlLibrary::Device> NvmlLibrary::find(const GpuSelector& gpu) const {
    if (!gpu.pci_bus_id.empty())
        if (auto d = device_by_pci_bus_id(gpu.pci_bus_id)) return d;
    if (gpu.index >= 0) return device_by_index(gpu.index);
    return std::nullopt;
}

std::optional<NvmlLibrary::Device> NvmlLibrary::device_by_pci_bus_id(const std::string& bus_id) const {
    Device d = nullptr;
    if (!api_->by_pci || api_->by_pci(bus_id.c_str(), &d) != kNvmlSuccess) return std::nullopt;
    return d;
}

std::optional<NvmlLibrary::Device> NvmlLibrary::device_by_index(int index) const {
    Device d = nullptr;
    if (index < 0 || api_->by_index(static_cast<unsigned int>(index), &d) != kNvmlSuccess) return std::nullopt;
    return d;
}

std::string NvmlLibrary::device_name(Device device) const {
    char buf[128] = {};  // NVML_DEVICE_NAME_V2_BUFFER_SIZE is 96
    if (!api_->name || api_->name(device, buf, sizeof buf) != kNvmlSuccess) return {};
    return buf;
}

std::optional<GpuSample> NvmlLibrary::sample(Device device) const {
    Api::nvmlMemory_t mem{};
    if (api_->memory(device, &mem) != kNvmlSuccess) return std::nullopt;
    GpuSample s;
    s.mem_total_bytes = static_cast<std::int64_t>(mem.total);
    s.mem_used_bytes = static_cast<std::int64_t>(mem.used);
    // A reading the device does not support (NVML_ERROR_NOT_SUPPORTED) is NaN, not 0.
    Api::nvmlUtilization_t util{};
    unsigned int v = 0;
    const auto ok = [](nvmlReturn_t rc) { return rc == kNvmlSuccess; };
    s.util_percent = api_->utilization && ok(api_->utilization(device, &util)) ? double(util.gpu) : NAN;
    s.temp_c = api_->temperature && ok(api_->temperature(device, kNvmlTemperatureGpu, &v)) ? double(v) : NAN;
    s.power_w = api_->power && ok(api_->power(device, &v)) ? v / 1000.0 : NAN;  // milliwatts
    s.sm_clock_mhz = api_->clock && ok(api_->clock(device, kNvmlClockSm, &v)) ? double(v) : NAN;
    unsigned long long reasons = 0;
    if (api_->throttle && api_->throttle(device, &reasons) == kNvmlSuccess) s.throttle = reasons;
    return s;
}

}  // namespace savepoint
