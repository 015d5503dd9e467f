#include "checkpoint/checkpoint_export.h"

#include "checkpoint/checkpoint_check.h"
#include "checkpoint/state_snapshot.h"
#include "model/script_model.h"
#include "platform/errors.h"
#include "platform/planted_bugs.h"
#include "registry/checkpoint_actions.h"
#include "storage/durable_io.h"
#include "storage/sha256.h"

#include <torch/serialize.h>

#include <map>
#include <sstream>
#include <utility>

namespace savepoint {
namespace {

using NamedTensors = std::vector<std::pair<std::string, torch::Tensor>>;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// "#3, #5" (the run's committed checkpoints), for a refusal that should say what does exist.
std::string committed_ids(Registry& reg, const RunRow& run) {
    std::string ids;
    for (const auto& c : reg.checkpoints(run.id))
        if (c.usable()) ids += (ids.empty() ? "#" : ", #") + std::to_string(c.id);
    return ids.empty() ? "none" : ids;
}

CheckpointRow exportable_checkpoint(Registry& reg, const RunRow& run, std::int64_t id) {
    const auto c = reg.checkpoint(id);
    if (!c || c->run_id != run.id) {
        auto e = no_checkpoint_in_run(run, id, "(its committed checkpoints: " + committed_ids(reg, run) + ")");
        e.with(Remedy{Remedy::Kind::ListCheckpoints, run.name});
        throw e;
    }
    if (!c->usable())
        throw InputError("checkpoint", "committed", to_string(c->state),
                         InputError::Says{"checkpoint #" + std::to_string(c->id) + " is " + to_string(c->state) +
                                          (c->state_detail.empty() ? "" : " (" + c->state_detail + ")") +
                                          " and cannot be exported (committed: " + committed_ids(reg, run) + ")"});
    return *c;
}

void check_out_path(const std::string& out) {
    if (out.empty()) throw InputError("out", "a file name (FILE.pt)", "''");
    if (file_exists(out))
        throw InputError("out", "a file that does not exist yet", quoted(out),
                         InputError::Says{quoted(out) + " already exists; export never overwrites a file"});
    const std::string dir = parent_directory(out);
    if (!file_exists(dir))
        throw InputError("out", "a file in an existing directory", quoted(out),
                         InputError::Says{"the directory " + quoted(dir) + " of " + quoted(out) + " does not exist"});
}

// The checkpoint's model tensors under PyTorch's state_dict names: "model/<name>"
// (parameters) and "model/buffer/<name>" (buffers) become "<name>".
NamedTensors model_tensors(const CheckpointContents& contents) {
    NamedTensors out;
    for (const auto& raw : contents.tensors) {
        std::string name = raw.name;
        if (name.rfind("model/", 0) != 0) continue;  // optimizer state, RNG
        name.erase(0, 6);
        if (name.rfind("buffer/", 0) == 0) name.erase(0, 7);
        out.emplace_back(std::move(name), to_tensor(raw));
    }
    if (planted_bug(PlantedBug::ExportAlteredTensor) && !out.empty()) {  // negative control (docs/RELIABILITY.md)
        torch::NoGradGuard no_grad;
        out.front().second.view(-1)[0].add_(1);
    }
    return out;
}

// The run's module file, as long as it is the one the run was created with.
torch::jit::Module load_run_module(const RunRow& run, const ExportRequest& r) {
    if (!file_exists(r.model))
        throw InputError(r.model + ": the TorchScript model of run " + quoted(run.name) +
                         " is missing; export reads it where the run recorded it, so put it back there")
            .with(Remedy{Remedy::Kind::PutModelBack, run.name});
    std::string found;
    const auto model = load_script_model(r.model, &found);
    if (!r.model_sha256.empty() && found != r.model_sha256)
        throw InputError(r.model + ": expected SHA-256 " + r.model_sha256 + " (the file run " + quoted(run.name) +
                         " was created with), found " + found +
                         "; the file changed, and its module may not match the checkpoint's weights");
    return model->module();
}

std::string shape_text(const torch::Tensor& t) {
    return c10::str(t.sizes()) + " " + std::string(c10::toString(t.scalar_type()));
}

// Copies each checkpoint tensor into the module's parameter or buffer of the
// same dotted name; every one of either side must have its match, of the same
// shape and type, or nothing is written.
void load_into(torch::jit::Module& module, const NamedTensors& tensors, const std::string& where) {
    std::map<std::string, torch::Tensor> slots;
    for (const auto& p : module.named_parameters(true)) slots.emplace(p.name, p.value);
    for (const auto& b : module.named_buffers(true)) slots.emplace(b.name, b.value);
    const auto mismatch = [&](const std::string& says) {
        return InputError(where + ": " + says + " (was the module file replaced by another network?)");
    };
    torch::NoGradGuard no_grad;
    std::map<std::string, bool> filled;
    for (const auto& [name, value] : tensors) {
        const auto slot = slots.find(name);
        if (slot == slots.end())
            throw mismatch("the checkpoint's tensor " + quoted(name) + " is no parameter or buffer of the module");
        if (slot->second.sizes() != value.sizes() || slot->second.scalar_type() != value.scalar_type())
            throw mismatch(quoted(name) + ": the module has " + shape_text(slot->second) + ", the checkpoint " +
                           shape_text(value));
        slot->second.copy_(value);
        filled[name] = true;
    }
    for (const auto& [name, value] : slots)
        if (!filled.count(name)) throw mismatch("the module's " + quoted(name) + " has no tensor in the checkpoint");
}

template <typename Bytes>
void write_new_file(const std::string& path, const Bytes& bytes) {
    DurableWriter w(path, bytes.size());
    w.write(bytes.data(), bytes.size());
    w.commit();
}

}  // namespace

ExportResult export_checkpoint(Registry& reg, const RunRow& run, const ExportRequest& r) {
    const CheckpointRow row = exportable_checkpoint(reg, run, r.checkpoint_id);
    check_out_path(r.out_path);
    // The same verdict as `verify`, then the bytes parsed only once they passed.
    const CheckpointCheck check = check_checkpoint(reg.home(), run.name, row);
    if (!check.ok) throw CorruptCheckpoint(check.why);  // the front end says how to see what else is damaged
    std::vector<std::uint8_t> bytes;
    CheckpointContents contents;
    const VerifyResult v = verify_checkpoint_file(reg.absolute(row.path), row.sha256, &bytes, &contents);
    if (!v.ok) throw CorruptCheckpoint(v.error);
    const NamedTensors tensors = model_tensors(contents);

    ExportResult out;
    out.path = r.out_path;
    for (const auto& t : tensors) out.names.push_back(t.first);
    const bool builtin = is_builtin_model(r.model);
    if (builtin) {
        // Python's torch.load reads what pickle_save writes: a dict of tensors, a state dict.
        c10::Dict<std::string, at::Tensor> dict;
        for (const auto& [name, value] : tensors) dict.insert(name, value);
        const std::vector<char> pickled = torch::pickle_save(c10::IValue(dict));
        write_new_file(r.out_path, pickled);
        out.bytes = pickled.size();
        out.sha256 = sha256_hex(pickled.data(), pickled.size());
        return out;
    }
    torch::jit::Module module = load_run_module(run, r);
    load_into(module, tensors, r.model);
    std::ostringstream saved;
    module.save(saved);
    const std::string file = saved.str();
    write_new_file(r.out_path, file);
    out.torchscript = true;
    out.bytes = file.size();
    out.sha256 = sha256_hex(file.data(), file.size());
    return out;
}

}  // namespace savepoint
