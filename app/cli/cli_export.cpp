// savepoint-cli export: a checkpoint's weights in a file PyTorch loads
// (checkpoint/checkpoint_export.h does the work; this says what was written).
#include "cli_commands.h"
#include "cli_home.h"

#include "checkpoint/checkpoint_export.h"
#include "platform/errors.h"
#include "training/run_settings.h"

namespace savepoint {

int export_command(const std::string& resolved_home, const std::string& run_name, std::int64_t checkpoint_id,
                   const std::string& out_file, std::ostream& out, std::ostream& err) {
    validate_run_name(run_name);
    if (!home_has_registry(resolved_home)) throw no_run_named(run_name, resolved_home);
    auto reg = open_registry_to_read(resolved_home, err);
    const RunRow run = require_run(*reg, run_name);
    const TrainConfig cfg = run_settings(run);
    ExportRequest request;
    request.checkpoint_id = checkpoint_id;
    request.out_path = out_file;
    request.model = cfg.model;
    request.model_sha256 = cfg.model_sha256;
    ExportResult r;
    try {
        r = export_checkpoint(*reg, run, request);
    } catch (const CorruptCheckpoint& e) {
        throw CorruptCheckpoint(std::string(e.what()) + " (run savepoint-cli verify --run " + run.name + ")");
    }

    out << "exported checkpoint #" << checkpoint_id << " of run '" << run.name << "' to " << r.path << "\n";
    out << "  " << (r.torchscript ? "TorchScript module (" + cfg.model + ")" : "state dict of the " + cfg.model) << ", "
        << r.names.size() << " tensors, " << r.bytes << " bytes\n";
    out << "  sha256 " << r.sha256 << "\n";
    // Python string literal of the path: repr-safe for quotes and backslashes.
    std::string py = "'";
    for (char c : r.path) py += (c == '\'' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    py += "'";
    if (r.torchscript)
        out << "load it in Python: import torch; model = torch.jit.load(" << py << ")\n";
    else
        out << "load it in Python: import torch; model.load_state_dict(torch.load(" << py
            << ")) (model: the README's torch.nn definition of " << cfg.model << ")\n";
    return 0;
}

}  // namespace savepoint
