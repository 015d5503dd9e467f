// bench_train: Savepoint's training and checkpoint numbers, printed as a table
// and written as JSON (--json PATH). Not a test: numbers depend on the machine.
// run-comparison.sh runs it next to pytorch_loop.py and prints the ratios.
//
//   bench_train [--quick] [--data fashion-mnist|synthetic] [--json out.json]
//               [--only throughput|checkpoints|registry|capture|hash] [--batch N]
//   bench_train --only interleaved [--every N] [--copying|--copy-free] [--runs R]
//   [--batch N]
//   bench_train --device cuda [--quick] [--model FILE.pt]...   (the GPU's figures: bench_train_cuda.h)
//   bench_train --only capture-study [--minutes M] [--model FILE.pt]   (every capture mode against the others:
//                bench_capture_study.h)
//
// Measures, through the real Trainer (the code path savepoint-cli uses):
//   throughput   samples/s of mlp, dnn, cnn at batch 32/128/256, 1 and 2 threads
//   checkpoints  training-thread stall per checkpoint, end-to-end overhead of
//                saving every 1, 10, 30 steps and every epoch (mlp, batch 32 and 128),
//                and where a save's overhead goes (OverheadShares); each save
//                frequency twice: from paired runs, and interleaved inside single
//                runs (interleaved_ratios), which this machine's drift cannot reach
//   interleaved  only the interleaved figure of one save frequency (trying a change)
//   registry     metric-ingest rows/s (batched transactions, synchronous=FULL); what
//                a view of a run's checkpoints pays per refresh at 1k/10k/50k rows
//                (a full read against CheckpointList::refresh)
//   hash         SHA-256 GB/s: OpenSSL, and sha256_streams with 1, 2 and 3 streams
//   telemetry    (only on request) what the telemetry sampler costs training: runs with and without, paired
#include "bench_capture_study.h"
#include "bench_train_cuda.h"
#include "cuda/device_probe.h"
#include "platform/io_affinity.h"
#include "registry/checkpoint_list.h"
#include "registry/registry.h"
#include "storage/sha256.h"
#include "storage/sha256_streams.h"
#include "training/trainer.h"

#include <torch/torch.h>

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace savepoint;

namespace {

const char* capture_name(CaptureMode m) {
    switch (m) {
        case CaptureMode::Auto:
            return "auto";
        case CaptureMode::CopyFree:
            return "copy-free";
        case CaptureMode::Copying:
            return "copying";
    }
    return "?";
}

// What CaptureMode::Auto resolves to for a run on `threads` training threads here.
const char* auto_capture_name(std::int64_t threads) {
    const int t = static_cast<int>(threads);
    return capture_is_copy_free(CaptureMode::Auto, t, available_cpus()) ? "copy-free" : "copying";
}

// Under $SAVEPOINT_BENCH_DIR if set (another disk, or tmpfs to take the disk out), else /tmp.
std::string temp_home() {
    const char* dir = std::getenv("SAVEPOINT_BENCH_DIR");
    std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/savepoint-bench-XXXXXX";
    if (!::mkdtemp(tmpl.data())) {
        std::perror(("bench_train: cannot create a directory like " + tmpl).c_str());
        std::exit(2);
    }
    return tmpl;
}

void remove_tree(const std::string& dir) { std::system(("rm -rf '" + dir + "'").c_str()); }

struct RunStats {
    double samples_per_second = 0;
    double loop_seconds = 0;
    double max_stall_ms = 0;
    double mean_stall_ms = 0;
    std::int64_t checkpoints = 0;
    std::int64_t copy_free_captures = 0;
    std::vector<double> step_seconds;                            // each step plus what followed it (a capture, a wait)
    std::int64_t deferred = 0, steps_deferred = 0, skipped = 0;  // the async policy at work
    std::int64_t waited = 0;  // captures that waited for the previous save to be written
    double wait_ms = 0;       // that waiting, in all
};

// One session of `steps` steps (one epoch), saving every `save_every` steps
// (0: only the final checkpoint). Throughput excludes validation, which
// happens once at the end and is the same for every variant.
std::string g_device = "cpu";    // --device: where train_once trains
double g_telemetry_seconds = 1;  // TrainRequest::telemetry_seconds (--only telemetry turns it off and on)

RunStats train_once(const std::string& data, const std::string& model, std::int64_t batch, std::int64_t threads,
                    std::int64_t steps, std::int64_t save_every, CaptureMode capture = CaptureMode::Auto,
                    const std::string& async_policy = "wait", std::int64_t save_blocks = 0) {
    const std::string home = temp_home();
    TrainRequest req;
    req.capture = capture;
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
    req.config.async_policy = async_policy;
    req.config.device = g_device;
    req.telemetry_seconds = g_telemetry_seconds;
    req.hooks.record_step_times = true;
    req.hooks.save_blocks = save_blocks;
    Trainer trainer(req);
    TrainResult r = trainer.run();
    remove_tree(home);
    RunStats s;
    const double train_seconds = r.loop_seconds - r.validation_seconds;
    s.loop_seconds = train_seconds;
    s.samples_per_second = static_cast<double>(r.steps * batch) / train_seconds;
    s.max_stall_ms = r.max_checkpoint_stall_ms;
    s.checkpoints = r.checkpoints_requested;
    s.copy_free_captures = r.copy_free_captures;
    s.deferred = r.saves_deferred;
    s.steps_deferred = r.steps_deferred;
    s.skipped = r.saves_skipped;
    s.waited = r.saves_waited;
    s.wait_ms = 1000 * r.save_wait_seconds;
    s.mean_stall_ms = r.checkpoints_requested ? r.checkpoint_stall_seconds * 1000 / r.checkpoints_requested : 0;
    for (std::size_t i = 0; i + 1 < r.step_started_at.size(); ++i)
        s.step_seconds.push_back(r.step_started_at[i + 1] - r.step_started_at[i]);
    return s;
}

// The matrix-multiply floor of an mlp step (784-512-10) at this batch and
// thread count, measured now: the five GEMMs of forward and backward (the
// first layer needs no input gradient), each timed warm with LibTorch's mm
// on this BLAS, in the layouts the step uses. samples/s if a step did
// nothing else. Measured in the same run as the throughput it is compared
// with, because these machines drift.
double mlp_matmul_floor(std::int64_t batch, std::int64_t threads) {
    torch::NoGradGuard no_grad;
    const int saved = torch::get_num_threads();
    torch::set_num_threads(static_cast<int>(threads));
    const std::int64_t in = 784, hidden = 512, out = 10;
    const torch::Tensor w1 = torch::randn({hidden, in}), xt = torch::randn({in, batch}), x = torch::randn({batch, in});
    const torch::Tensor dyt = torch::randn({hidden, batch}), h = torch::randn({batch, hidden});
    const torch::Tensor w2t = torch::randn({hidden, out}), dlt = torch::randn({out, batch}),
                        dl = torch::randn({batch, out});
    const torch::Tensor w2 = torch::randn({out, hidden});
    // Outputs allocated once: the floor is the GEMMs, not the allocator.
    torch::Tensor o1 = torch::empty({hidden, batch}), o2 = torch::empty({hidden, in}), o3 = torch::empty({batch, out});
    torch::Tensor o4 = torch::empty({out, hidden}), o5 = torch::empty({batch, hidden});
    auto step = [&] {
        torch::mm_out(o1, w1, xt);  // fc1 forward, as (W·xᵀ)ᵀ
        torch::mm_out(o2, dyt, x);  // fc1 weight gradient
        torch::mm_out(o3, h, w2t);  // fc2 forward
        torch::mm_out(o4, dlt, h);  // fc2 weight gradient
        torch::mm_out(o5, dl, w2);  // fc2 input gradient
    };
    for (int i = 0; i < 50; ++i) step();
    std::vector<double> times;
    for (int r = 0; r < 7; ++r) {
        const int n = 100;
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < n; ++i) step();
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / n);
    }
    torch::set_num_threads(saved);
    std::sort(times.begin(), times.end());
    return static_cast<double>(batch) / times.front();  // the best round: a floor
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
                buf[static_cast<std::size_t>(i)] = {
                    1, branch, MetricKind::TrainingStep, done + i + 1, 1, done + i + 1, 0.5, 0.9, now_seconds()};
            reg.append_metrics(run, buf);
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        rate = static_cast<double>(rows) / s;
    }
    remove_tree(home);
    return rate;
}

