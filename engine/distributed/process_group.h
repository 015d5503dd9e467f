// This worker's membership of a data-parallel job: LibTorch's c10d TCPStore
// (served by rank 0) and a Gloo process group over it (NCCL when the job
// trains on CUDA: collectives.h). Created once, before
// the run is opened; the training thread is the only one that uses it.
#pragma once

#include "distributed/world_env.h"

#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace savepoint {

// A collective failed: another worker of the job is gone (killed, crashed, its
// machine lost). what(): the transport's first line.
struct WorkerLost : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class ProcessGroup {
public:
    // Joins the job described by `env`: rank 0 serves the store on MASTER_PORT,
    // every rank connects to MASTER_ADDR:MASTER_PORT, and the ranks compare
    // `config_hash` (the settings they were given) before the collectives are
    // set up. Throws InputError, naming the variable or both hashes, when the
    // port is taken, rank 0 cannot be reached within `timeout`, or the configs differ.
    // `cuda`: the job trains on GPUs, one a worker (LOCAL_RANK), with NCCL's collectives.
    static std::shared_ptr<ProcessGroup> join(const WorldEnv& env, const std::string& config_hash,
                                              std::chrono::milliseconds timeout, bool cuda = false);
    ~ProcessGroup();

    int rank() const { return env_.rank; }
    int world_size() const { return env_.world_size; }
    const WorldEnv& env() const { return env_; }
    // Every worker's rank, host and pid, as JSON ([{"rank":0,"host":"a","pid":1},...]), gathered at join.
    const std::string& workers() const { return workers_; }

    // Collectives (Gloo, or NCCL on the job's GPUs): in place, one tensor each; every rank calls them in the same
    // order. Throw WorkerLost when a peer is gone.
    void allreduce_sum(torch::Tensor& t);
    void broadcast(torch::Tensor& t, int root = 0);
    void barrier();

    // The store, for small messages that only some ranks send: set() never waits,
    // get() waits for the key at most the store's timeout.
    void set(const std::string& key, const std::string& value);
    std::string get(const std::string& key);
    // Whether `key` is set within `timeout` (false when it is not, or the store is gone).
    bool wait_for(const std::string& key, std::chrono::milliseconds timeout);
    void erase(const std::string& key);

private:
    struct Impl;
    explicit ProcessGroup(WorldEnv env, std::unique_ptr<Impl> impl);
    WorldEnv env_;
    std::unique_ptr<Impl> impl_;
    std::string workers_;
};

// The store's connect and wait timeout: SAVEPOINT_STORE_TIMEOUT seconds, 30 if unset.
std::chrono::milliseconds store_timeout();

}  // namespace savepoint
