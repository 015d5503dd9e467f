#include "platform/telemetry_sampler.h"

#include <pthread.h>

namespace savepoint {

TelemetrySampler::TelemetrySampler(std::string home, double session_started_at, std::int64_t session_id,
                                   Callback on_sample, const GpuSelector& gpu, std::chrono::milliseconds period)
    : probe_(std::move(home), session_started_at, session_id, gpu),
      on_sample_(std::move(on_sample)),
      period_(period.count() > 0 ? period : std::chrono::milliseconds(1)) {}

TelemetrySampler::~TelemetrySampler() { stop(); }

void TelemetrySampler::start() {
    if (thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = false;
    }
    probe_.restart_cpu_interval();  // the first CPU % is the first period's, not the process's life
    thread_ = std::thread([this] { run(); });
}

void TelemetrySampler::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void TelemetrySampler::run() {
    pthread_setname_np(pthread_self(), "sp-telemetry");  // what top and gdb show
    auto next = std::chrono::steady_clock::now() + period_;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_until(lock, next, [this] { return stopping_; })) {
        lock.unlock();
        const TelemetrySample s = probe_.take();
        try {
            on_sample_(s);
        } catch (...) {
            // A sample that could not be handed on is lost; telemetry never takes training down.
        }
        lock.lock();
        // On schedule, without drift; after falling behind (a suspended process,
        // a slow callback), on from now rather than a burst of catch-up samples.
        next += period_;
        const auto now = std::chrono::steady_clock::now();
        if (next <= now) next = now + period_;
    }
}

}  // namespace savepoint
