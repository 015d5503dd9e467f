#include "data/data_order.h"

namespace savepoint {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Uniform in [0, bound) without modulo bias (Lemire's method).
std::uint64_t bounded(std::uint64_t& state, std::uint64_t bound) {
    unsigned __int128 m = static_cast<unsigned __int128>(splitmix64(state)) * bound;
    std::uint64_t low = static_cast<std::uint64_t>(m);
    if (low < bound) {
        std::uint64_t threshold = -bound % bound;
        while (low < threshold) {
            m = static_cast<unsigned __int128>(splitmix64(state)) * bound;
            low = static_cast<std::uint64_t>(m);
        }
    }
    return static_cast<std::uint64_t>(m >> 64);
}

}  // namespace

std::vector<std::int64_t> epoch_permutation(std::uint64_t seed, std::int64_t epoch, std::int64_t n) {
    std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) perm[i] = i;
    std::uint64_t state = seed ^ (0xD1B54A32D192ED03ull * static_cast<std::uint64_t>(epoch));
    splitmix64(state);
    for (std::int64_t i = n - 1; i > 0; --i) {
        auto j = static_cast<std::int64_t>(bounded(state, static_cast<std::uint64_t>(i + 1)));
        std::swap(perm[i], perm[j]);
    }
    return perm;
}

std::int64_t full_pass_steps(std::int64_t n, std::int64_t batch) { return (n + batch - 1) / batch; }

void batch_positions(const std::vector<std::int64_t>& perm, std::int64_t step, std::int64_t batch, std::int64_t* out) {
    const auto n = static_cast<std::int64_t>(perm.size());
    std::int64_t p = ((step - 1) * batch) % n;
    for (std::int64_t j = 0; j < batch; ++j) {
        out[j] = perm[p];
        if (++p == n) p = 0;
    }
}

Position position_of(std::int64_t global_step, std::int64_t steps_per_epoch) {
    if (global_step <= 0) return {1, 0};
    return {(global_step - 1) / steps_per_epoch + 1, (global_step - 1) % steps_per_epoch + 1};
}

std::int64_t global_step_of(std::int64_t epoch, std::int64_t step, std::int64_t steps_per_epoch) {
    return (epoch - 1) * steps_per_epoch + step;
}

std::string position_text(const Position& p) {
    return "epoch " + std::to_string(p.epoch) + ", step " + std::to_string(p.step);
}

std::string position_text(std::int64_t global_step, std::int64_t steps_per_epoch, bool with_global) {
    std::string s = position_text(position_of(global_step, steps_per_epoch));
    if (with_global) s += " (global step " + std::to_string(global_step) + ")";
    return s;
}

}  // namespace savepoint
