// savepoint-cli pin and unpin: whether retention may delete a checkpoint.
#include "cli_commands.h"
#include "cli_home.h"

#include "training/train_config.h"

namespace savepoint {

int pin_command(const std::string& resolved_home, const std::string& run_name, std::int64_t checkpoint_id, bool pin,
                std::ostream& out, std::ostream& err) {
    validate_run_name(run_name);
    if (!home_has_registry(resolved_home)) throw no_run_error(run_name, resolved_home);
    auto reg = open_registry(resolved_home, err);
    RunRow run = require_run(*reg, run_name);
    auto c = reg->checkpoint(checkpoint_id);
    if (!c || c->run_id != run.id)
        throw InputError("--checkpoint: no checkpoint #" + std::to_string(checkpoint_id) + " in run '" + run_name + "'");
    // Pinning keeps a file from retention; a checkpoint without a usable file has none to keep.
    if (pin && c->state != "committed")
        throw InputError("--checkpoint: checkpoint #" + std::to_string(c->id) + " is " + c->state +
                         (c->state_detail.empty() ? "" : " (" + c->state_detail + ")") +
                         "; only a committed checkpoint can be pinned");
    if (c->pinned == pin) {  // nothing to change: say so, not "pinned"
        out << "checkpoint #" << c->id << (c->pinned ? " was already pinned" : " was not pinned") << "\n";
        return 0;
    }
    reg->set_checkpoint_pinned(c->id, pin);
    out << (pin ? "pinned" : "unpinned") << " checkpoint #" << c->id << "\n";
    return 0;
}

}  // namespace savepoint
