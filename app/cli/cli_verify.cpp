// savepoint-cli verify: the registry's own pages first, then every checkpoint
// file (cli_home.cpp, verify_runs); exit 1 if anything is damaged.
#include "cli_commands.h"
#include "cli_home.h"

#include "checkpoint/recovery.h"
#include "registry/registry.h"
#include "training/train_config.h"

namespace savepoint {

int verify_command(const std::string& resolved_home, const std::string& run_name, std::ostream& out,
                   std::ostream& err) {
    if (!run_name.empty()) validate_run_name(run_name);
    if (!home_has_registry(resolved_home)) {
        const std::size_t orphans = note_files_without_registry(resolved_home, err);
        if (!run_name.empty()) throw no_run_named(run_name, resolved_home);
        out << "0 verified, 0 damaged (no registry in " << resolved_home << ")\n";
        return orphans ? 1 : 0;  // checkpoints nothing vouches for are not a clean bill
    }
    // The registry's own pages first, before recovery writes to it: a damaged
    // one can still list runs while other queries fail ("database disk image
    // is malformed"), and it is left exactly as it is.
    const bool writable = home_writable(resolved_home);
    if (!writable)
        err << "note: " << resolved_home
            << " cannot be written: checking it as it is (damage is reported, not recorded)\n";
    auto reg = writable ? std::make_unique<Registry>(resolved_home)
                        : std::make_unique<Registry>(resolved_home, Registry::ReadOnly{});
    std::string check;
    try {
        check = reg->integrity_check();
    } catch (const std::exception& e) {
        check = e.what();  // too damaged to run the check at all
        // Its advice to run verify is what this is doing: said once, below.
        if (const auto at = check.find(kDamagedAdvice); at != std::string::npos) check.erase(at);
    }
    if (check != "ok") {
        err << "DAMAGED registry " << reg->path() << ": " << check << "\n";
        err << "the registry was left as it is; copy the home before trying to repair it (sqlite3 " << reg->path()
            << " .recover)\n";
        return 1;
    }
    if (writable)
        for (const auto& line : reconcile_registry(*reg).actions) err << "recovery: " << line << "\n";
    return verify_runs(*reg, run_name, out, err);
}

}  // namespace savepoint
