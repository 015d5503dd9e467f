// Text and JSON renderings of registry rows for savepoint-cli.
#pragma once

#include "registry/checkpoint_remotes.h"
#include "registry/registry.h"

#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <vector>

namespace savepoint {

nlohmann::json checkpoint_json(const Registry& reg, const RunRow& run, const CheckpointRow& c);
nlohmann::json run_json(Registry& reg, const RunRow& run);
// `remotes`: each checkpoint's copy in remote storage, shown among the marks ("s3 uploaded").
void print_checkpoint_table(std::ostream& out, const Registry& reg, const RunRow& run,
                            const std::vector<CheckpointRow>& rows,
                            const std::map<std::int64_t, CheckpointRemote>* remotes = nullptr);
void print_run_table(std::ostream& out, Registry& reg, const std::vector<RunRow>& runs);
std::string format_duration(double seconds);

}  // namespace savepoint