// GB/s of hashing `streams` streams of `bytes` each (the best of 15 rounds).
double hash_gigabytes_per_second(int streams, std::size_t bytes, bool openssl) {
    std::vector<std::uint8_t> data(bytes * static_cast<std::size_t>(streams));
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 2654435761u >> 13);
    double best = 1e30;
    for (int round = 0; round < 15; ++round) {
        std::vector<Sha256Stream> s(static_cast<std::size_t>(streams));
        for (int i = 0; i < streams; ++i)
            s[static_cast<std::size_t>(i)].ranges = {{data.data() + bytes * static_cast<std::size_t>(i), bytes}};
        const auto t0 = std::chrono::steady_clock::now();
        if (openssl) {
            for (auto& x : s) {
                Sha256 h;
                h.update(x.ranges[0].data, x.ranges[0].size);
                x.digest = h.finish();
            }
        } else {
            sha256_streams(s);
        }
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return static_cast<double>(data.size()) / best / 1e9;
}

// Where a save's overhead goes, in µs of training time per save: the step
// whose end takes the snapshot (its capture, and any wait for the previous
// save), the first and second steps after it (the optimizer's first pass
// writes buffers the I/O thread has just read, see cache_release.h), and the
// other steps (sharing memory bandwidth with the I/O thread). Each is the
// excess over the mean step of the paired baselines, over whole save cycles
// after the first 10 % of steps (warm-up), the last step left out (it ends
// with validation).
struct OverheadShares {
    double capture = 0, next = 0, second = 0, rest = 0;
    std::int64_t saves = 0;  // 0: none inside the measured steps, and no shares
};

OverheadShares overhead_shares(const std::vector<double>& steps, double baseline_step, std::int64_t save_every) {
    OverheadShares o;
    if (save_every < 3 || steps.size() < 20) return o;
    // Whole save cycles only (a capture and the save_every - 1 steps after it), so
    // that every share is counted the same number of times: from the first capture
    // after the warm-up to the last step before a capture that has its whole cycle.
    const std::size_t every = static_cast<std::size_t>(save_every);
    std::size_t first = steps.size() / 10;
    while (first < steps.size() && (first + 1) % every != 0) ++first;
    const std::size_t end = first + (steps.size() - std::min(first, steps.size())) / every * every;
    std::int64_t saves = 0;
    for (std::size_t i = first; i < end; ++i) {
        const std::int64_t gs = static_cast<std::int64_t>(i) + 1;  // step i is global step i + 1 of a fresh run
        const double excess = (steps[i] - baseline_step) * 1e6;
        const std::int64_t after = gs % save_every;
        if (after == 0) {
            o.capture += excess;
            ++saves;
        } else if (after == 1)
            o.next += excess;
        else if (after == 2)
            o.second += excess;
        else
            o.rest += excess;
    }
    if (saves == 0) return {};
    for (double* v : {&o.capture, &o.next, &o.second, &o.rest}) *v /= static_cast<double>(saves);
    o.saves = saves;
    return o;
}

