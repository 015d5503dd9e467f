// bench_train: Savepoint's training and checkpoint numbers, printed as a table
// and written as JSON (--json PATH). Not a test: numbers depend on the machine.
// run-comparison.sh runs it next to pytorch_loop.py and prints the ratios.
//
//   bench_train [--quick] [--data fashion-mnist|synthetic] [--json out.json]
//
// Measures, through the real Trainer (the code path savepoint-cli uses):
//   throughput   samples/s of mlp, dnn, cnn at batch 32/128/256, 1 and 2 threads
//   checkpoints  training-thread stall per checkpoint, end-to-end overhead of
//                saving every 1, 10, 30 steps and every epoch (mlp, batch 32 and 128)
//   registry     metric-ingest rows/s (batched transactions, synchronous=FULL)
#include "registry.h"
#include "trainer.h"

#include <torch/torch.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace savepoint;

namespace {

std::string temp_home() {
    char tmpl[] = "/tmp/savepoint-bench-XXXXXX";
    if (!::mkdtemp(tmpl)) std::abort();
    return tmpl;
}

void remove_tree(const std::string& dir) { std::system(("rm -rf '" + dir + "'").c_str()); }

struct RunStats {
    double samples_per_second = 0;
    double loop_seconds = 0;
    double max_stall_ms = 0;
    double mean_stall_ms = 0;
    std::int64_t checkpoints = 0;
};

// One session of `steps` steps (one epoch), saving every `save_every` steps
// (0: only the final checkpoint). Throughput excludes validation, which
// happens once at the end and is the same for every variant.
RunStats train_once(const std::string& data, const std::string& model, std::int64_t batch, std::int64_t threads,
                    std::int64_t steps, std::int64_t save_every) {
    const std::string home = temp_home();
    TrainRequest req;
    req.home = home;
    req.run_name = "bench";
    req.config.data = data;
    req.config.model = model;
    req.config.batch = batch;
    req.config.threads = threads;
    req.config.epochs = 1;
    req.config.steps_per_epoch = steps;
    req.config.save_every_steps = save_every;
    req.config.keep = 3;
    Trainer trainer(req);
    TrainResult r = trainer.run();
    remove_tree(home);
    RunStats s;
    const double train_seconds = r.loop_seconds - r.validation_seconds;
    s.loop_seconds = train_seconds;
    s.samples_per_second = static_cast<double>(r.steps * batch) / train_seconds;
    s.max_stall_ms = r.max_checkpoint_stall_ms;
    s.checkpoints = r.checkpoints_requested;
    s.mean_stall_ms = r.checkpoints_requested ? r.checkpoint_stall_seconds * 1000 / r.checkpoints_requested : 0;
    return s;
}

double registry_ingest_rows_per_second(std::int64_t rows, std::int64_t batch) {
    const std::string home = temp_home();
    double rate = 0;
    {
        Registry reg(home);
        const std::int64_t run = reg.create_run("ingest", "{}", 100, 100, "cpu");
        const std::int64_t branch = reg.find_run("ingest")->active_branch_id;
        std::vector<MetricRow> buf(static_cast<std::size_t>(batch));
        const auto t0 = std::chrono::steady_clock::now();
        for (std::int64_t done = 0; done < rows; done += batch) {
            for (std::int64_t i = 0; i < batch; ++i)
                buf[static_cast<std::size_t>(i)] = {1, branch, 0, done + i + 1, 1, done + i + 1, 0.5, 0.9, now_seconds()};
            reg.append_metrics(run, buf);
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        rate = static_cast<double>(rows) / s;
    }
    remove_tree(home);
    return rate;
}

}  // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string data = "fashion-mnist", json_path;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--quick") quick = true;
        else if (a == "--data" && i + 1 < argc) data = argv[++i];
        else if (a == "--json" && i + 1 < argc) json_path = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_train [--quick] [--data fashion-mnist|synthetic] [--json PATH]\n");
            return 2;
        }
    }
    nlohmann::json out = {{"tool", "bench_train"}, {"data", data}, {"libtorch", TORCH_VERSION}, {"quick", quick}};
    // Enough samples for stable rates; --quick is the CI smoke run.
    auto steps_for = [&](const std::string& model, std::int64_t batch) -> std::int64_t {
        if (quick) return 20;
        std::int64_t samples = model == "cnn" ? 20000 : 60000;
        return std::max<std::int64_t>(50, samples / batch);
    };

    std::printf("%-6s %6s %8s %14s\n", "model", "batch", "threads", "samples/s");
    nlohmann::json throughput = nlohmann::json::array();
    const std::vector<std::string> models = quick ? std::vector<std::string>{"mlp"} : std::vector<std::string>{"mlp", "dnn", "cnn"};
    const std::vector<std::int64_t> batches = quick ? std::vector<std::int64_t>{32} : std::vector<std::int64_t>{32, 128, 256};
    for (const auto& model : models)
        for (std::int64_t batch : batches)
            for (std::int64_t threads : {1, 2}) {
                RunStats s = train_once(data, model, batch, threads, steps_for(model, batch), 0);
                std::printf("%-6s %6lld %8lld %14.0f\n", model.c_str(), static_cast<long long>(batch),
                            static_cast<long long>(threads), s.samples_per_second);
                std::fflush(stdout);
                throughput.push_back({{"model", model}, {"batch", batch}, {"threads", threads},
                                      {"samples_per_second", s.samples_per_second}});
            }
    out["throughput"] = throughput;

    std::printf("\n%-6s %6s %8s %10s %12s %12s %12s\n", "model", "batch", "save", "samples/s", "overhead", "stall_mean",
                "stall_max");
    nlohmann::json overhead = nlohmann::json::array();
    for (std::int64_t batch : quick ? std::vector<std::int64_t>{32} : std::vector<std::int64_t>{32, 128}) {
        const std::int64_t threads = batch >= 128 ? 2 : 1;
        const std::int64_t steps = quick ? 30 : (batch == 32 ? 1500 : 450);
        // Baseline first and last, averaged, so drift on a noisy machine cancels out.
        RunStats base1 = train_once(data, "mlp", batch, threads, steps, 0);
        std::vector<std::pair<std::string, std::int64_t>> freqs = {{"1", 1}, {"10", 10}, {"30", 30}, {"epoch", 0}};
        std::vector<RunStats> results;
        for (auto& f : freqs) results.push_back(train_once(data, "mlp", batch, threads, steps, f.second));
        RunStats base2 = train_once(data, "mlp", batch, threads, steps, 0);
        const double base = (base1.loop_seconds + base2.loop_seconds) / 2;
        for (std::size_t i = 0; i < freqs.size(); ++i) {
            const RunStats& s = results[i];
            const double pct = 100.0 * (s.loop_seconds - base) / base;
            std::printf("%-6s %6lld %8s %10.0f %11.1f%% %10.3fms %10.3fms\n", "mlp", static_cast<long long>(batch),
                        freqs[i].first.c_str(), s.samples_per_second, pct, s.mean_stall_ms, s.max_stall_ms);
            overhead.push_back({{"model", "mlp"}, {"batch", batch}, {"threads", threads}, {"save_every", freqs[i].first},
                                {"overhead_percent", pct}, {"samples_per_second", s.samples_per_second},
                                {"stall_mean_ms", s.mean_stall_ms}, {"stall_max_ms", s.max_stall_ms},
                                {"checkpoints", s.checkpoints}});
        }
    }
    out["checkpoint_overhead"] = overhead;

    const double ingest = registry_ingest_rows_per_second(quick ? 20000 : 200000, 1000);
    std::printf("\nregistry metric ingest: %.0f rows/s (batches of 1000, synchronous=FULL)\n", ingest);
    out["registry_ingest_rows_per_second"] = ingest;

    if (!json_path.empty()) {
        std::ofstream f(json_path);
        f << out.dump(2) << "\n";
    }
    // The smoke test relies on this: a rate that is not a positive number means the bench is broken.
    bool sane = ingest > 0 && std::isfinite(ingest);
    for (const auto& t : throughput) sane = sane && t["samples_per_second"].get<double>() > 0;
    for (const auto& o : overhead) sane = sane && std::isfinite(o["overhead_percent"].get<double>());
    if (!sane) std::fprintf(stderr, "bench_train: a measurement came out non-positive or not finite\n");
    return sane ? 0 : 1;
}
