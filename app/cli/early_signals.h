// SIGTERM and SIGINT while savepoint-cli is still starting.
//
// A spot instance's preemption notice is a SIGTERM, and it can come while
// the process starts: loading and initialising LibTorch takes a noticeable
// time before main(), and a `train` or `resume` installed its handler later
// still (docs/PERFORMANCE.md, early signals). Until then the default action applied: a resume killed before it
// did anything, exit 143, no word of it. Now the executable's
// .preinit_array (after the loader has mapped the libraries, before any of
// their initialisers; startup_heap.h does the same) installs a handler that
// only notes the signal. The command then decides what it meant:
// - train and resume take it as a preemption notice (SignalScope in
//   cli_app.cpp) and act on it at the first step boundary;
// - every other command gives the two signals their default action back
//   and, if one came, dies of it, as it would have without the handler.
// What is left uncovered is the loader's own work before the preinit step.
#pragma once

namespace savepoint {

// From the .preinit_array of savepoint-cli (early_signals_preinit.cpp); a
// disposition set by the parent to ignore a signal is left as it is.
void catch_signals_early();

// The first signal noted since then and not yet taken (SIGTERM or SIGINT),
// or 0. Taking it clears it.
int take_early_signal();

// Hands SIGTERM and SIGINT back to their default action where the early
// handler still has them. A signal noted and not taken is raised again.
void release_early_signals();

}  // namespace savepoint
