#include "cli_worker.h"

#include "distributed/process_group.h"
#include "distributed/world_env.h"
#include "platform/errors.h"
#include "registry/registry.h"
#include "storage/durable_io.h"
#include "storage/sha256.h"
#include "training/device_choice.h"

namespace savepoint {

namespace {

// Rank 0 resumes, with no flag, a run this job already started: after torchrun
// restarted the workers, or when the run exists and did not finish.
bool resumes(const TrainRequest& req, const WorldEnv& env, std::ostream& out) {
    if (!file_exists(registry_path(req.home))) return false;
    Registry reg(req.home);
    const auto run = reg.find_run(req.run_name);
    if (!run || run->status == RunStatus::Finished) return false;
    out << "run '" << req.run_name << "' exists and did not finish"
        << (env.restart_count > 0 ? " (torchrun restart " + std::to_string(env.restart_count) + ")" : std::string())
        << ": resuming it from its last checkpoint\n";
    return true;
}

}  // namespace

WorkerJob::WorkerJob(TrainRequest& req, std::ostream& out) {
    const std::optional<WorldEnv> env = read_world_env();
    if (!env) return;
    // Said before the job is joined: another policy lets rank 0's disk decide which steps are saved.
    if (req.config.async_policy != "wait")
        throw InputError("async-policy", "'wait' when training under torchrun", "'" + req.config.async_policy + "'");
    // The same run and settings on every rank, or the job is refused at start.
    const std::string text = req.run_name + "\n" + req.config.to_json().dump();
    const std::string hash = sha256_hex(text.data(), text.size()).substr(0, 16);
    // The device the trainer will choose (training/device_choice.h): a CUDA job's collectives are NCCL's.
    req.group = ProcessGroup::join(*env, hash, store_timeout(), trains_on_cuda(req.config));
    out << "worker " << env->rank << " of " << env->world_size << " joined " << env->master_addr << ":"
        << env->master_port << " (config " << hash << ")\n";
    if (env->rank == 0) {
        req.resume = resumes(req, *env, out);
        return;
    }
    // The others open nothing under the home (it may be on rank 0's machine only): their state
    // comes from rank 0, and what only they know goes to it when they end (worker_report.h).
    req.resume = false;
    out << "worker " << env->rank << ": rank 0 records the job; nothing is written here\n";
}

void refuse_worker_environment(const std::string& command) {
    if (const auto env = read_world_env())
        throw InputError("environment variable RANK: expected it unset for savepoint-cli " + command + ", found " +
                         std::to_string(env->rank) +
                         " (under torchrun, savepoint-cli train resumes an interrupted run by itself)");
}

}  // namespace savepoint
