// A stand-in for NVIDIA's libnvidia-ml.so.1, built as a file of that name for
// test_telemetry (no driver can exist on a CPU machine): the entry points
// engine/platform/nvml_library.cpp looks up, with fixed figures that differ
// from each other, so that a field read into the wrong place shows. Two GPUs:
// the second at another PCI bus id, with other figures and no power reading.
//
// Levers, read on every call: FAKE_NVML_POWER_MW replaces the first GPU's power
// draw (a wrong value the test must catch: its negative control), and
// FAKE_NVML_FAIL_INIT makes nvmlInit_v2 fail as it does without a kernel driver.
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// nvml.h's return codes, the few used here.
constexpr int kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3, kDriverNotLoaded = 9, kNotFound = 6,
              kUninitialized = 1, kInsufficientSize = 7;

struct FakeGpu {
    const char* bus_id;  // NVML's form: 8-digit domain
    const char* name;
    unsigned util_gpu, util_memory;
    unsigned long long mem_total, mem_used;
    unsigned temp_c;
    int power_mw;  // < 0: not supported
    unsigned graphics_mhz, sm_mhz, mem_mhz;
    unsigned long long throttle;
};

FakeGpu gpus[] = {
    {"00000000:17:00.0", "Fake GPU (test NVML)", 37, 12, 80ull << 30, 3ull << 29, 61, 212500, 1740, 1755, 2619, 0x4},
    {"00000000:65:00.0", "Fake GPU 2 (test NVML)", 73, 5, 40ull << 30, 1ull << 30, 44, -1, 1400, 1410, 1215, 0x41},
};
constexpr unsigned kGpus = sizeof gpus / sizeof gpus[0];

int inits = 0, shutdowns = 0, samples = 0;

FakeGpu* gpu_of(void* device) {
    for (auto& g : gpus)
        if (device == &g) return &g;
    return nullptr;
}

// "0000:17:00.0" and "00000000:17:00.0" name the same device, as they do to NVML.
bool same_bus(const char* a, const char* b) {
    unsigned d1, b1, s1, f1, d2, b2, s2, f2;
    return std::sscanf(a, "%x:%x:%x.%x", &d1, &b1, &s1, &f1) == 4 &&
           std::sscanf(b, "%x:%x:%x.%x", &d2, &b2, &s2, &f2) == 4 && d1 == d2 && b1 == b2 && s1 == s2 && f1 == f2;
}

int copy_out(const char* s, char* out, unsigned length) {
    if (std::strlen(s) + 1 > length) return kInsufficientSize;
    std::strcpy(out, s);
    return kSuccess;
}

}  // namespace

extern "C" {

struct nvmlUtilization_t {
    unsigned gpu, memory;
};
struct nvmlMemory_t {
    unsigned long long total, free, used;
};

int nvmlInit_v2() {
    if (std::getenv("FAKE_NVML_FAIL_INIT")) return kDriverNotLoaded;
    ++inits;
    return kSuccess;
}

int nvmlShutdown() {
    if (shutdowns >= inits) return kUninitialized;
    ++shutdowns;
    return kSuccess;
}

const char* nvmlErrorString(int rc) {
    switch (rc) {
        case kDriverNotLoaded:
            return "Driver Not Loaded";
        case kNotSupported:
            return "Not Supported";
        default:
            return "Unknown Error";
    }
}

int nvmlSystemGetDriverVersion(char* version, unsigned length) { return copy_out("999.12.34-fake", version, length); }

int nvmlDeviceGetCount_v2(unsigned* count) {
    *count = kGpus;
    return kSuccess;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned index, void** device) {
    if (index >= kGpus) return kInvalidArgument;
    *device = &gpus[index];
    return kSuccess;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, void** device) {
    for (auto& g : gpus)
        if (same_bus(bus_id, g.bus_id)) {
            *device = &g;
            return kSuccess;
        }
    return kNotFound;
}

int nvmlDeviceGetName(void* device, char* name, unsigned length) {
    FakeGpu* g = gpu_of(device);
    return g ? copy_out(g->name, name, length) : kInvalidArgument;
}

int nvmlDeviceGetUtilizationRates(void* device, nvmlUtilization_t* u) {
    FakeGpu* g = gpu_of(device);
    if (!g) return kInvalidArgument;
    u->gpu = g->util_gpu;
    u->memory = g->util_memory;
    return kSuccess;
}

int nvmlDeviceGetMemoryInfo(void* device, nvmlMemory_t* m) {
    FakeGpu* g = gpu_of(device);
    if (!g) return kInvalidArgument;
    ++samples;
    m->total = g->mem_total;
    m->used = g->mem_used;
    m->free = g->mem_total - g->mem_used;
    return kSuccess;
}

int nvmlDeviceGetTemperature(void* device, int sensor, unsigned* temp) {
    FakeGpu* g = gpu_of(device);
    if (!g || sensor != 0) return kInvalidArgument;  // NVML_TEMPERATURE_GPU is the only sensor
    *temp = g->temp_c;
    return kSuccess;
}

int nvmlDeviceGetPowerUsage(void* device, unsigned* milliwatts) {
    FakeGpu* g = gpu_of(device);
    if (!g) return kInvalidArgument;
    int mw = g->power_mw;
    if (const char* lever = std::getenv("FAKE_NVML_POWER_MW"); lever && g == &gpus[0]) mw = std::atoi(lever);
    if (mw < 0) return kNotSupported;
    *milliwatts = static_cast<unsigned>(mw);
    return kSuccess;
}

int nvmlDeviceGetClockInfo(void* device, int type, unsigned* mhz) {
    FakeGpu* g = gpu_of(device);
    if (!g) return kInvalidArgument;
    switch (type) {  // nvmlClockType_t: graphics 0, SM 1, memory 2
        case 0:
            *mhz = g->graphics_mhz;
            return kSuccess;
        case 1:
            *mhz = g->sm_mhz;
            return kSuccess;
        case 2:
            *mhz = g->mem_mhz;
            return kSuccess;
        default:
            return kInvalidArgument;
    }
}

int nvmlDeviceGetCurrentClocksThrottleReasons(void* device, unsigned long long* reasons) {
    FakeGpu* g = gpu_of(device);
    if (!g) return kInvalidArgument;
    *reasons = g->throttle;
    return kSuccess;
}

// Not NVML's: what the test reads back through its own dlopen of this file.
int fake_nvml_inits() { return inits; }
int fake_nvml_shutdowns() { return shutdowns; }
int fake_nvml_samples() { return samples; }

}  // extern "C"
