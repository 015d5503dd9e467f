// Trainer: the session's telemetry. A sampler thread takes a sample every
// second; the training thread, at its metric flushes, hands them to the
// registry's writer and the observer, and records a GPU slowing its clocks or
// the home's disk running low as events on the run.
#include "platform/planted_bugs.h"
#include "platform/telemetry_sampler.h"
#include "training/trainer_impl.h"

#include <cmath>

namespace savepoint {

struct Trainer::Impl::Telemetry {
    std::mutex mutex;
    std::vector<TelemetrySample> pending;  // taken by the sampler, not yet flushed
    std::unique_ptr<TelemetrySampler> sampler;
    bool throttled = false;      // the last sample's GPU was slowed
    bool low_disk_said = false;  // once a session
};

namespace {

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

std::string megabytes(std::int64_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

}  // namespace

void Trainer::Impl::start_telemetry() {
    // A job's other workers record nothing; rank 0 samples its own process and GPU.
    if (!writer || req.telemetry_seconds <= 0) return;
    telemetry = std::make_shared<Telemetry>();
    GpuSelector gpu;
    if (net.device.is_cuda()) {
        gpu.pci_bus_id = dev.record.pci_bus_id;
        gpu.index = dev.record.index;
    }
    std::weak_ptr<Telemetry> sink = telemetry;
    // Negative control telemetry-no-session (docs/RELIABILITY.md): samples recorded under no session.
    const std::int64_t session_id = planted_bug(PlantedBug::TelemetryNoSession) ? 0 : session.id;
    telemetry->sampler = std::make_unique<TelemetrySampler>(
        req.home, now_seconds(), session_id,
        [sink](const TelemetrySample& s) {
            if (auto t = sink.lock()) {
                std::lock_guard<std::mutex> l(t->mutex);
                t->pending.push_back(s);
            }
        },
        gpu, std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(req.telemetry_seconds * 1000))));
    telemetry->sampler->start();
}

void Trainer::Impl::flush_telemetry() {
    if (!telemetry) return;
    std::vector<TelemetrySample> rows;
    {
        std::lock_guard<std::mutex> l(telemetry->mutex);
        rows.swap(telemetry->pending);
    }
    if (rows.empty()) return;
    const std::int64_t threshold = std::max(req.low_disk_bytes, 3 * head.bytes.load());
    for (const auto& s : rows) {
        const bool slowed = s.gpu && throttle_is_slowdown(s.gpu->throttle);
        if (slowed && !telemetry->throttled)
            report.event(EventKind::Throttled, "the GPU slowed its clocks at " + here_text() + " (" +
                                                   joined(throttle_reason_names(s.gpu->throttle)) + ", SM clock " +
                                                   std::to_string(std::lround(s.gpu->sm_clock_mhz)) + " MHz)");
        telemetry->throttled = slowed;
        if (!telemetry->low_disk_said && s.disk_free_bytes > 0 && s.disk_free_bytes < threshold) {
            telemetry->low_disk_said = true;
            const std::int64_t each = head.bytes.load();
            report.event(EventKind::LowDisk, "low disk at " + here_text() + ": " + megabytes(s.disk_free_bytes) +
                                                 " free on " + req.home + "'s file system" +
                                                 (each > 0 ? " (room for " + std::to_string(s.disk_free_bytes / each) +
                                                                 " more checkpoints of " + megabytes(each) + ")"
                                                           : std::string()));
        }
    }
    report.observer().on_telemetry(rows);
    auto shared = std::make_shared<std::vector<TelemetrySample>>(std::move(rows));
    const std::int64_t run_id = run.id;
    writer->post([shared, run_id](Registry& r) { r.append_telemetry(run_id, *shared); });
}

void Trainer::Impl::stop_telemetry() {
    if (!telemetry) return;
    telemetry->sampler->stop();
    flush_telemetry();
    telemetry.reset();
}

}  // namespace savepoint
