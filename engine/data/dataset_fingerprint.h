// What a run was trained on, so that a resume can tell it is training on the
// same data. Data order is a pure function of (seed, epoch), so the bits of a
// resumed run equal those of a run that never stopped only if the dataset is
// the same one: a label file rewritten in place, or another directory behind
// the same path, would otherwise continue the run on other data without a
// word. The run's config keeps one SHA-256 per split and file, and every
// resume compares them before its first step.
#pragma once

#include "data/dataset.h"

#include <map>
#include <string>

namespace savepoint {

// SHA-256 (hex) of each part, keyed by the MNIST file it comes from:
// "train-images", "train-labels", "t10k-images", "t10k-labels". What is hashed
// is the IDX payload, the bytes after the header with any gzip undone (pixels,
// and labels one byte each), so a directory's raw and .gz copies of one
// dataset agree, and `zcat train-images-idx3-ubyte.gz | tail -c +17 | sha256sum`
// (+9 for labels) gives the same. Four SHA-256 streams, two at a time.
std::map<std::string, std::string> dataset_fingerprint(const DatasetPair& data);

// Throws InputError when `found` differs from `recorded`, naming the first
// part that differs, where the data came from (`source`), and both hashes.
// Nothing to compare (`recorded` empty: a run from before fingerprints) passes.
void check_dataset_fingerprint(const std::map<std::string, std::string>& recorded,
                               const std::map<std::string, std::string>& found, const std::string& source,
                               const std::string& run_name);

}  // namespace savepoint
