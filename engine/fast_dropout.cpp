#include "fast_dropout.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <cmath>
#include <mutex>

namespace savepoint {
namespace {

// splitmix64's output function: a bijection with full avalanche, so
// consecutive counters give independent-looking 64-bit words.
inline std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

void fill_dropout_mask(float* out, std::int64_t n, double p, std::uint64_t key) {
    // Keep when the 32-bit draw is >= p * 2^32: probability exactly 1 - threshold / 2^32.
    const auto threshold = static_cast<std::uint64_t>(std::llround(p * 4294967296.0));
    const float scale = static_cast<float>(1.0 / (1.0 - p));
    const std::uint64_t base = key * 0x9e3779b97f4a7c15ULL;
    // Element pair q depends only on (key, q), so the pairs can be split across
    // threads without changing a bit.
    at::parallel_for(0, n / 2, 8192, [&](std::int64_t first, std::int64_t last) {
        for (std::int64_t q = first; q < last; ++q) {
            const std::uint64_t z = mix(base + static_cast<std::uint64_t>(q) + 1);
            out[2 * q] = (z & 0xffffffffULL) >= threshold ? scale : 0.0f;
            out[2 * q + 1] = (z >> 32) >= threshold ? scale : 0.0f;
        }
    });
    if (n % 2)
        out[n - 1] = (mix(base + static_cast<std::uint64_t>(n / 2) + 1) & 0xffffffffULL) >= threshold ? scale : 0.0f;
}

std::uint64_t draw_dropout_key() {
    at::Generator gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    return gen.get<at::CPUGeneratorImpl>()->random64();
}

torch::Tensor fast_dropout(const torch::Tensor& x, double p, bool training) {
    if (!training || p <= 0) return x;
    if (p >= 1) return x * 0;
    const std::uint64_t key = draw_dropout_key();
    torch::Tensor mask = torch::empty(x.sizes(), torch::kFloat32);
    fill_dropout_mask(mask.data_ptr<float>(), mask.numel(), p, key);
    if (x.device() != mask.device() || x.scalar_type() != mask.scalar_type())
        mask = mask.to(x.device(), x.scalar_type());
    return x * mask;
}

}  // namespace savepoint
