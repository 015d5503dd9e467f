// savepoint-cli checkpoints: one run's checkpoints, as a table or JSON.
#include "cli_commands.h"
#include "cli_home.h"
#include "cli_output.h"

#include "registry/checkpoint_remotes.h"
#include "training/train_config.h"

#include <map>

namespace savepoint {

int checkpoints_command(const std::string& resolved_home, const std::string& run_name, bool json, std::ostream& out,
                        std::ostream& err) {
    validate_run_name(run_name);
    if (!home_has_registry(resolved_home)) {
        note_files_without_registry(resolved_home, err);
        throw no_run_named(run_name, resolved_home);
    }
    auto reg = open_registry_to_read(resolved_home, err);
    RunRow run = require_run(*reg, run_name);
    auto rows = reg->checkpoints(run.id);
    std::map<std::int64_t, CheckpointRemote> remotes;
    for (const auto& r : checkpoint_remotes(*reg, run.id)) remotes[r.checkpoint_id] = r;
    if (json) {
        nlohmann::json arr = nlohmann::json::array();
        for (const auto& c : rows) {
            nlohmann::json j = checkpoint_json(*reg, run, c);
            // null: never sent to remote storage (train --remote)
            j["remote"] = nullptr;
            if (auto it = remotes.find(c.id); it != remotes.end())
                j["remote"] = {{"uri", it->second.remote},
                               {"state", to_string(it->second.state)},
                               {"etag", it->second.etag},
                               {"detail", it->second.detail},
                               {"attempts", it->second.attempts}};
            arr.push_back(j);
        }
        out << arr.dump(2) << "\n";
    } else {
        print_checkpoint_table(out, *reg, run, rows, &remotes);
    }
    return 0;
}

}  // namespace savepoint
