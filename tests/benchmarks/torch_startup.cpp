// torch_startup: the least any LibTorch program pays before its first step —
// loading LibTorch and the libraries it links, relocation, its static
// initialisers — plus one tiny op. run-comparison.sh times it next to
// `savepoint-cli resume`, so the resume figure can be read against it.
#include <ATen/ATen.h>

#include <cstdio>

int main() {
    const at::Tensor t = at::ones({2});
    std::printf("%g\n", t.sum().item<double>());
    return 0;
}
