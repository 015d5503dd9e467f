// The complete description of a training run. Stored in the registry and in
// every checkpoint, so a resume continues with exactly the same settings.
#pragma once

#include "platform/field_rule.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace savepoint {

struct TrainConfig {
    std::string data = "fashion-mnist";  // fashion-mnist | synthetic | directory | FILE.pt (a dict of tensors)
    std::string model = "mlp";           // mlp | dnn | cnn | FILE.pt (a TorchScript module)
    std::string loss = "ce";             // ce (int64 class labels) | mse (float targets); mse: TorchScript models only
    std::string optimizer = "adam";      // adam | sgd
    std::int64_t epochs = 10;
    std::int64_t steps_per_epoch = 0;  // 0: one full pass over the training split
    std::int64_t batch = 32;
    double lr = 1e-3;
    std::uint64_t seed = 42;
    std::int64_t save_every_steps = 0;  // 0: save at the end of every epoch
    std::int64_t keep = 5;              // newest K kept (plus best, head, pinned)
    std::string device = "auto";        // auto | cpu | cuda
    std::int64_t threads = 0;           // 0: LibTorch's default
    std::string async_policy = "wait";  // wait | skip | defer: a save is due while one is still writing
    // Set when the run is created, from the data it loaded (dataset_fingerprint.h):
    // SHA-256 of each MNIST file's decoded bytes. Empty in runs from before it.
    // For a FILE.pt dataset, one entry: "file", the SHA-256 of the file's bytes.
    std::map<std::string, std::string> data_sha256;
    // A TorchScript model's file: SHA-256 of its bytes, set when the run is created.
    std::string model_sha256;

    bool builtin_model() const;

    // Throws InputError naming the field, what was expected and what was found
    // (with the field's rule where it has one).
    void validate() const;
    // The range or the choices a setting takes, by its command-line name
    // ("batch", "steps-per-epoch", "lr", "model"…); kind None for the others
    // (data, seed, run: their checks are not a range or a choice).
    static FieldRule rule(const std::string& field);

    nlohmann::json to_json() const;
    // Unknown keys are ignored, missing keys keep their defaults; each present
    // key is type-checked (InputError naming `where` and the key).
    static TrainConfig from_json(const nlohmann::json& j, const std::string& where);
};

// Parses "epoch" or a positive step count into save_every_steps (0 = epoch).
std::int64_t parse_save_freq(const std::string& text);
std::string save_freq_text(std::int64_t save_every_steps);

// Run names become file names: [A-Za-z0-9._-], 1..64 characters, no leading dot.
void validate_run_name(const std::string& name);

}  // namespace savepoint
