// The fault seam every durable file and registry operation passes through.
//
// Each operation calls fault_point() first, so tests can fail (errno) or crash
// (_exit) at operation k for every k. The seam is armed from code
// (set_fault_hook) or from the environment, so a crash-point sweep can drive
// the real savepoint-cli:
//   SAVEPOINT_FAULT_AT=k            fail the k-th operation (1-based) with EIO
//   SAVEPOINT_FAULT_ERRNO=ENOSPC    ...with this errno instead (EIO, ENOSPC, EROFS, EDQUOT)
//   SAVEPOINT_FAULT_MODE=crash      _exit(137) at the k-th operation instead
//   SAVEPOINT_FAULT_PERSIST=1       keep failing every operation from k on
//   SAVEPOINT_FAULT_TRACE=path      append "k op path" for each operation
#pragma once

#include <functional>
#include <string>

namespace savepoint {

// Returns 0 to proceed or an errno value to fail the operation with.
using FaultHook = std::function<int(const char* op, const std::string& path)>;
void set_fault_hook(FaultHook hook);
int fault_point(const char* op, const std::string& path);

}  // namespace savepoint
