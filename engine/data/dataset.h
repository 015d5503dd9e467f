// Datasets as tensors in memory: the train split for training, the test split
// for validation. A spec is "fashion-mnist" (Debian's dataset-fashion-mnist),
// "synthetic" (generated, deterministic, small) or a directory holding the
// four MNIST-format files (raw or .gz), so the original MNIST works too.
#pragma once

#include "data/dataset_spec.h"

#include <torch/torch.h>

#include <string>

namespace savepoint {

// Every image is kImageSide x kImageSide (the models take [B,1,28,28]).
constexpr std::int64_t kImageSide = 28;

struct Dataset {
    // uint8 [N, 1, 28, 28] pixels, contiguous, CPU (any [N, ...] from a tensor
    // file, or float32 inputs taken as they are). Bytes are kept as bytes (a
    // quarter of float32's memory, and no conversion pass before the first
    // step); batches become model input through pixels_to_float().
    torch::Tensor images;
    // int64 [N] class labels, CPU ([0, 10) for the MNIST files); float32 [N, ...] targets with --loss mse.
    torch::Tensor labels;
    std::int64_t size() const { return labels.defined() ? labels.size(0) : 0; }
};

struct DatasetPair {
    Dataset train;
    Dataset test;
    std::string description;  // e.g. "fashion-mnist (/usr/share/datasets/fashion-mnist): 60000 train, 10000 test"
};

// Pixels (uint8, any shape, CPU or CUDA) to float32 pixel/255.0f, on the same
// device. The same bits on every device: a table lookup on a GPU, a correctly
// rounded division on the CPU (the table's entries).
torch::Tensor pixels_to_float(const torch::Tensor& pixels);

// A spec naming a file is a tensor file (tensor_file_dataset.h), read as
// class-labelled. Throws InputError for an unknown spec, a missing file (naming the directory
// and the file name looked for), mismatched image/label counts, or any IDX
// violation. Image sizes other than 28x28 are refused with a clear message.
DatasetPair load_dataset(const std::string& spec);

// Loads a directory holding the four kMnistFiles (dataset_spec.h), raw or .gz.
DatasetPair load_idx_directory(const std::string& dir);

// The synthetic dataset: 10 classes of 28x28 images generated from class
// prototypes plus noise, from a fixed seed so it is identical everywhere.
// Learnable to high accuracy within a few hundred steps.
DatasetPair make_synthetic_dataset(std::int64_t train_size = 4096, std::int64_t test_size = 1024);

}  // namespace savepoint
