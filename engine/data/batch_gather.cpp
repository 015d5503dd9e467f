#include "data/batch_gather.h"

#include "platform/simd_clones.h"

#include <ATen/Parallel.h>

namespace savepoint {

SAVEPOINT_SIMD_CLONES
void convert_pixels(const std::uint8_t* src, float* dst, std::int64_t n) {
    // A division, not a table: it vectorises (a table lookup needs a gather)
    // and is exact to the last bit, as the table entries were computed.
    for (std::int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]) / 255.0f;
}

void gather_batch(const std::uint8_t* images, const std::int64_t* labels, std::int64_t row_bytes,
                  const std::int64_t* rows, std::int64_t count, float* x_out, std::int64_t* y_out) {
    for (std::int64_t j = 0; j < count; ++j) y_out[j] = labels[rows[j]];
    // ~32k pixels a task: at batch 32 the whole batch stays on this thread.
    const std::int64_t rows_per_task = std::max<std::int64_t>(1, 32768 / std::max<std::int64_t>(1, row_bytes));
    at::parallel_for(0, count, rows_per_task, [&](std::int64_t first, std::int64_t last) {
        for (std::int64_t j = first; j < last; ++j)
            convert_pixels(images + rows[j] * row_bytes, x_out + j * row_bytes, row_bytes);
    });
}

}  // namespace savepoint
