// savepoint-cli runs: the home's runs, as a table or JSON.
#include "cli_commands.h"
#include "cli_home.h"
#include "cli_output.h"

namespace savepoint {

int runs_command(const std::string& resolved_home, bool json, std::ostream& out, std::ostream& err) {
    if (!home_has_registry(resolved_home)) {
        note_files_without_registry(resolved_home, err);
        if (json)
            out << "[]\n";
        else
            out << "no runs in " << resolved_home << "\n";
        return 0;
    }
    auto reg = open_registry_to_read(resolved_home, err);
    auto rows = reg->list_runs();
    if (json) {
        nlohmann::json arr = nlohmann::json::array();
        for (const auto& r : rows) arr.push_back(run_json(*reg, r));
        out << arr.dump(2) << "\n";
    } else if (rows.empty()) {
        out << "no runs in " << resolved_home << "\n";
    } else {
        print_run_table(out, *reg, rows);
    }
    return 0;
}

}  // namespace savepoint
