// Deterministic CUDA: the settings that make a run on a GPU give the same bits
// every time, interrupted or not (docs/CUDA.md, section "Deterministic CUDA").
#pragma once

#include <string>

namespace savepoint {

inline constexpr const char* kCublasWorkspaceVariable = "CUBLAS_WORKSPACE_CONFIG";

// At start-up, before any thread or CUDA call (the CLI's and the GUI's main):
// sets CUBLAS_WORKSPACE_CONFIG=:4096:8 unless the user set it. cuBLAS reads it
// when its first handle is made; a value set later would be too late.
void prepare_cuda_environment();

// Throws InputError naming CUBLAS_WORKSPACE_CONFIG when it is set to something
// other than one of cuBLAS's deterministic workspaces (":4096:8", ":16:8").
void check_cublas_workspace();

// Before a run's first CUDA work: check_cublas_workspace(), then turns on cuDNN's deterministic algorithms, turns off
// its benchmark (which picks algorithms by timing), and makes an operation without a deterministic CUDA kernel an error
// rather than a warning.
void use_deterministic_cuda();

// The operation LibTorch names in its "... does not have a deterministic
// implementation ..." error ("index_add_cuda_"); empty for any other error.
std::string nondeterministic_operation(const std::string& error_text);

}  // namespace savepoint
