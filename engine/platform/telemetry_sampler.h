// A thread that takes a TelemetrySample every period (one second unless a test
// says otherwise) and hands it to a callback, so that the training thread
// spends nothing on telemetry. Made, started and stopped by one owner thread;
// the callback runs on the sampler's thread and should only hand the sample on
// (post it to the registry writer, queue it for the window).
#pragma once

#include "platform/nvml_library.h"
#include "platform/telemetry_probe.h"
#include "platform/telemetry_sample.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace savepoint {

class TelemetrySampler {
public:
    using Callback = std::function<void(const TelemetrySample&)>;

    // `home`: whose file system's free space is sampled. `session_started_at`:
    // seconds since the epoch, where each sample's t starts. An empty `gpu`:
    // no GPU is watched and gpu is always null. NVML is opened here (TelemetryProbe).
    TelemetrySampler(std::string home, double session_started_at, std::int64_t session_id, Callback on_sample,
                     const GpuSelector& gpu = {}, std::chrono::milliseconds period = std::chrono::seconds(1));
    ~TelemetrySampler();  // stop()
    TelemetrySampler(const TelemetrySampler&) = delete;
    TelemetrySampler& operator=(const TelemetrySampler&) = delete;

    // The first sample comes one period after start(), its CPU % measured over that period.
    void start();
    // Wakes the thread and joins it: returns within a sample's time, not a period's. Idempotent.
    void stop();

    // The watched GPU's name, or why there is none ("no NVIDIA driver"): the System panel's words.
    const std::string& gpu_status_line() const { return probe_.gpu_status_line(); }
    bool watches_gpu() const { return probe_.watches_gpu(); }

private:
    void run();

    TelemetryProbe probe_;  // used by the thread only, once started
    Callback on_sample_;
    std::chrono::milliseconds period_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace savepoint
