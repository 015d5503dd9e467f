// A filled TrainConfig for tests that train: a synthetic dataset (no files to
// find), the mlp, one thread. Each test sets the sizes its assertions are
// about, and whatever else it changes, after.
#pragma once

#include "training/train_config.h"

#include <cstdint>

namespace testsupport {

inline savepoint::TrainConfig syntheticMlp(std::int64_t epochs, std::int64_t steps_per_epoch, std::int64_t batch,
                                           std::int64_t save_every_steps) {
    savepoint::TrainConfig c;
    c.data = "synthetic";
    c.model = "mlp";
    c.epochs = epochs;
    c.steps_per_epoch = steps_per_epoch;
    c.batch = batch;
    c.save_every_steps = save_every_steps;
    c.threads = 1;
    return c;
}

}  // namespace testsupport
