#include "cuda/cuda_determinism.h"

#include "platform/errors.h"

#include <ATen/Context.h>

#include <cstdlib>

namespace savepoint {

void prepare_cuda_environment() {
    if (!std::getenv(kCublasWorkspaceVariable)) ::setenv(kCublasWorkspaceVariable, ":4096:8", 0);
}

void check_cublas_workspace() {
    const char* v = std::getenv(kCublasWorkspaceVariable);
    if (!v) return;  // prepare_cuda_environment sets it
    const std::string value = v;
    if (value != ":4096:8" && value != ":16:8")
        // An environment variable, not a flag: the message names it as it is spelt.
        throw InputError(std::string(kCublasWorkspaceVariable) +
                         ": expected \":4096:8\" or \":16:8\" (cuBLAS's deterministic workspaces), found \"" + value +
                         "\"; unset it and Savepoint sets :4096:8");
}

void use_deterministic_cuda() {
    prepare_cuda_environment();  // done by main already, unless the trainer was started by a program of its own
    check_cublas_workspace();
    at::globalContext().setDeterministicCuDNN(true);
    at::globalContext().setBenchmarkCuDNN(false);
    at::globalContext().setDeterministicAlgorithms(true, /*warn_only=*/false);
}

std::string nondeterministic_operation(const std::string& error_text) {
    const std::string marker = " does not have a deterministic implementation";
    const auto at = error_text.find(marker);
    if (at == std::string::npos) return {};
    const auto start = error_text.find_last_of(" \n:", at == 0 ? 0 : at - 1);
    return error_text.substr(start == std::string::npos ? 0 : start + 1,
                             at - (start == std::string::npos ? 0 : start + 1));
}

}  // namespace savepoint
