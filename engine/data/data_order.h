// Deterministic data order: the sample order of an epoch is a pure function of
// (seed, epoch), so a position in training is just (epoch, step) and a resumed
// run sees exactly the batches an uninterrupted one would.
#pragma once

#include <cstdint>
#include <vector>

namespace savepoint {

// A permutation of [0, n) for 1-based `epoch`; Fisher-Yates over splitmix64,
// independent of LibTorch's RNG and of the platform.
std::vector<std::int64_t> epoch_permutation(std::uint64_t seed, std::int64_t epoch, std::int64_t n);

// Steps in one full pass: ceil(n / batch).
std::int64_t full_pass_steps(std::int64_t n, std::int64_t batch);

// The positions (into the permutation) of 1-based `step`: step*batch..+batch,
// wrapping around n, so every batch has the same size.
void batch_positions(const std::vector<std::int64_t>& perm, std::int64_t step, std::int64_t batch, std::int64_t* out);

// (epoch, step) <-> global step; all 1-based, steps_per_epoch > 0.
struct Position {
    std::int64_t epoch = 1;
    std::int64_t step = 0;  // last completed step in `epoch`; 0 = none yet
};
Position position_of(std::int64_t global_step, std::int64_t steps_per_epoch);
std::int64_t global_step_of(std::int64_t epoch, std::int64_t step, std::int64_t steps_per_epoch);

}  // namespace savepoint
