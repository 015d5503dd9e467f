#include "model/fast_dropout.h"

#include "platform/simd_clones.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <algorithm>
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

// A call's constants: keep when an element's 32-bit draw is >= p * 2^32
// (probability exactly 1 - threshold / 2^32), kept values scaled by 1/(1-p).
struct MaskParams {
    MaskParams(double p, std::uint64_t key)
        : threshold(static_cast<std::uint64_t>(std::llround(p * 4294967296.0))),
          scale(static_cast<float>(1.0 / (1.0 - p))),
          base(key * 0x9e3779b97f4a7c15ULL) {}
    std::uint64_t threshold;
    float scale;
    std::uint64_t base;
};

// Elements first, first + stride, ... (count of them) of a call's mask. Element
// e is half (e & 1) of the hash of pair e / 2: it depends only on (key, e), so
// any split across threads, and any layout, gives the same values.
SAVEPOINT_SIMD_CLONES
void mask_elements(float* out, std::int64_t first, std::int64_t stride, std::int64_t count, const MaskParams m) {
    for (std::int64_t i = 0; i < count; ++i) {
        const auto e = static_cast<std::uint64_t>(first + i * stride);
        const std::uint64_t z = mix(m.base + (e >> 1) + 1);
        const std::uint64_t draw = (e & 1) ? (z >> 32) : (z & 0xffffffffULL);
        out[i] = draw >= m.threshold ? m.scale : 0.0f;
    }
}

}  // namespace

void fill_dropout_mask(float* out, std::int64_t n, double p, std::uint64_t key) {
    const MaskParams m(p, key);
    at::parallel_for(0, n, 16384, [&](std::int64_t first, std::int64_t last) {
        mask_elements(out + first, first, 1, last - first, m);
    });
}

void fill_dropout_mask_transposed(float* out, std::int64_t rows, std::int64_t cols, double p, std::uint64_t key) {
    const MaskParams m(p, key);
    // Output row c holds column c of the [rows, cols] mask: elements c, c + cols, ...
    at::parallel_for(0, cols, std::max<std::int64_t>(1, 16384 / std::max<std::int64_t>(1, rows)),
                     [&](std::int64_t first, std::int64_t last) {
                         for (std::int64_t c = first; c < last; ++c) mask_elements(out + c * rows, c, cols, rows, m);
                     });
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
