// savepoint-cli resume: a run continued from its latest usable checkpoint, or
// rolled back to an earlier one, with the settings it was created with.
#include "cli_commands.h"
#include "cli_remote.h"
#include "cli_training.h"
#include "cli_worker.h"

#include "platform/errors.h"

namespace savepoint {

int resume_command(const CliFlags& f, const std::string& resolved_home, std::ostream& out, std::ostream& err,
                   bool install_signals) {
    refuse_worker_environment("resume");
    TrainRequest req = training_request(f, resolved_home);
    req.resume = true;
    req.data_override = f.resume_data;
    req.model_override = f.resume_model;
    if (f.lr_opt->count()) req.lr_override = f.resume_lr;
    if (f.ck_opt->count()) {
        if (f.checkpoint_id < 1)
            throw InputError("checkpoint", "a checkpoint id (a positive integer)", std::to_string(f.checkpoint_id));
        req.target.checkpoint_id = f.checkpoint_id;
    }
    if (f.ep_opt->count()) req.target.epoch = f.resume_epoch;
    if (f.st_opt->count()) req.target.step = f.resume_step;
    // Checked before training starts: a bad remote creates nothing.
    std::unique_ptr<RemoteSync> remote = remote_sync_for(f, resolved_home);
    note_pending_uploads(f, resolved_home, out);
    return run_training(req, out, err, install_signals, remote.get(), f.remote_grace_seconds);
}

}  // namespace savepoint
