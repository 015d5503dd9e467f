// Gathering a training batch on the CPU: the rows a step trains on, copied
// from the uint8 dataset straight into float buffers that live as long as the
// StepRunner. Replaces index_select + pixels_to_float, whose two fresh
// tensors a step (400 KB at batch 128) made glibc grow and trim its heap, and
// the kernel zero fresh pages, on every step.
#pragma once

#include <cstdint>

namespace savepoint {

// dst[i] = src[i] / 255.0f, correctly rounded: the same bits as the lookup
// table pixels_to_float uses on a GPU.
void convert_pixels(const std::uint8_t* src, float* dst, std::int64_t n);

// For each j < count: images row rows[j] (row_bytes pixels) → x_out row j as
// float, labels[rows[j]] → y_out[j]. Every row index must be in range (the
// caller draws them from a permutation of the dataset).
void gather_batch(const std::uint8_t* images, const std::int64_t* labels, std::int64_t row_bytes,
                  const std::int64_t* rows, std::int64_t count, float* x_out, std::int64_t* y_out);

}  // namespace savepoint
