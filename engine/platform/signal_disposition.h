// Taking SIGTERM or SIGINT over without undoing a parent's "ignore".
//
// A shell script that starts a job with `&` sets SIGINT to be ignored in it,
// so that a Ctrl-C aimed at the script does not reach the job; nohup does
// the same for SIGHUP. The CLI's early and training handlers and the GUI's
// termination handler all go through here, so they agree on that.
#pragma once

#include <csignal>

namespace savepoint {

// Installs `handler` for `sig` with `flags` (SA_*), unless `sig` is ignored:
// then it stays ignored. `old`, if given, receives what was there. Returns
// whether the handler was installed.
bool handle_unless_ignored(int sig, void (*handler)(int), int flags, struct sigaction* old = nullptr);

}  // namespace savepoint
