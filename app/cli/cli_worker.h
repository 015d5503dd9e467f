// savepoint-cli train as a worker of a data-parallel job (torchrun --no_python):
// joins the job named by the environment, and turns the request into this
// rank's part: rank 0 trains the run (resuming it when torchrun restarted the
// job or the run was interrupted); the others train beside it and open nothing.
#pragma once

#include "training/trainer.h"

#include <ostream>
#include <string>

namespace savepoint {

class WorkerJob {
public:
    // A single process (no RANK or WORLD_SIZE): does nothing. Throws InputError
    // for a bad environment, an unreachable rank 0 or different configs, before
    // anything is created.
    WorkerJob(TrainRequest& req, std::ostream& out);
};

// resume under torchrun: refused (InputError), since every worker would resume the run on its own;
// train resumes an interrupted job by itself.
void refuse_worker_environment(const std::string& command);

}  // namespace savepoint
