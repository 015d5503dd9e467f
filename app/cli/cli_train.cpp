// savepoint-cli train: a new run with the settings given, trained in the foreground.
#include "cli_commands.h"
#include "cli_remote.h"
#include "cli_training.h"
#include "cli_worker.h"

#include "training/run_inputs.h"

namespace savepoint {

int train_command(const CliFlags& f, const std::string& resolved_home, std::ostream& out, std::ostream& err,
                  bool install_signals) {
    TrainRequest req = training_request(f, resolved_home);
    req.config.data = f.data;
    req.config.model = f.model;
    req.config.loss = f.loss;
    req.config.optimizer = f.optimizer;
    req.config.epochs = f.epochs;
    req.config.steps_per_epoch = f.spe;
    req.config.batch = f.batch;
    req.config.lr = f.lr;
    req.config.seed = f.seed;
    req.config.save_every_steps = parse_save_freq(f.save_freq);
    req.config.keep = f.keep;
    req.config.device = f.device;
    req.config.threads = f.threads;
    req.config.async_policy = f.async_policy;
    req.config.validate();
    if (f.dry_run) {
        // Nothing is created: not the home, not the run.
        for (const auto& line : dry_run(req.config).lines()) out << line << "\n";
        out << "dry run passed: nothing was created; drop --dry-run to train\n";
        return 0;
    }
    // Checked before training starts: a bad remote creates nothing.
    std::unique_ptr<RemoteSync> remote = remote_sync_for(f, resolved_home);
    WorkerJob job(req, out);  // under torchrun: this rank's part of the job
    return run_training(req, out, err, install_signals, remote.get(), f.remote_grace_seconds);
}

}  // namespace savepoint
