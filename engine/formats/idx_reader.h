// Strict reader for the MNIST IDX format (raw or gzip-compressed).
// Checks the magic, rank, dimensions, payload length against the header and,
// for labels, the value range. Never reads past the end of the data.
// Every violation throws savepoint::InputError naming the file, the field,
// the expected and the found value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace savepoint {

struct IdxImages {
    std::int64_t count = 0;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::vector<std::uint8_t> pixels;  // count * rows * cols, row-major
};

struct IdxLabels {
    std::vector<std::uint8_t> labels;
};

// Reads the whole file, inflating it when it starts with the gzip magic.
// Refuses more than max_bytes of (decompressed) data, so a hostile file
// cannot exhaust memory.
std::vector<std::uint8_t> read_maybe_gzipped(const std::string& path, std::uint64_t max_bytes = 1ull << 31);

// Parses bytes already in memory; `name` is used in error messages.
IdxImages parse_idx_images(const std::vector<std::uint8_t>& bytes, const std::string& name);
// The same, taking over the buffer: the pixels move down over the header
// instead of being copied into a new vector.
IdxImages parse_idx_images(std::vector<std::uint8_t>&& bytes, const std::string& name);
IdxLabels parse_idx_labels(const std::vector<std::uint8_t>& bytes, const std::string& name, int num_classes = 10);

IdxImages read_idx_images(const std::string& path);
IdxLabels read_idx_labels(const std::string& path, int num_classes = 10);

}  // namespace savepoint
