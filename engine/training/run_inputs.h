// What a run trains: its data and its model, loaded and checked together
// before anything is written. The checks are the dry run (`train --dry-run`,
// the New run dialog): one forward pass on one batch, in eval mode and
// without autograd, so the model's state and the random generator are as
// they were and a run that goes on trains the same bits.
#pragma once

#include "data/dataset.h"
#include "model/models.h"
#include "training/train_config.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace savepoint {

struct RunInputs {
    DatasetPair data;
    std::shared_ptr<ClassifierImpl> model;  // on the CPU, parameters as the run starts
};

// What the dry run found, as data (each front end words it).
struct DryRunReport {
    std::string model;  // "cnn", or the class and file: "SmallResNet (resnet.pt)"
    std::string data;   // the dataset's description
    std::int64_t parameters = 0;
    std::int64_t buffer_values = 0;  // running statistics and other buffers
    std::vector<std::int64_t> input_shape, output_shape;
    std::string input_type;  // "uint8 (scaled to [0, 1])" or "float32"
    std::int64_t train_samples = 0, test_samples = 0;
    std::int64_t classes = 0;  // ce: the logits' width; mse: 0
    // The lines `train --dry-run` prints.
    std::vector<std::string> lines() const;
};

// For a new run: loads the data and the model `cfg` names, seeded with
// cfg.seed, and fills in what the run records: absolute paths for files, the
// data's fingerprint and the model file's SHA-256. Throws InputError.
RunInputs load_run_inputs(TrainConfig& cfg);

// The model file of a run being resumed, from where it was or from `moved`:
// refused (InputError naming the file and both SHA-256s) when it is not the
// file the run was created with.
std::shared_ptr<ClassifierImpl> load_recorded_model(const TrainConfig& cfg, const std::string& moved,
                                                    const std::string& run_name);

// One forward pass on the first `cfg.batch` training samples. Throws
// InputError when the batch is larger than the training split, the forward pass fails (with the input's shape), the
// output is not [B, C] logits (ce) or shaped like the targets (mse), or a class label in either split is C or more.
DryRunReport check_model_on_data(ClassifierImpl& model, const DatasetPair& data, const TrainConfig& cfg);

// The whole dry run of a new run's config: validate, load, check. Reads the
// files and writes nothing. Throws InputError, as Trainer::run would.
DryRunReport dry_run(TrainConfig cfg);

}  // namespace savepoint
