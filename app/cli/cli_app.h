// savepoint-cli's commands: train, resume, runs, checkpoints, verify, pin, unpin.
// Exit codes: 0 done, 2 invalid input, 3 interrupted and resumable, 1 anything else.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace savepoint {

int run_cli(int argc, char** argv);

// Parses and runs with explicit streams (tests, fuzzer). `install_signals`
// routes SIGTERM/SIGINT to a preemption notice while training.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool install_signals);

}  // namespace savepoint
