#include "training/train_config.h"

#include "data/dataset_spec.h"
#include "model/models.h"
#include "platform/errors.h"
#include "platform/planted_bugs.h"

#include <sstream>

namespace savepoint {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

void require_one_of(const std::string& field, const std::string& value) {
    const FieldRule rule = TrainConfig::rule(field);
    if (!rule.admits(value)) throw InputError(field, rule, quoted(value));
}

void require_range(const std::string& field, std::int64_t value) {
    const FieldRule rule = TrainConfig::rule(field);
    if (!rule.admits(static_cast<double>(value))) throw InputError(field, rule, std::to_string(value));
}

template <typename T>
void read_key(const nlohmann::json& j, const char* key, T& out, const std::string& where) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return;
    try {
        out = it->get<T>();
    } catch (const nlohmann::json::exception&) {
        throw InputError(where + ": config field '" + key + "' has the wrong type: found " + it->dump());
    }
}

}  // namespace

bool TrainConfig::builtin_model() const { return is_builtin_model(model); }

FieldRule TrainConfig::rule(const std::string& field) {
    if (field == "model") return FieldRule::one_of({"mlp", "dnn", "cnn"});  // or a TorchScript file (validate)
    if (field == "loss") return FieldRule::one_of({"ce", "mse"});
    if (field == "optimizer") return FieldRule::one_of({"adam", "sgd"});
    if (field == "device") return FieldRule::one_of({"auto", "cpu", "cuda"});
    if (field == "async-policy") return FieldRule::one_of({"wait", "skip", "defer"});
    if (field == "epochs") return FieldRule::integers(1, 1000000);
    if (field == "steps-per-epoch") return FieldRule::integers(0, 1000000000);
    if (field == "batch") return FieldRule::integers(1, 65536);
    if (field == "save-freq") return FieldRule::integers(0, 1000000000);
    if (field == "keep") return FieldRule::integers(1, 100000);
    if (field == "threads") return FieldRule::integers(0, 1024);
    if (field == "lr") return FieldRule::numbers_above(0, 10);
    return {};
}

void TrainConfig::validate() const {
    if (planted_bug(PlantedBug::SkipConfigValidation)) return;  // negative control (docs/RELIABILITY.md)
    if (data.empty()) throw InputError("data", "fashion-mnist, synthetic or a directory", "''");
    // Anything that names a file (a path, or ending in .pt) is a TorchScript model; the loader judges the file.
    const bool model_file = model.find('/') != std::string::npos || has_torch_file_suffix(model);
    if (!model_file && !rule("model").admits(model))
        throw InputError("model", "mlp, dnn, cnn or a TorchScript file (FILE.pt)", quoted(model));
    require_one_of("loss", loss);
    if (loss == "mse" && builtin_model())
        throw InputError("loss", "'ce' for the built-in model " + quoted(model) + " (mse needs a TorchScript model)",
                         quoted(loss));
    require_one_of("optimizer", optimizer);
    require_one_of("device", device);
    require_one_of("async-policy", async_policy);
    require_range("epochs", epochs);
    require_range("steps-per-epoch", steps_per_epoch);
    require_range("batch", batch);
    require_range("save-freq", save_every_steps);
    require_range("keep", keep);
    require_range("threads", threads);
    if (!rule("lr").admits(lr)) {
        std::ostringstream found;
        found << lr;
        throw InputError("lr", rule("lr"), found.str());
    }
}

nlohmann::json TrainConfig::to_json() const {
    nlohmann::json j = {{"data", data},
                        {"model", model},
                        {"optimizer", optimizer},
                        {"epochs", epochs},
                        {"steps_per_epoch", steps_per_epoch},
                        {"batch", batch},
                        {"lr", lr},
                        {"seed", seed},
                        {"save_every_steps", save_every_steps},
                        {"keep", keep},
                        {"device", device},
                        {"threads", threads},
                        {"async_policy", async_policy}};
    // Absent, not empty, in a run from before fingerprints: its checkpoints'
    // copies of the config must still compare equal.
    if (!data_sha256.empty()) j["data_sha256"] = data_sha256;
    // Likewise absent where they say nothing new, so older runs' configs compare equal.
    if (loss != "ce") j["loss"] = loss;
    if (!model_sha256.empty()) j["model_sha256"] = model_sha256;
    return j;
}

TrainConfig TrainConfig::from_json(const nlohmann::json& j, const std::string& where) {
    if (!j.is_object()) throw InputError(where + ": config: expected a JSON object, found " + j.dump());
    TrainConfig c;
    read_key(j, "data", c.data, where);
    read_key(j, "model", c.model, where);
    read_key(j, "optimizer", c.optimizer, where);
    read_key(j, "epochs", c.epochs, where);
    read_key(j, "steps_per_epoch", c.steps_per_epoch, where);
    read_key(j, "batch", c.batch, where);
    read_key(j, "lr", c.lr, where);
    read_key(j, "seed", c.seed, where);
    read_key(j, "save_every_steps", c.save_every_steps, where);
    read_key(j, "keep", c.keep, where);
    read_key(j, "device", c.device, where);
    read_key(j, "threads", c.threads, where);
    read_key(j, "async_policy", c.async_policy, where);
    read_key(j, "data_sha256", c.data_sha256, where);
    read_key(j, "loss", c.loss, where);
    read_key(j, "model_sha256", c.model_sha256, where);
    return c;
}

std::int64_t parse_save_freq(const std::string& text) {
    if (text == "epoch") return 0;
    std::int64_t n = 0;
    std::size_t used = 0;
    try {
        n = std::stoll(text, &used);
    } catch (...) {
        used = 0;
    }
    if (used != text.size() || text.empty() || n < 1)
        throw InputError("save-freq", "'epoch' or a positive number of steps", quoted(text));
    return n;
}

std::string save_freq_text(std::int64_t save_every_steps) {
    return save_every_steps == 0 ? "epoch" : std::to_string(save_every_steps);
}

void validate_run_name(const std::string& name) {
    bool ok = !name.empty() && name.size() <= 64 && name[0] != '.';
    for (char ch : name) {
        bool allowed = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
                       ch == '_' || ch == '-';
        ok = ok && allowed;
    }
    if (!ok) throw InputError("run", "1 to 64 characters from A-Z a-z 0-9 . _ - (not starting with '.')", quoted(name));
}

}  // namespace savepoint
