// What telemetry costs: the CPU time of one sample (TelemetryProbe::take, what
// the sampler's thread does each second), without a GPU and with the test's
// fake NVML (tests/engine/fake_nvml.cpp: the engine's side of the calls only),
// with the machine's NVIDIA driver where it has one, and of storing it (one row,
// Registry::append_telemetry). Each is also said as the share of one core it
// takes at one sample a second, against the budget of 0.5 % of training.
//   bench_telemetry [--samples N] [--home DIR]
#include "platform/telemetry_probe.h"
#include "registry/registry.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

namespace {

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Cost {
    double cpu_us = 0, wall_us = 0;  // per call
};

// Runs `once` n times (after a few untimed, for warm caches) and gives the mean cost of a call.
Cost cost_of(int n, const std::function<void()>& once) {
    for (int i = 0; i < 10; ++i) once();
    const double cpu0 = thread_cpu_seconds();
    const auto wall0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) once();
    Cost c;
    c.cpu_us = (thread_cpu_seconds() - cpu0) * 1e6 / n;
    c.wall_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - wall0).count() / n;
    return c;
}

void report(const char* what, const Cost& c) {
    // At 1 Hz a call's CPU time in µs is that many millionths of one core's second.
    std::printf("%-34s %9.1f us CPU %9.1f us wall per sample; at 1 Hz %.4f %% of one core\n", what, c.cpu_us, c.wall_us,
                c.cpu_us / 1e6 * 100);
}

}  // namespace

int main(int argc, char** argv) {
    int n = 2000;
    std::string home = "/tmp/bench-telemetry-home";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--samples" && i + 1 < argc)
            n = std::max(1, std::atoi(argv[++i]));
        else if (a == "--home" && i + 1 < argc)
            home = argv[++i];
    }
    const double started = savepoint::now_seconds();
    volatile double sink = 0;  // keeps the samples from being optimised away

    savepoint::TelemetryProbe cpu_only(home, started, 1, savepoint::GpuSelector{});
    report("sample, no GPU", cost_of(n, [&] { sink = sink + cpu_only.take().cpu_percent; }));

    // The machine's own driver, where there is one (the GPU check runs this program too).
    {
        savepoint::TelemetryProbe real(home, started, 1, savepoint::GpuSelector{"", 0});
        if (real.watches_gpu())
            report(("sample, NVML: " + real.gpu_status_line()).c_str(), cost_of(n, [&] {
                       const auto g = real.take().gpu;  // none: the GPU fell off the bus
                       sink = sink + (g ? g->mem_used_bytes : 0);
                   }));
        else
            std::printf("%-34s %s\n", "sample, NVML:", real.gpu_status_line().c_str());
    }

#ifdef FAKE_NVML_LIBRARY
    ::setenv("SAVEPOINT_NVML_LIBRARY", FAKE_NVML_LIBRARY, 1);
    savepoint::TelemetryProbe with_gpu(home, started, 1, savepoint::GpuSelector{"", 0});
    if (!with_gpu.watches_gpu()) {
        std::fprintf(stderr, "the fake NVML did not load: %s\n", with_gpu.gpu_status_line().c_str());
        return 1;
    }
    report("sample, fake NVML (engine side)", cost_of(n, [&] { sink = sink + with_gpu.take().gpu->power_w; }));
    ::unsetenv("SAVEPOINT_NVML_LIBRARY");
#endif

    // Storing: one row a transaction, unsynced, as the sampler's callback would post it.
    savepoint::Registry reg(home);
    std::int64_t run = 0;
    if (auto r = reg.find_run("bench-telemetry"))
        run = r->id;
    else
        run = reg.create_run("bench-telemetry", "{}", 1, 1, "cpu");
    const savepoint::TelemetrySample row = cpu_only.take();
    report("registry append, one row", cost_of(std::min(n, 500), [&] { reg.append_telemetry(run, {row}); }));
    return 0;
}
