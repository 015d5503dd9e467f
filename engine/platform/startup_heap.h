// The heap a process starts with, on 2 MiB pages.
//
// LibTorch's static initialisers register ~2,000 operators before main():
// tens of MB of small allocations, which the kernel hands out 4 KiB at a time,
// one page fault each. On a VM, where every fault traps to the hypervisor,
// that is a good part of a `savepoint-cli` command's start-up
// (docs/PERFORMANCE.md, start-up heap).
// An executable that links the `savepoint_startup_heap` object library runs
// a function from its .preinit_array — after the loader has mapped and
// relocated every library, before any of their initialisers — that grows
// the heap by 64 MiB in one step and asks for transparent huge pages behind
// it (madvise mode, Debian's default). Those initialisers then fault a few
// dozen times instead of thousands.
//
// It also fixes glibc's thresholds, which setting the pad makes static:
// blocks under 32 MiB come from the heap (not a fresh mmap that faults in
// again on every use), and up to 128 MiB of freed heap stays with the
// process (not trimmed and re-faulted a step later).
//
// SAVEPOINT_HEAP_HUGE_PAGES=off skips it. Sanitizer builds skip it (their
// allocator is not glibc's).
#pragma once

#include <cstddef>

namespace savepoint {

// Constant-initialised on purpose: the preinit step runs before this
// executable's own dynamic initialisers, which would overwrite what it wrote.
struct StartupHeap {
    bool applied = false;        // the heap grew and madvise accepted the range
    std::size_t huge_bytes = 0;  // bytes of heap advised for huge pages
    const char* why_not = "the executable does not link savepoint_startup_heap";
};

// What the preinit step did in this process (all zero when the executable
// does not link it, or it was skipped).
StartupHeap startup_heap();

}  // namespace savepoint
