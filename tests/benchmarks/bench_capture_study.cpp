#include "bench_capture_study.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

using savepoint::CaptureMode;

namespace {

struct Setting {
    std::string model;
    std::int64_t batch, threads, every, block;
    std::vector<StudiedWay> ways;
};

double mean_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? NAN : s / static_cast<double>(v.size());
}

double se_of(const std::vector<double>& v) {
    if (v.size() < 2) return NAN;
    const double m = mean_of(v);
    double sq = 0;
    for (double x : v) sq += (x - m) * (x - m);
    return std::sqrt(sq / static_cast<double>(v.size() - 1) / static_cast<double>(v.size()));
}

double median_of(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

nlohmann::json capture_study(const CaptureTrain& train, double minutes, const std::string& large_model) {
    const StudiedWay auto_way{"auto", CaptureMode::Auto};
    const StudiedWay copying{"copying", CaptureMode::Copying};
    const StudiedWay copy_free{"copy-free", CaptureMode::CopyFree};
    // Batch 32 on one thread leaves the I/O thread a CPU; batch 128 on two leaves none
    // (there Auto is copy-free, so it is not a way of its own). A large model's steps
    // are long: blocks of 60 steps, a save every 20, keep a round near a minute.
    const std::vector<Setting> settings =
        large_model.empty() ? std::vector<Setting>{{"mlp", 32, 1, 10, 100, {auto_way, copying, copy_free}},
                                                   {"mlp", 128, 2, 10, 100, {copy_free, copying}}}
                            : std::vector<Setting>{{large_model, 32, 1, 20, 60, {auto_way, copying, copy_free}}};
    // overhead[setting][way][round]: the run's mean block ratio less one, in percent.
    std::vector<std::vector<std::vector<double>>> overhead(settings.size());
    std::vector<std::vector<std::vector<double>>> stall(settings.size());
    std::vector<std::vector<std::int64_t>> copy_free_captures(settings.size()), captures(settings.size());
    for (std::size_t s = 0; s < settings.size(); ++s) {
        overhead[s].resize(settings[s].ways.size());
        stall[s].resize(settings[s].ways.size());
        copy_free_captures[s].assign(settings[s].ways.size(), 0);
        captures[s].assign(settings[s].ways.size(), 0);
    }
    const auto start = std::chrono::steady_clock::now();
    auto elapsed_min = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 60;
    };
    std::printf("capture study: each round runs every way once per setting, the order rotating; %.0f minutes\n",
                minutes);
    int round = 0;
    do {
        std::printf("round %3d (%5.1f min):", round + 1, elapsed_min());
        for (std::size_t s = 0; s < settings.size(); ++s) {
            const Setting& st = settings[s];
            const std::size_t n = st.ways.size();
            std::vector<double> this_round(n, NAN);
            for (std::size_t k = 0; k < n; ++k) {
                const std::size_t w = (k + static_cast<std::size_t>(round)) % n;
                const StudiedRun r = train(st.model, st.batch, st.threads, st.every, st.block, st.ways[w]);
                this_round[w] = 100 * (mean_of(r.block_ratios) - 1);
                stall[s][w].push_back(r.stall_ms);
                copy_free_captures[s][w] += r.copy_free;
                captures[s][w] += r.captures;
            }
            for (std::size_t w = 0; w < n; ++w) overhead[s][w].push_back(this_round[w]);
            std::printf("  b%lld:", static_cast<long long>(st.batch));
            for (double v : this_round) std::printf(" %+5.1f", v);
        }
        std::printf(" %%\n");
        std::fflush(stdout);
        ++round;
    } while (elapsed_min() < minutes);

    nlohmann::json out = nlohmann::json::array();
    for (std::size_t s = 0; s < settings.size(); ++s) {
        const Setting& st = settings[s];
        const std::size_t n = st.ways.size();
        // The best fixed way: the lowest mean overhead among the ways that are not Auto.
        std::size_t best = n;
        for (std::size_t w = 0; w < n; ++w)
            if (st.ways[w].mode != CaptureMode::Auto &&
                (best == n || mean_of(overhead[s][w]) < mean_of(overhead[s][best])))
                best = w;
        std::printf(
            "\n%s batch %lld, %lld thread%s, save every %lld, %d rounds: overhead of saving (interleaved, %%)\n",
            st.model.c_str(), static_cast<long long>(st.batch), static_cast<long long>(st.threads),
            st.threads == 1 ? "" : "s", static_cast<long long>(st.every), round);
        std::printf("  %-26s %8s %14s %14s %14s %10s %12s\n", "way", "median", "mean ± se", "1st half", "2nd half",
                    "stall ms", "vs best");
        nlohmann::json rows = nlohmann::json::array();
        const std::size_t half = overhead[s][0].size() / 2;
        for (std::size_t w = 0; w < n; ++w) {
            const std::vector<double>& v = overhead[s][w];
            std::vector<double> diff;
            for (std::size_t r = 0; r < v.size(); ++r) diff.push_back(v[r] - overhead[s][best][r]);
            const std::vector<double> first(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(half)),
                second(v.begin() + static_cast<std::ptrdiff_t>(half), v.end());
            const double d = mean_of(diff), dse = se_of(diff);
            const bool beyond = w != best && std::fabs(d) > 2 * dse;
            char vs[48] = "best";
            if (w != best) std::snprintf(vs, sizeof vs, "%+.1f ± %.1f%s", d, dse, beyond ? " *" : "");
            std::printf("  %-26s %+7.1f %+8.1f ± %.1f %+14.1f %+14.1f %10.3f %12s\n", st.ways[w].name.c_str(),
                        median_of(v), mean_of(v), se_of(v), mean_of(first), mean_of(second), mean_of(stall[s][w]), vs);
            rows.push_back({{"way", st.ways[w].name},
                            {"overhead_percent_by_round", v},
                            {"median_percent", median_of(v)},
                            {"mean_percent", mean_of(v)},
                            {"se_percent", se_of(v)},
                            {"stall_ms", mean_of(stall[s][w])},
                            {"copy_free_captures", copy_free_captures[s][w]},
                            {"captures", captures[s][w]},
                            {"vs_best_percent", w == best ? 0.0 : d},
                            {"vs_best_se_percent", w == best ? 0.0 : dse},
                            {"beyond_noise", beyond}});
        }
        std::printf("  (* differs from the best fixed way beyond twice its paired standard error)\n");
        out.push_back({{"model", st.model},
                       {"batch", st.batch},
                       {"threads", st.threads},
                       {"save_every", st.every},
                       {"rounds", round},
                       {"ways", rows}});
    }
    return out;
}
