// Deterministic data order: the sample order of an epoch is a pure function of
// (seed, epoch), so a position in training is just (epoch, step) and a resumed
// run sees exactly the batches an uninterrupted one would.
#pragma once

#include <cstdint>
#include <string>
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

// (epoch, step) <-> global step; all 1-based, steps_per_epoch > 0. A position
// names the last completed step: 1 <= step <= steps_per_epoch, except the very
// start (epoch 1, step 0). The end of epoch 2 is "epoch 2, step 400", never
// "epoch 3, step 0" (global_step_of still reads that spelling, for old rows and
// for resume --epoch 3 --step 0).
struct Position {
    std::int64_t epoch = 1;
    std::int64_t step = 0;  // last completed step in `epoch`; 0 = none yet
};
Position position_of(std::int64_t global_step, std::int64_t steps_per_epoch);
std::int64_t global_step_of(std::int64_t epoch, std::int64_t step, std::int64_t steps_per_epoch);

// How the engine and the CLI word a position: "epoch 2, step 400"; with the
// global step: "epoch 2, step 400 (global step 800)".
std::string position_text(const Position& p);
std::string position_text(std::int64_t global_step, std::int64_t steps_per_epoch, bool with_global = false);

}  // namespace savepoint
