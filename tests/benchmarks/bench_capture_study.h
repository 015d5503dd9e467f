// bench_train --only capture-study: every capture mode of the engine against
// every other in one run: the study that chose which modes to keep
// (docs/PERFORMANCE.md, capture mode). The modes take turns run by run (the order rotating each round), so
// that a host that drifts between states over minutes reaches all of them
// alike, and each mode is compared with the others round by round (paired).
#pragma once

#include "training/trainer.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct StudiedWay {
    std::string name;
    savepoint::CaptureMode mode;
};

struct StudiedRun {
    std::vector<double> block_ratios;  // interleaved_ratios of one run: saving block / quiet blocks
    double stall_ms = 0;               // the mean stall a save
    std::int64_t captures = 0, copy_free = 0;
};

// One interleaved run of `model` at `batch` on `threads`, saving every `every`
// steps in every other block of `block` steps, captured `way`.
using CaptureTrain = std::function<StudiedRun(const std::string& model, std::int64_t batch, std::int64_t threads,
                                              std::int64_t every, std::int64_t block, const StudiedWay& way)>;

// Rounds until `minutes` have passed; prints each round and then, for each
// setting, each mode's overhead and its paired difference from the best fixed
// mode. Returns the figures as JSON. mlp at batch 32 on one thread and at 128
// on two; with `large_model` (a TorchScript file) only that model, whose
// checkpoint is large enough for a copy's stall to show against copy-free.
nlohmann::json capture_study(const CaptureTrain& train, double minutes, const std::string& large_model = {});
