// libFuzzer target: savepoint-cli's argument parser and validation
// (savepoint::run_cli with explicit streams). The input is split on newlines
// into arguments. Kept bounded and harmless:
//  - every file/registry operation fails (fault seam armed in
//    LLVMFuzzerInitialize: SAVEPOINT_FAULT_AT=1 + PERSIST), so no command can
//    get past opening the registry, let alone train;
//  - SAVEPOINT_HOME is a fresh empty temp dir and any argument naming a home
//    ("home" anywhere in it) is dropped, so nothing is created elsewhere;
//  - the fashion-mnist directory points nowhere, so no dataset is loaded.
#include "cli_app.h"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    char dir[] = "/tmp/savepoint-fuzz-cli-XXXXXX";
    if (!mkdtemp(dir)) std::abort();
    setenv("SAVEPOINT_HOME", dir, 1);
    setenv("SAVEPOINT_FAULT_AT", "1", 1);
    setenv("SAVEPOINT_FAULT_PERSIST", "1", 1);
    setenv("SAVEPOINT_FAULT_ERRNO", "EIO", 1);
    setenv("SAVEPOINT_FASHION_MNIST_DIR", "/nonexistent/savepoint-fuzz", 1);
    unsetenv("SAVEPOINT_FAULT_TRACE");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;
    std::vector<std::string> args;  // the first line is argv[0]
    std::string cur;
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == '\n') {
            args.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(static_cast<char>(data[i]));
        }
    }
    args.push_back(cur);
    for (const auto& a : args)
        if (a.find("home") != std::string::npos) return 0;
    if (args.size() > 64) return 0;
    std::ostringstream out, err;
    const int code = savepoint::run_cli(args, out, err, false);
    if (code < 0 || code > 3) __builtin_trap();
    if (code == 2 && err.str().find("error: ") == std::string::npos) __builtin_trap();  // refusals say why
    return 0;
}
