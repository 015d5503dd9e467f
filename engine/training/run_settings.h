// A run's settings as the registry stores them (RunRow::config_json): what a
// resume trains with, and what the front ends show of a run (its model, its
// epochs, its dataset, its learning rate). Read here, so that the CLI and the
// window read them as a resume does.
#pragma once

#include "registry/registry.h"
#include "training/train_config.h"

#include <optional>

namespace savepoint {

// Throws when the stored settings are damaged (not JSON, or a key of the wrong type),
// naming them as `where` (a resume names the registry's file and the run).
TrainConfig run_settings(const RunRow& run, const std::string& where = "registry");
// nullopt when they cannot be read: what only shows them leaves the refusal to a resume.
std::optional<TrainConfig> try_run_settings(const RunRow& run);

}  // namespace savepoint
