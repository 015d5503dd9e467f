// bench_train --device cuda: samples/s of each model on the GPU, the stall per
// checkpoint, and the overhead of saving every 10 and 30 steps, through the
// real Trainer. tests/gpu/run-gpu-checks.sh runs it beside pytorch_cuda_loop.py.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>

struct CudaRun {
    double samples_per_second = 0, loop_seconds = 0, mean_stall_ms = 0;
};

// One session of `steps` steps on the GPU, saving every `save_every` (0: only at its end).
using CudaTrain =
    std::function<CudaRun(const std::string& model, std::int64_t batch, std::int64_t steps, std::int64_t save_every)>;

// Prints a table as it goes; returns {"device":"cuda","gpu":...,"throughput":[{"model","batch",
// "steps_per_s","samples_per_s"}],"stall_ms":S,"overhead_every_10":R,"overhead_every_30":R}
// (R: the fraction of training time saving added). `models` may name a TorchScript file too.
nlohmann::json cuda_benchmarks(const CudaTrain& train, const std::vector<std::string>& models, bool quick);
