// A checkpoint's weights as a file PyTorch reads (savepoint-cli export):
// - a built-in model (mlp, dnn, cnn): its state dict, the "model/<name>"
//   tensors under <name>, pickled as torch.save does (torch::pickle_save), so
//   `model.load_state_dict(torch.load(f))` loads it into the README's nn.Module;
// - a TorchScript run: the run's module file with the checkpoint's parameters
//   and buffers copied in, saved as TorchScript (torch.jit.load).
// The checkpoint file is verified first (checkpoint_check.h, as `verify` does)
// and the output is written durably and never over an existing file. Use from
// the thread that owns `reg`; only reads the registry.
#pragma once

#include "registry/registry.h"

#include <cstdint>
#include <string>
#include <vector>

namespace savepoint {

struct ExportRequest {
    std::int64_t checkpoint_id = 0;
    std::string out_path;
    // The run's config "model" (mlp|dnn|cnn or a TorchScript file) and, for a
    // file, "model_sha256", the hash it had when the run was created.
    std::string model;
    std::string model_sha256;
};

struct ExportResult {
    std::string path;                // as asked
    bool torchscript = false;        // false: a state dict
    std::vector<std::string> names;  // the tensors written (state dict keys), in checkpoint order
    std::uint64_t bytes = 0;
    std::string sha256;  // of the file written
};

// Throws InputError (nothing written) for: no checkpoint `id` in the run
// (naming the committed ones), one without a usable file, an output path that
// exists or whose directory does not, a TorchScript file that is gone or has
// changed, a module whose parameters do not match the checkpoint's by name or
// shape. CorruptCheckpoint when the checkpoint file fails verification;
// StorageError when the output cannot be written.
ExportResult export_checkpoint(Registry& reg, const RunRow& run, const ExportRequest& request);

}  // namespace savepoint
