// savepoint-cli pin and unpin: whether retention may delete a checkpoint.
#include "cli_commands.h"
#include "cli_home.h"

#include "registry/checkpoint_actions.h"
#include "training/train_config.h"

namespace savepoint {

int pin_command(const std::string& resolved_home, const std::string& run_name, std::int64_t checkpoint_id, bool pin,
                std::ostream& out, std::ostream& err) {
    validate_run_name(run_name);
    if (!home_has_registry(resolved_home)) throw no_run_named(run_name, resolved_home);
    auto reg = open_registry(resolved_home, err);
    RunRow run = require_run(*reg, run_name);
    // The rules (which checkpoint may be pinned) are the engine's: the window keeps the same ones.
    const auto change = set_checkpoint_pinned(*reg, run, checkpoint_id, pin);
    const auto* c = &change.before;
    if (!change.changed) {  // nothing to change: say so, not "pinned"
        out << "checkpoint #" << c->id << (c->pinned ? " was already pinned" : " was not pinned") << "\n";
        return 0;
    }
    out << (pin ? "pinned" : "unpinned") << " checkpoint #" << c->id << "\n";
    return 0;
}

}  // namespace savepoint
