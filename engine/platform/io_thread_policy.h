// How the checkpoint I/O thread shares a CPU with training when it must.
//
// When training uses every CPU, the I/O thread has none of its own. Woken for
// a save as an ordinary thread, it preempts whichever training thread runs on
// its CPU at once; when that is the thread handing the save over, the
// hand-over (the checkpoint's stall) grows by the preemption, a scheduler time
// slice. As SCHED_BATCH it is not allowed to preempt on wake-up: it
// waits for the next scheduler tick and then takes its fair share like any
// thread, so the hand-over returns at once. The CPU time a save needs
// still comes out of training, and the end-to-end overhead is the same either
// way (docs/PERFORMANCE.md, I/O thread policy): only where the wait lands moves.
#pragma once

#include <cstddef>

namespace savepoint {

// True when checkpoint I/O has no CPU of its own: `training_threads` plus the
// CPUs it is pinned to (`io_cpus`, at least one when unpinned) exceed `cpus`.
bool io_shares_training_cpus(int training_threads, std::size_t io_cpus, int cpus);

// Makes the calling thread SCHED_BATCH (nice unchanged; needs no privilege).
// False if the kernel refused or this is not Linux; the thread is then as it was.
bool defer_wakeups_to_running_threads();

// The calling thread's scheduling policy is SCHED_BATCH.
bool runs_as_batch();

}  // namespace savepoint