// The interleaved estimate: in a run that saves only in every other block of
// `block` steps (TrainHooks::save_blocks), each saving block's mean step
// against the mean of the quiet blocks either side of it; the ratios of
// every such block. Both conditions share the run, so the machine's drift
// between runs (often 10-20 %) cancels. The first `settle` steps of a block
// are left out: a quiet block may begin while the last save of the block
// before is still writing. Block 0, the run's warm-up, is not compared;
// block 1 serves only as block 2's quiet neighbour.
// The mean step of each whole block of `block` steps, its first `settle` left out.
std::vector<double> block_means(const std::vector<double>& steps, std::int64_t block, std::int64_t settle) {
    const std::size_t b = static_cast<std::size_t>(block), skip = static_cast<std::size_t>(settle);
    std::vector<double> means;
    for (std::size_t start = 0; start + b <= steps.size(); start += b) {
        double sum = 0;
        for (std::size_t i = start + skip; i < start + b; ++i) sum += steps[i];
        means.push_back(sum / static_cast<double>(b - skip));
    }
    return means;
}

std::vector<double> interleaved_ratios(const std::vector<double>& steps, std::int64_t block, std::int64_t settle) {
    const std::vector<double> means = block_means(steps, block, settle);
    std::vector<double> ratios;
    for (std::size_t k = 2; k + 1 < means.size(); k += 2)
        ratios.push_back(means[k] / ((means[k - 1] + means[k + 1]) / 2));
    return ratios;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The mean of the block ratios and its standard error. The median above
// shrugs off the blocks where a capture waited long for a slow disk; a user
// pays for those too, so the mean is the overhead a long run sees, and the
// standard error says how far one run's figure can be trusted.
struct MeanSe {
    double mean = NAN, se = NAN;
};
MeanSe mean_and_se(const std::vector<double>& v) {
    MeanSe m;
    if (v.empty()) return m;
    double sum = 0;
    for (double x : v) sum += x;
    m.mean = sum / static_cast<double>(v.size());
    if (v.size() < 2) return m;
    double sq = 0;
    for (double x : v) sq += (x - m.mean) * (x - m.mean);
    m.se = std::sqrt(sq / static_cast<double>(v.size() - 1) / static_cast<double>(v.size()));
    return m;
}

// Where a save's cost lands, from the same runs and the same blocks as
// interleaved_ratios: each step of a saving block less the mean step of the
// quiet blocks either side, grouped by the step's distance from the last
// capture (0: the step that ended with the capture). phases[d] collects those
// excesses in seconds.
void collect_save_phases(const std::vector<double>& steps, std::int64_t block, std::int64_t settle,
                         std::int64_t save_every, std::vector<std::vector<double>>& phases) {
    const std::size_t b = static_cast<std::size_t>(block), skip = static_cast<std::size_t>(settle);
    const std::vector<double> means = block_means(steps, block, settle);
    phases.resize(static_cast<std::size_t>(save_every));
    for (std::size_t k = 2; k + 1 < means.size(); k += 2) {
        const double quiet = (means[k - 1] + means[k + 1]) / 2;
        for (std::size_t i = k * b + skip; i < (k + 1) * b; ++i) {
            const std::int64_t global_step = static_cast<std::int64_t>(i) + 1;
            phases[static_cast<std::size_t>(global_step % save_every)].push_back(steps[i] - quiet);
        }
    }
}

// `runs` interleaved runs of mlp saving every `save_every` steps in blocks of
// `block` (twelve blocks a run); the ratios of all their saving blocks.
// Optionally also where each save's cost landed (collect_save_phases) and the
// captures that waited for the previous save (waits: checkpoints, waited, wait_ms).
std::vector<double> interleaved_runs(const std::string& data, std::int64_t batch, std::int64_t threads,
                                     std::int64_t save_every, CaptureMode capture, const std::string& policy,
                                     std::int64_t block, int runs, std::vector<std::vector<double>>* phases = nullptr,
                                     RunStats* waits = nullptr) {
    std::vector<double> all;
    for (int r = 0; r < runs; ++r) {
        const RunStats s = train_once(data, "mlp", batch, threads, 12 * block, save_every, capture, policy, block);
        const auto part = interleaved_ratios(s.step_seconds, block, block / 5);
        all.insert(all.end(), part.begin(), part.end());
        if (phases) collect_save_phases(s.step_seconds, block, block / 5, save_every, *phases);
        if (waits) {
            waits->checkpoints += s.checkpoints;
            waits->waited += s.waited;
            waits->wait_ms += s.wait_ms;
            // Over all the runs' saves, each run weighted by its saves.
            const double before = static_cast<double>(waits->checkpoints - s.checkpoints);
            if (waits->checkpoints > 0)
                waits->mean_stall_ms =
                    (waits->mean_stall_ms * before + s.mean_stall_ms * static_cast<double>(s.checkpoints)) /
                    static_cast<double>(waits->checkpoints);
        }
    }
    return all;
}

double mean_step_seconds(const std::vector<double>& steps) {
    if (steps.size() < 20) return NAN;
    double sum = 0;
    for (std::size_t i = steps.size() / 10; i < steps.size(); ++i) sum += steps[i];
    return sum / static_cast<double>(steps.size() - steps.size() / 10);
}

struct ListRefreshCost {
    std::int64_t rows;
    double full_read_ms, refresh_ms;
};

// A run that saved every step with keep 5: `rows` checkpoint rows, all but the
// newest five 'deleted', as retention leaves them. Times one refresh of the
// window's view both ways (the median of 21), each after one new save.
ListRefreshCost checkpoint_list_refresh_cost(std::int64_t rows) {
    const std::string home = temp_home();
    ListRefreshCost cost{rows, 0, 0};
    {
        Registry reg(home);
        const std::int64_t run = reg.create_run("history", "{}", 100, 100, "cpu");
        const std::int64_t branch = reg.find_run("history")->active_branch_id;
        auto save = [&](std::int64_t gs) {
            CheckpointRow c;
            c.run_id = run;
            c.branch_id = branch;
            c.epoch = 1;
            c.step = c.global_step = gs;
            c.path = "checkpoints/history/";
            const std::int64_t id = reg.insert_writing_checkpoint(c);
            CheckpointCommit commit;
            commit.bytes = 4891120;
            commit.sha256 = commit.params_sha256 = std::string(64, 'a');
            commit.write_ms = 6.0;
            commit.stall_ms = 0.1;
            reg.commit_checkpoint(id, commit);
            return id;
        };
        std::int64_t gs = 0;
        {
            Registry::RelaxedCommits fast_setup(reg);  // the history's durability is not what is measured
            for (; gs < rows; ++gs) {
                const std::int64_t id = save(gs + 1);
                if (gs + 5 < rows)
                    reg.set_checkpoint_state(id, savepoint::CheckpointState::Deleted, "removed by retention (keep 5)");
            }
        }
        auto median_ms = [&](const std::function<void()>& refresh) {
            std::vector<double> t;
            for (int i = 0; i < 21; ++i) {
                save(++gs);
                const auto t0 = std::chrono::steady_clock::now();
                refresh();
                t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            }
            std::sort(t.begin(), t.end());
            return t[t.size() / 2];
        };
        std::size_t seen = 0;
        cost.full_read_ms = median_ms([&] { seen += reg.checkpoints(run).size(); });
        CheckpointList list;
        list.load(reg, run);
        cost.refresh_ms = median_ms([&] { seen += list.refresh(reg) ? list.rows().size() : 0; });
        if (seen == 0) cost.refresh_ms = NAN;  // nothing was read: the measurement is void
    }
    remove_tree(home);
    return cost;
}

}  // namespace

