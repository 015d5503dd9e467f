// What the ranks of a job agree on outside the per-step collectives: where the
// job starts (rank 0 decides; a resume sends the checkpoint itself, so the other
// ranks need neither the registry nor the file), and each rank's RNG state,
// which rank 0 gathers into every checkpoint through the store. Training thread only.
#pragma once

#include "distributed/process_group.h"

#include <torch/torch.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace savepoint {

struct JobStart {
    std::int64_t start_global_step = 0;   // where the state is loaded from
    std::int64_t target_global_step = 0;  // replayed up to here (a rollback), then trained
    double lr = 0;
    std::string checkpoint_path;  // rank 0 only: the file the job resumes from; empty: a new run
};

// Rank 0: tells the others where the job starts, with the checkpoint's bytes.
void send_job_start(ProcessGroup& group, const JobStart& start);

// Ranks 1...: rank 0's JobStart, with the model, optimizer and RNG restored from
// its checkpoint (this rank's RNG state where the checkpoint holds one, else a
// stream of its own, said in `note`). A new run: this rank's own dropout stream.
JobStart receive_job_start(ProcessGroup& group, torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                           std::uint64_t seed, std::string* note);

// Ranks 1...: this rank's CPU generator state at global step `gs`, for rank 0's checkpoint of it.
void publish_rng_state(ProcessGroup& group, std::int64_t gs);
// Rank 0: {"1": hex, "2": hex, ...}: every other rank's state at `gs` (waits for them, at most
// the store's timeout). A rank whose state has not come once `stopping()` says torchrun is
// stopping the job (a worker died; its SIGTERM) and 2 s have passed is taken as lost: WorkerLost.
nlohmann::json gather_rng_states(ProcessGroup& group, std::int64_t gs, const std::function<bool()>& stopping);

// The checkpoint meta key that holds gather_rng_states()'s answer.
inline constexpr const char* kRankRngKey = "rank_rng_cpu";

}  // namespace savepoint
