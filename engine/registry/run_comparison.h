// Several runs side by side, as `savepoint-cli compare` and the window's
// comparison show them: each run's settings, the settings that differ between
// them, a short label per run naming what differs ("lr 1e-3 · batch 64"), and
// its final and best validation figures, read from the registry's metric rows.
// The registry speaks JSON, not TrainConfig (training/ stands above it), so the
// settings are the config's keys as stored.
#pragma once

#include "registry/registry.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace savepoint {

// One validation row: where it was, and its figures (NaN: none yet).
struct ValidationFigure {
    double loss = NAN, accuracy = NAN;
    std::int64_t epoch = 0, step = 0, global_step = 0;
    std::int64_t branch = 0;  // the branch's number within the run (BranchRow::number)
    bool known() const { return !std::isnan(loss); }
};

struct ComparedRun {
    RunRow run;
    nlohmann::json config;           // the stored TrainConfig JSON (an empty object if unreadable)
    std::string label;               // what differs, "lr 1e-3 · batch 64"; the run's name when nothing does
    std::int64_t validations = 0;    // validation rows, all branches
    ValidationFigure final_val;      // the newest validation (the one the run list shows)
    ValidationFigure best_loss;      // the lowest validation loss (the earliest of equals)
    ValidationFigure best_accuracy;  // the highest validation accuracy (the earliest of equals)
    double wall_seconds = 0;         // the sessions' start to end, summed (ended sessions)
    double train_seconds = 0;        // the sessions' time in training steps, summed
};

// A setting whose values are not all equal: the config key, and each run's
// value in the runs' order (null where a run's config lacks the key).
struct SettingDifference {
    std::string key;
    std::vector<nlohmann::json> values;
    std::vector<std::string> shown;  // each value as the label writes it ("1e-3", "adam", "sha256 3f2a9c1e")
    bool bookkeeping = false;        // data_sha256 / model_sha256: "data differs", not a choice anyone made
};

struct RunComparison {
    std::vector<ComparedRun> runs;  // in the order asked
    std::vector<SettingDifference> differences;
};

// Throws InputError (field "run") for fewer than two names or a name given twice.
void check_comparison_names(const std::vector<std::string>& names);

// Throws InputError (field "run") for fewer than two names, a name given twice,
// or a run the home does not have (naming it and listing the runs there are).
// Reads only; the registry may be read-only.
RunComparison compare_runs(Registry& reg, const std::vector<std::string>& names);

// A number as a label writes it: 0.001 -> "1e-3", 0.00025 -> "2.5e-4", 64 -> "64", 0.5 -> "0.5".
std::string short_number(double v);

// How a setting is named in a label ("steps_per_epoch" -> "steps/epoch").
std::string setting_short_name(const std::string& key);

}  // namespace savepoint
