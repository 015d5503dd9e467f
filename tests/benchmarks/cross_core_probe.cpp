// What sharing memory between two CPUs costs right now: run it when a
// checkpoint's overhead jumps for no reason in the code.
//
// On the benchmark VM the two vCPUs spend stretches of half a minute or so
// where a write to lines the other CPU has read costs ~3x more (here "write
// after the other read it": ~0.13 ms against ~0.04 ms for 5 MB), and in those
// stretches the optimizer step after a background copy is ~550 µs slower
// (engine/checkpoint/capture_choice.h; docs/PERFORMANCE.md, the host's state).
//
// usage: cross_core_probe [REPEATS] [CPU_A CPU_B]   (default: 5, the first two CPUs this process may use)
// Prints, per repeat: a cache-line round trip between the two CPUs; copying
// 5 MB that CPU A just wrote, on B and on A; writing 5 MB on A after B read it,
// and again with A alone.
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

bool pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// Nanoseconds for a cache line to go from `a` to `b` and back.
double round_trip_ns(int a, int b) {
    constexpr int kTrips = 20000;
    alignas(64) static std::atomic<int> flag{0};
    flag = 0;
    std::thread other([&] {
        pin(b);
        for (int i = 0; i < kTrips; ++i) {
            while (flag.load(std::memory_order_acquire) != 2 * i + 1) {
            }
            flag.store(2 * i + 2, std::memory_order_release);
        }
    });
    pin(a);
    const auto t0 = Clock::now();
    for (int i = 0; i < kTrips; ++i) {
        flag.store(2 * i + 1, std::memory_order_release);
        while (flag.load(std::memory_order_acquire) != 2 * i + 2) {
        }
    }
    const double ns = ms_since(t0) * 1e6 / kTrips;
    other.join();
    return ns;
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
    int a = -1, b = -1;
    if (argc > 3) {
        a = std::atoi(argv[2]);
        b = std::atoi(argv[3]);
    } else {
        cpu_set_t mine;
        CPU_ZERO(&mine);
        sched_getaffinity(0, sizeof mine, &mine);
        for (int c = 0; c < CPU_SETSIZE && b < 0; ++c)
            if (CPU_ISSET(c, &mine)) (a < 0 ? a : b) = c;
    }
    if (a < 0 || b < 0 || repeats < 1) {
        std::fprintf(stderr, "cross_core_probe: needs two CPUs and a positive repeat count\n");
        return 2;
    }
    if (!pin(a)) {
        std::fprintf(stderr, "cross_core_probe: cannot run on CPU %d\n", a);
        return 2;
    }
    constexpr std::size_t kBytes = 5u << 20;  // about an mlp checkpoint's state
    std::vector<char> src(kBytes), dst(kBytes);
    std::printf("CPUs %d and %d, 5 MB buffers\n", a, b);
    for (int r = 0; r < repeats; ++r) {
        const double rt = round_trip_ns(a, b);
        pin(a);
        std::memset(src.data(), r, kBytes);
        double far_copy = 0;
        std::thread([&] {
            pin(b);
            const auto t0 = Clock::now();
            std::memcpy(dst.data(), src.data(), kBytes);
            far_copy = ms_since(t0);
        }).join();
        std::memset(src.data(), r + 1, kBytes);
        auto t0 = Clock::now();
        std::memcpy(dst.data(), src.data(), kBytes);
        const double own_copy = ms_since(t0);
        std::thread([&] {
            pin(b);
            volatile long sum = 0;
            for (std::size_t i = 0; i < kBytes; i += 64) sum = sum + src[i];
        }).join();
        t0 = Clock::now();
        std::memset(src.data(), r + 2, kBytes);
        const double write_after_read = ms_since(t0);
        t0 = Clock::now();
        std::memset(src.data(), r + 3, kBytes);
        const double own_write = ms_since(t0);
        std::printf(
            "round trip %4.0f ns; copy on B %.3f ms, on A %.3f ms; write on A after B read %.3f ms, alone %.3f ms\n",
            rt, far_copy, own_copy, write_after_read, own_write);
    }
    return 0;
}
