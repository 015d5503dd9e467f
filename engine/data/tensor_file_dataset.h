// A dataset the user saved from Python: torch.save({"train_x": X, "train_y": Y,
// "test_x": Xt, "test_y": Yt}, "data.pt"), read with LibTorch's own unpickler.
// Inputs of any shape: uint8 (pixels, scaled to [0, 1] per batch as for the
// MNIST files) or floating point (taken as float32). Targets: integer class
// labels (cross-entropy) or floating point (mse).
#pragma once

#include "data/dataset.h"

#include <string>

namespace savepoint {

// "[512, 1, 28, 28] uint8": a tensor as messages show it, with Python's dtype names.
std::string tensor_shape_text(const torch::Tensor& t);
std::string dtype_name(c10::ScalarType type);

// Loads `path`; `sha256`, if given, receives the SHA-256 of the bytes read.
// Throws InputError naming the file and the key: not a dictionary of tensors,
// a key missing (listing the keys found), inputs that are neither uint8 nor
// floating point, NaN or infinite inputs (the first sample that has one),
// targets of the wrong kind for `loss` or negative class labels, sample counts
// of inputs and targets that differ, or an empty split.
DatasetPair load_tensor_file(const std::string& path, const std::string& loss = "ce", std::string* sha256 = nullptr);

}  // namespace savepoint
