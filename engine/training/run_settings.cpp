#include "training/run_settings.h"

namespace savepoint {

TrainConfig run_settings(const RunRow& run, const std::string& where) {
    return TrainConfig::from_json(nlohmann::json::parse(run.config_json), where);
}

std::optional<TrainConfig> try_run_settings(const RunRow& run) {
    try {
        return run_settings(run);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace savepoint