// --device cuda: the GPU's own figures (bench_train_cuda.h) instead of the CPU sections.
int run_on_cuda(const std::string& data, std::vector<std::string> models, bool quick, const std::string& json_path,
                nlohmann::json out) {
    const std::string why = cuda_unavailable_reason();
    if (!why.empty()) {
        std::fprintf(stderr, "bench_train: --device cuda: %s\n", why.c_str());
        return 2;
    }
    models.insert(models.begin(), {"mlp", "dnn", "cnn"});
    const CudaTrain train = [&data](const std::string& model, std::int64_t batch, std::int64_t steps,
                                    std::int64_t save_every) {
        const RunStats s = train_once(data, model, batch, 1, steps, save_every);
        return CudaRun{s.samples_per_second, s.loop_seconds, s.mean_stall_ms};
    };
    out.update(cuda_benchmarks(train, models, quick));
    if (!json_path.empty()) std::ofstream(json_path) << out.dump(2) << "\n";
    return 0;
}

int main(int argc, char** argv) {
    bool quick = false;
    std::string data = "fashion-mnist", json_path, only;
    std::int64_t only_batch = 0;    // 0: every batch size
    std::int64_t probe_every = 10;  // --only interleaved
    int probe_runs = 4;
    double study_minutes = 20;  // --only capture-study
    CaptureMode probe_capture = CaptureMode::Auto;
    std::vector<std::string> extra_models;  // --model FILE.pt: a TorchScript model too (--device cuda)
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--data" && i + 1 < argc)
            data = argv[++i];
        else if (a == "--json" && i + 1 < argc)
            json_path = argv[++i];
        else if (a == "--only" && i + 1 < argc &&
                 (std::string(argv[i + 1]) == "throughput" || std::string(argv[i + 1]) == "checkpoints" ||
                  std::string(argv[i + 1]) == "registry" || std::string(argv[i + 1]) == "capture" ||
                  std::string(argv[i + 1]) == "hash" || std::string(argv[i + 1]) == "interleaved" ||
                  std::string(argv[i + 1]) == "telemetry" || std::string(argv[i + 1]) == "capture-study"))
            only = argv[++i];
        else if (a == "--batch" && i + 1 < argc && std::atoll(argv[i + 1]) > 0)
            only_batch = std::atoll(argv[++i]);
        else if (a == "--every" && i + 1 < argc && std::atoll(argv[i + 1]) > 0)
            probe_every = std::atoll(argv[++i]);
        else if (a == "--runs" && i + 1 < argc && std::atoi(argv[i + 1]) > 0)
            probe_runs = std::atoi(argv[++i]);
        else if (a == "--minutes" && i + 1 < argc && std::atof(argv[i + 1]) > 0)
            study_minutes = std::atof(argv[++i]);
        else if (a == "--copying")
            probe_capture = CaptureMode::Copying;
        else if (a == "--copy-free")
            probe_capture = CaptureMode::CopyFree;
        else if (a == "--device" && i + 1 < argc &&
                 (std::string(argv[i + 1]) == "cpu" || std::string(argv[i + 1]) == "cuda"))
            g_device = argv[++i];
        else if (a == "--model" && i + 1 < argc)
            extra_models.push_back(argv[++i]);
        else {
            std::fprintf(
                stderr,
                "usage: bench_train [--quick] [--data fashion-mnist|synthetic] [--json PATH]\n"
                "                   [--only throughput|checkpoints|registry|capture|hash|telemetry] [--batch N]\n"
                "       bench_train --only interleaved [--every N] [--copying|--copy-free] [--runs R] [--batch N]\n"
                "       bench_train --device cuda [--quick] [--data D] [--model FILE.pt]... [--json PATH]\n"
                "       bench_train --only capture-study [--minutes M] [--model FILE.pt] [--json PATH]\n");
            return 2;
        }
    }
    nlohmann::json out = {{"tool", "bench_train"}, {"data", data}, {"libtorch", TORCH_VERSION}, {"quick", quick}};
    if (g_device == "cuda") return run_on_cuda(data, extra_models, quick, json_path, out);
    // Enough samples for stable rates; --quick is the CI smoke run.
    auto steps_for = [&](const std::string& model, std::int64_t batch) -> std::int64_t {
        if (quick) return 20;
        std::int64_t samples = model == "cnn" ? 20000 : 60000;
        return std::max<std::int64_t>(50, samples / batch);
    };

    auto wanted = [&](const char* section) { return only.empty() || only == section; };
    nlohmann::json throughput = nlohmann::json::array();
    if (wanted("throughput")) {
        std::printf("%-6s %6s %8s %14s %18s\n", "model", "batch", "threads", "samples/s", "of matmul floor");
        const std::vector<std::string> models =
            quick ? std::vector<std::string>{"mlp"} : std::vector<std::string>{"mlp", "dnn", "cnn"};
        const std::vector<std::int64_t> batches =
            quick ? std::vector<std::int64_t>{32} : std::vector<std::int64_t>{32, 128, 256};
        for (const auto& model : models)
            for (std::int64_t batch : batches)
                for (std::int64_t threads : {1, 2}) {
                    if (only_batch && batch != only_batch) continue;
                    RunStats s = train_once(data, model, batch, threads, steps_for(model, batch), 0);
                    nlohmann::json row = {{"model", model},
                                          {"batch", batch},
                                          {"threads", threads},
                                          {"samples_per_second", s.samples_per_second}};
                    char floor_text[64] = "";
                    if (model == "mlp") {
                        const double floor = mlp_matmul_floor(batch, threads);
                        row["matmul_floor_samples_per_second"] = floor;
                        std::snprintf(floor_text, sizeof floor_text, "%5.1f %% of %6.0f",
                                      100 * s.samples_per_second / floor, floor);
                    }
                    std::printf("%-6s %6lld %8lld %14.0f %18s\n", model.c_str(), static_cast<long long>(batch),
                                static_cast<long long>(threads), s.samples_per_second, floor_text);
                    std::fflush(stdout);
                    throughput.push_back(row);
                }
        out["throughput"] = throughput;
    }

    nlohmann::json overhead = nlohmann::json::array();
    struct Breakdown {
        std::int64_t batch;
        std::string save;
        OverheadShares share;
        double interval_us;
    };
    std::vector<Breakdown> breakdown;
    if (wanted("checkpoints")) {
        struct Variant {
            std::string name;
            std::int64_t save_every;
            CaptureMode capture;
            std::string policy = "wait";
        };
        // "epoch" saves once, at the end, like the baseline: its overhead is the noise.
        // The unnamed rows capture as savepoint-cli does (CaptureMode::Auto);
        // "10 (copy-free)" and "10 (copying)" each way, for comparison;
        // "10 (defer)" the policy that takes a save due during another once it commits;
        // "20": at batch 32 a save every ~16 ms, what "every 10" meant at the 1.6 ms
        // step issue 5's targets assumed.
        const std::vector<Variant> variants = {{"1", 1, CaptureMode::Auto},
                                               {"10", 10, CaptureMode::Auto},
                                               {"10 (copy-free)", 10, CaptureMode::CopyFree},
                                               {"10 (copying)", 10, CaptureMode::Copying},
                                               {"10 (defer)", 10, CaptureMode::Auto, "defer"},
                                               {"20", 20, CaptureMode::Auto},
                                               {"30", 30, CaptureMode::Auto},
                                               {"epoch", 0, CaptureMode::Auto}};
        for (std::int64_t batch : quick ? std::vector<std::int64_t>{32} : std::vector<std::int64_t>{32, 128}) {
            if (only_batch && batch != only_batch) continue;
            const int threads = batch >= 128 ? 2 : 1;
            std::printf("\ncapture as savepoint-cli chooses it, batch %lld: %s (%d training thread%s, %d CPUs)",
                        static_cast<long long>(batch), auto_capture_name(threads), threads, threads == 1 ? "" : "s",
                        available_cpus());
        }
        std::printf("\n%-6s %6s %14s %10s %12s %12s %16s %12s %12s\n", "model", "batch", "save", "samples/s",
                    "overhead", "interleaved", "il_mean ± se", "stall_mean", "stall_max");
        const int reps = quick ? 1 : 5;
        for (std::int64_t batch : quick ? std::vector<std::int64_t>{32} : std::vector<std::int64_t>{32, 128}) {
            if (only_batch && batch != only_batch) continue;
            const std::int64_t threads = batch >= 128 ? 2 : 1;
            const std::int64_t full_steps = quick ? 30 : (batch == 32 ? 1500 : 450);
            for (const auto& v : variants) {
                // Saving every step is ~8x slower and needs no precision: fewer steps.
                const std::int64_t steps = v.save_every == 1 && !quick ? full_steps / 5 : full_steps;
                // Paired runs, baseline and variant back to back (B V B V ... B), each
                // variant run compared with the mean of the baselines either side of
                // it; the median of those ratios. This machine drifts by ±20 % from
                // one minute to the next, far more than the 2-5 % being measured, but
                // little within the few seconds a pair takes.
                std::vector<double> ratios, rates;
                std::vector<OverheadShares> shares;
                double stall_sum = 0, stall_max = 0;
                std::int64_t checkpoints = 0, deferred = 0, steps_deferred = 0, skipped = 0, copy_free_captures = 0;
                RunStats before = train_once(data, "mlp", batch, threads, steps, 0);
                for (int r = 0; r < reps; ++r) {
                    const RunStats s =
                        train_once(data, "mlp", batch, threads, steps, v.save_every, v.capture, v.policy);
                    deferred += s.deferred;
                    copy_free_captures += s.copy_free_captures;
                    steps_deferred += s.steps_deferred;
                    skipped += s.skipped;
                    const RunStats after = train_once(data, "mlp", batch, threads, steps, 0);
                    ratios.push_back(s.loop_seconds / ((before.loop_seconds + after.loop_seconds) / 2));
                    shares.push_back(overhead_shares(
                        s.step_seconds,
                        (mean_step_seconds(before.step_seconds) + mean_step_seconds(after.step_seconds)) / 2,
                        v.save_every));
                    before = after;
                    rates.push_back(s.samples_per_second);
                    stall_sum += s.mean_stall_ms * static_cast<double>(s.checkpoints);
                    checkpoints += s.checkpoints;
                    stall_max = std::max(stall_max, s.max_stall_ms);
                }
                const double pct = 100.0 * (median(ratios) - 1);
                const double stall_mean = checkpoints ? stall_sum / static_cast<double>(checkpoints) : 0;
                // The same variant measured inside single runs (interleaved_ratios): ten saves
                // a block, or 100 steps when saves are more frequent than every 10 steps. The
                // rows issue 5's targets are judged by (batch 32, every 10 and 30, as savepoint-cli
                // saves) get more runs: 24, which take ~1.5 min together and bring the standard
                // error to ~0.3 points (8 runs left it at 0.4-1.0, 2026-12-02).
                const bool target_row = batch == 32 && v.capture == CaptureMode::Auto && v.policy == "wait" &&
                                        (v.save_every == 10 || v.save_every == 30);
                const std::vector<double> blocks =
                    v.save_every == 0
                        ? std::vector<double>{}
                        : interleaved_runs(data, batch, threads, v.save_every, v.capture, v.policy,
                                           quick ? 2 * v.save_every : std::max<std::int64_t>(100, 10 * v.save_every),
                                           quick         ? 1
                                           : target_row  ? 24
                                           : batch == 32 ? 3
                                                         : 2);
                const double interleaved_pct = blocks.empty() ? NAN : 100.0 * (median(blocks) - 1);
                const MeanSe il = mean_and_se(blocks);
                char interleaved_text[32] = "-", il_mean_text[48] = "-";
                if (!blocks.empty()) {
                    std::snprintf(interleaved_text, sizeof interleaved_text, "%.1f%%", interleaved_pct);
                    std::snprintf(il_mean_text, sizeof il_mean_text, "%.1f%% ± %.1f", 100 * (il.mean - 1), 100 * il.se);
                }
                std::printf("%-6s %6lld %14s %10.0f %11.1f%% %12s %16s %10.3fms %10.3fms\n", "mlp",
                            static_cast<long long>(batch), v.name.c_str(), median(rates), pct, interleaved_text,
                            il_mean_text, stall_mean, stall_max);
                if (v.policy != "wait")
                    std::printf("%34s per run: %.1f saves, %.1f of them late (%.1f steps on average), %.1f skipped\n",
                                "", double(checkpoints) / reps, double(deferred) / reps,
                                deferred ? double(steps_deferred) / double(deferred) : 0.0, double(skipped) / reps);
                std::fflush(stdout);
                OverheadShares share;
                // The breakdown groups steps by their distance from a due point: only
                // meaningful when every capture is taken at one.
                if (v.save_every >= 3 && v.policy == "wait" &&
                    std::all_of(shares.begin(), shares.end(), [](const OverheadShares& o) { return o.saves > 0; })) {
                    auto med = [&](double OverheadShares::*field) {
                        std::vector<double> x;
                        for (const auto& o : shares) x.push_back(o.*field);
                        return median(x);
                    };
                    share = {med(&OverheadShares::capture), med(&OverheadShares::next), med(&OverheadShares::second),
                             med(&OverheadShares::rest), shares.front().saves};
                    // The time between two saves, at the rate this variant trained.
                    const double interval_us = 1e6 * static_cast<double>(v.save_every * batch) / median(rates);
                    breakdown.push_back({batch, v.name, share, interval_us});
                }
                overhead.push_back({{"model", "mlp"},
                                    {"batch", batch},
                                    {"threads", threads},
                                    {"overhead_us_per_save",
                                     {{"capture_and_wait", share.capture},
                                      {"next_step", share.next},
                                      {"second_step", share.second},
                                      {"other_steps", share.rest},
                                      {"saves_per_run", share.saves}}},
                                    {"save_every", v.name},
                                    {"capture", capture_name(v.capture)},
                                    {"copy_free_captures", copy_free_captures},
                                    {"async_policy", v.policy},
                                    {"saves_deferred", double(deferred) / reps},
                                    {"steps_deferred", double(steps_deferred) / reps},
                                    {"saves_skipped", double(skipped) / reps},
                                    {"overhead_percent", pct},
                                    {"overhead_ratios", ratios},
                                    {"overhead_interleaved_percent",
                                     blocks.empty() ? nlohmann::json(nullptr) : nlohmann::json(interleaved_pct)},
                                    {"overhead_interleaved_mean_percent",
                                     blocks.empty() ? nlohmann::json(nullptr) : nlohmann::json(100 * (il.mean - 1))},
                                    {"overhead_interleaved_se_percent",
                                     blocks.size() < 2 ? nlohmann::json(nullptr) : nlohmann::json(100 * il.se)},
                                    {"interleaved_block_ratios", blocks},
                                    {"samples_per_second", median(rates)},
                                    {"stall_mean_ms", stall_mean},
                                    {"stall_max_ms", stall_max},
                                    {"checkpoints", double(checkpoints) / reps},
                                    {"steps", steps},
                                    {"pairs", reps}});
            }
        }
        if (!breakdown.empty()) {
            std::printf("\nwhere a save's overhead goes (us of training time per save, median of the pairs):\n");
            std::printf("%6s %14s %14s %10s %10s %10s %10s %12s\n", "batch", "save", "capture+wait", "step+1", "step+2",
                        "others", "total", "interval");
            for (const auto& b : breakdown) {
                const double total = b.share.capture + b.share.next + b.share.second + b.share.rest;
                std::printf("%6lld %14s %14.0f %10.0f %10.0f %10.0f %10.0f %9.0f us (%.1f %%)\n",
                            static_cast<long long>(b.batch), b.save.c_str(), b.share.capture, b.share.next,
                            b.share.second, b.share.rest, total, b.interval_us, 100 * total / b.interval_us);
            }
        }
        out["checkpoint_overhead"] = overhead;
    }

    if (only == "capture-study") {
        const CaptureTrain train = [&data](const std::string& model, std::int64_t batch, std::int64_t threads,
                                           std::int64_t every, std::int64_t block, const StudiedWay& way) {
            const RunStats s = train_once(data, model, batch, threads, 12 * block, every, way.mode, "wait", block);
            StudiedRun r;
            r.block_ratios = interleaved_ratios(s.step_seconds, block, block / 5);
            r.stall_ms = s.mean_stall_ms;
            r.captures = s.checkpoints;
            r.copy_free = s.copy_free_captures;
            return r;
        };
        out["capture_study"] = capture_study(train, study_minutes, extra_models.empty() ? "" : extra_models.front());
    }
    if (only == "interleaved") {
        // Only on request: one variant, measured the interleaved way only (interleaved_ratios),
        // for trying a change quickly: --every N (default 10), --copying or --copy-free (default:
        // as savepoint-cli chooses), --runs R (default 4),
        // --batch N (default 32; two threads from 128 on, as above).
        const std::int64_t batch = only_batch ? only_batch : 32, threads = batch >= 128 ? 2 : 1;
        std::vector<std::vector<double>> phases;
        RunStats waits;
        std::vector<double> all =
            interleaved_runs(data, batch, threads, probe_every, probe_capture, "wait",
                             std::max<std::int64_t>(100, 10 * probe_every), probe_runs, &phases, &waits);
        if (all.empty()) return 1;
        // The captures that waited for the previous save: where a slow disk shows.
        std::printf(
            "%lld of %lld captures waited for the previous save to be written, %.1f ms in all; "
            "stall %.3f ms a save\n",
            static_cast<long long>(waits.waited), static_cast<long long>(waits.checkpoints), waits.wait_ms,
            waits.mean_stall_ms);
        // Per save, by the step's distance from the capture: median and mean excess in µs.
        std::printf("steps after the capture, excess over the quiet blocks (µs, median / mean):");
        double total_mean = 0;
        for (std::size_t d = 0; d < phases.size(); ++d) {
            if (phases[d].empty()) continue;
            const double mean = mean_and_se(phases[d]).mean;
            total_mean += mean;
            std::printf(" %zu: %.0f / %.0f;", d, 1e6 * median(phases[d]), 1e6 * mean);
        }
        std::printf(" sum of means %.0f\n", 1e6 * total_mean);
        const MeanSe il = mean_and_se(all);
        std::sort(all.begin(), all.end());
        std::printf(
            "mlp batch %lld (%lld thread%s), save every %lld (%s capture): overhead %.1f %% (median of %zu blocks; "
            "quartiles %.1f %% .. %.1f %%; mean %.1f %% ± %.1f)\n",
            static_cast<long long>(batch), static_cast<long long>(threads), threads == 1 ? "" : "s",
            static_cast<long long>(probe_every),
            (probe_capture != CaptureMode::Auto ? std::string(capture_name(probe_capture))
                                                : std::string("auto: ") + auto_capture_name(threads))
                .c_str(),
            100 * (all[all.size() / 2] - 1), all.size(), 100 * (all[all.size() / 4] - 1),
            100 * (all[3 * all.size() / 4] - 1), 100 * (il.mean - 1), 100 * il.se);
        out["interleaved"] = {{"batch", batch},
                              {"threads", threads},
                              {"save_every", probe_every},
                              {"capture", capture_name(probe_capture)},
                              {"block_ratios", all}};
    }
    if (only == "capture") {
        // Only on request: the copy-free capture against the copying one, head to head,
        // saving every 10 steps. Runs alternate (F C F C ... F); each copying run is
        // divided by the mean of the copy-free runs either side of it. Above 1: copy-free wins.
        nlohmann::json capture = nlohmann::json::array();
        std::printf("\n%-6s %6s %8s %22s %18s\n", "model", "batch", "pairs", "copying / copy-free", "range");
        for (std::int64_t batch : quick ? std::vector<std::int64_t>{32} : std::vector<std::int64_t>{32, 128}) {
            if (only_batch && batch != only_batch) continue;
            const std::int64_t threads = batch >= 128 ? 2 : 1;
            const std::int64_t steps = quick ? 30 : (batch == 32 ? 1500 : 450);
            const int pairs = quick ? 1 : 9;
            std::vector<double> ratios;
            double before = train_once(data, "mlp", batch, threads, steps, 10, CaptureMode::CopyFree).loop_seconds;
            for (int r = 0; r < pairs; ++r) {
                const double copying =
                    train_once(data, "mlp", batch, threads, steps, 10, CaptureMode::Copying).loop_seconds;
                const double after =
                    train_once(data, "mlp", batch, threads, steps, 10, CaptureMode::CopyFree).loop_seconds;
                ratios.push_back(copying / ((before + after) / 2));
                before = after;
            }
            std::vector<double> sorted = ratios;
            std::sort(sorted.begin(), sorted.end());
            std::printf("%-6s %6lld %8d %22.3f %8.3f – %.3f\n", "mlp", static_cast<long long>(batch), pairs,
                        sorted[sorted.size() / 2], sorted.front(), sorted.back());
            std::fflush(stdout);
            capture.push_back({{"model", "mlp"},
                               {"batch", batch},
                               {"threads", threads},
                               {"save_every", 10},
                               {"copying_over_copy_free", sorted[sorted.size() / 2]},
                               {"ratios", ratios}});
        }
        out["capture_ab"] = capture;
    }

    if (only == "telemetry") {
        // Only on request: what the telemetry sampler (a sample a second on a thread of its own, handed to
        // the I/O thread at the metric flushes) costs training. Runs alternate, off and on (O N O N ... O);
        // each run with telemetry divided by the mean of the runs without either side of it.
        const std::int64_t batch = only_batch ? only_batch : 32, threads = batch >= 128 ? 2 : 1;
        const std::int64_t steps = quick ? 200 : (batch == 32 ? 3000 : 900);
        const int pairs = quick ? 1 : probe_runs * 3;
        std::vector<double> ratios;
        g_telemetry_seconds = 0;
        double before = train_once(data, "mlp", batch, threads, steps, 0).loop_seconds;
        for (int r = 0; r < pairs; ++r) {
            g_telemetry_seconds = 1;
            const double on = train_once(data, "mlp", batch, threads, steps, 0).loop_seconds;
            g_telemetry_seconds = 0;
            const double after = train_once(data, "mlp", batch, threads, steps, 0).loop_seconds;
            ratios.push_back(on / ((before + after) / 2));
            before = after;
        }
        std::vector<double> sorted = ratios;
        std::sort(sorted.begin(), sorted.end());
        const MeanSe m = mean_and_se(ratios);
        std::printf(
            "mlp batch %lld (%lld thread%s), %lld steps a run: telemetry costs %.2f %% (median of %d pairs; "
            "quartiles %.2f %% .. %.2f %%; mean %.2f %% ± %.2f)\n",
            static_cast<long long>(batch), static_cast<long long>(threads), threads == 1 ? "" : "s",
            static_cast<long long>(steps), 100 * (sorted[sorted.size() / 2] - 1), pairs,
            100 * (sorted[sorted.size() / 4] - 1), 100 * (sorted[3 * sorted.size() / 4] - 1), 100 * (m.mean - 1),
            100 * m.se);
        out["telemetry_cost"] = {{"batch", batch}, {"threads", threads}, {"steps", steps}, {"ratios", ratios}};
    }

    double ingest = 1;  // skipped sections must not fail the sanity check below
    if (wanted("registry")) {
        ingest = registry_ingest_rows_per_second(quick ? 20000 : 200000, 1000);
        std::printf("\nregistry metric ingest: %.0f rows/s (batches of 1000, synchronous=FULL)\n", ingest);
        out["registry_ingest_rows_per_second"] = ingest;
        nlohmann::json lists = nlohmann::json::array();
        std::printf("checkpoint list refresh (one new save each time; history all 'deleted' but 5):\n");
        for (std::int64_t rows :
             quick ? std::vector<std::int64_t>{1000} : std::vector<std::int64_t>{1000, 10000, 50000}) {
            const ListRefreshCost c = checkpoint_list_refresh_cost(rows);
            std::printf("  %6lld rows: full read %8.2f ms, CheckpointList::refresh %6.3f ms\n",
                        static_cast<long long>(rows), c.full_read_ms, c.refresh_ms);
            lists.push_back({{"rows", rows}, {"full_read_ms", c.full_read_ms}, {"refresh_ms", c.refresh_ms}});
            if (!(c.refresh_ms > 0)) ingest = NAN;  // fails the sanity check below
        }
        out["checkpoint_list_refresh"] = lists;
    }

    if (wanted("hash")) {
        // 4.9 MB: what an mlp checkpoint hashes.
        const std::size_t bytes = quick ? (1 << 20) : 4891120;
        const double openssl = hash_gigabytes_per_second(1, bytes, true);
        std::printf("\nSHA-256 (%zu bytes a stream; SHA-NI lanes: %s)\n", bytes,
                    sha256_streams_use_sha_ni() ? "yes" : "no");
        std::printf("  OpenSSL, 1 stream       %6.2f GB/s\n", openssl);
        nlohmann::json h = {
            {"bytes_per_stream", bytes}, {"sha_ni_lanes", sha256_streams_use_sha_ni()}, {"openssl_gb_per_s", openssl}};
        for (int n : {1, 2, 3}) {
            const double rate = hash_gigabytes_per_second(n, bytes, false);
            std::printf("  sha256_streams, %d       %6.2f GB/s in all\n", n, rate);
            h["streams_" + std::to_string(n) + "_gb_per_s"] = rate;
            if (!(rate > 0)) ingest = NAN;
        }
        out["sha256"] = h;
    }

    if (!json_path.empty()) {
        std::ofstream f(json_path);
        f << out.dump(2) << "\n";
    }
    // The smoke test relies on this: a rate that is not a positive number means the bench is broken.
    bool sane = ingest > 0 && std::isfinite(ingest);
    for (const auto& t : throughput) sane = sane && t["samples_per_second"].get<double>() > 0;
    for (const auto& o : overhead) {
        sane = sane && std::isfinite(o["overhead_percent"].get<double>());
        if (!o["overhead_interleaved_percent"].is_null())
            sane = sane && std::isfinite(o["overhead_interleaved_percent"].get<double>());
    }
    if (!sane) std::fprintf(stderr, "bench_train: a measurement came out non-positive or not finite\n");
    return sane ? 0 : 1;
}
