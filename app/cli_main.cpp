// savepoint-cli: the headless front end. All logic lives in cli/cli_app.cpp.
#include "cli_app.h"
#include "cuda/cuda_determinism.h"
#include "early_signals.h"
#include "platform/sanitizer_build.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
#ifdef SAVEPOINT_SANITIZED_BUILD
    savepoint::catch_signals_early();  // later than the .preinit_array would (early_signals_preinit.cpp)
#endif
    savepoint::prepare_cuda_environment();  // before any thread or CUDA call
    int code = savepoint::run_cli(argc, argv);
#ifndef SAVEPOINT_SANITIZED_BUILD
    // By now run_cli has closed everything Savepoint owns: the registry, the
    // checkpoint files, the I/O thread, the run lock. What a normal exit would
    // still do is run LibTorch's static destructors, which unregister its
    // operators one by one, a noticeable part of every command (docs/PERFORMANCE.md,
    // CLI exit). The kernel reclaims memory and descriptors faster. (Sanitizer builds exit
    // normally, so leak checking still runs.)
    std::cout.flush();
    std::cerr.flush();
    // Output that cannot be written (a full disk, a closed pipe) is a failure.
    errno = 0;
    if ((std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) && code == 0) {
        const int err = errno;
        std::fprintf(stderr, "error: could not write to standard output%s%s\n", err ? ": " : " (disk full or closed?)",
                     err ? std::strerror(err) : "");
        code = 1;
    }
    std::fflush(stderr);
    std::_Exit(code);
#endif
    return code;
}
