// Dropout with a counter-based mask.
//
// torch::dropout draws its mask with bernoulli_, which Debian's LibTorch (no
// MKL) fills one element at a time through the generator: the mlp's mask took
// as long as its whole second layer (docs/PERFORMANCE.md, fast dropout). Here the mask is a hash of
// (key, element index) (the splitmix64 finaliser), two elements per hash, and
// the key is one 64-bit draw from LibTorch's default CPU generator per call.
// So the generator state saved in every checkpoint still decides every mask
// and a resume stays bit-identical, at one draw instead of 16,384.
// Same distribution as torch::dropout: keep with probability 1-p, scale kept
// values by 1/(1-p); the identity outside training.
#pragma once

#include <torch/types.h>

#include <cstdint>

namespace savepoint {

torch::Tensor fast_dropout(const torch::Tensor& x, double p, bool training);

// The per-call key: one 64-bit draw from LibTorch's default CPU generator.
// fast_dropout draws it for every call with 0 < p < 1 in training; a step that
// builds its masks itself (linear_stack_step) draws it the same way, in the
// same order, so both paths leave the generator in the same state.
std::uint64_t draw_dropout_key();

// The mask alone (values 0 or 1/(1-p)).
void fill_dropout_mask(float* out, std::int64_t n, double p, std::uint64_t key);

// The same mask for a [rows, cols] activation, written transposed:
// out[c * rows + r] is fill_dropout_mask's element r * cols + c. For a step
// that keeps activations feature-major (linear_stack_step).
void fill_dropout_mask_transposed(float* out, std::int64_t rows, std::int64_t cols, double p, std::uint64_t key);

}  // namespace savepoint
