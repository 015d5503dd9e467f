#include "bench_train_cuda.h"

#include "cuda/device_probe.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

std::string short_name(const std::string& model) {
    const auto slash = model.find_last_of('/');
    std::string base = slash == std::string::npos ? model : model.substr(slash + 1);
    const auto dot = base.rfind(".pt");
    return dot == std::string::npos ? base : base.substr(0, dot);
}

}  // namespace

nlohmann::json cuda_benchmarks(const CudaTrain& train, const std::vector<std::string>& models, bool quick) {
    const std::string gpu = savepoint::describe_device(torch::Device(torch::kCUDA, 0)).summary();
    std::printf("GPU: %s\n%-10s %6s %12s %14s\n", gpu.c_str(), "model", "batch", "steps/s", "samples/s");
    nlohmann::json out = {{"device", "cuda"}, {"gpu", gpu}};
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& model : models)
        for (std::int64_t batch : {32, 128}) {
            const std::int64_t steps = quick ? 30 : (model == "mlp" || model == "dnn" ? 3000 : 1000);
            train(model, batch, std::min<std::int64_t>(steps, 50), 0);  // warm-up: CUDA context, kernels, allocator
            const CudaRun r = train(model, batch, steps, 0);
            const double steps_per_s = r.samples_per_second / static_cast<double>(batch);
            std::printf("%-10s %6lld %12.0f %14.0f\n", short_name(model).c_str(), static_cast<long long>(batch),
                        steps_per_s, r.samples_per_second);
            std::fflush(stdout);
            rows.push_back({{"model", short_name(model)},
                            {"batch", batch},
                            {"steps_per_s", steps_per_s},
                            {"samples_per_s", r.samples_per_second}});
        }
    out["throughput"] = rows;

    // Saving every 10 and 30 steps against not saving, in pairs (B V B V ... B): a
    // GPU's clocks drift less than a laptop's, but a pair still takes only seconds.
    const std::int64_t steps = quick ? 60 : 3000;
    const int reps = quick ? 1 : 3;
    double stall_sum = 0;
    int stall_n = 0;
    for (std::int64_t every : {10, 30}) {
        std::vector<double> ratios;
        CudaRun before = train("mlp", 32, steps, 0);
        for (int r = 0; r < reps; ++r) {
            const CudaRun v = train("mlp", 32, steps, every);
            const CudaRun after = train("mlp", 32, steps, 0);
            ratios.push_back(v.loop_seconds / ((before.loop_seconds + after.loop_seconds) / 2) - 1);
            stall_sum += v.mean_stall_ms;
            ++stall_n;
            before = after;
        }
        const double overhead = median(ratios);
        std::printf("mlp b32, save every %lld: overhead %.1f %%\n", static_cast<long long>(every), 100 * overhead);
        out["overhead_every_" + std::to_string(every)] = overhead;
    }
    out["stall_ms"] = stall_n ? stall_sum / stall_n : 0;
    std::printf("stall per checkpoint: %.3f ms\n", out["stall_ms"].get<double>());
    return out;
}
