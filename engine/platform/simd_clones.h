// Hot element-wise loops are compiled several times — baseline x86-64 (SSE2),
// x86-64-v3 (AVX2) and x86-64-v4 (AVX-512, with 64-bit multiplies for the
// dropout hash) — and the loader picks the widest one this CPU runs, once,
// through an ifunc (GCC's and Clang's target_clones). The package stays
// runnable on any x86-64 while a modern core does 16 floats an instruction
// instead of 4: Adam's sqrt and division alone took a fifth of an mlp step
// on the SSE2 build.
//
// Every clone must give the same bits, or a run resumed on another machine
// would diverge. Wider vectors do the same correctly rounded IEEE operations
// per element; what could differ is a multiply and an add fused into one FMA
// (rounded once instead of twice). Files that use this macro are therefore
// compiled with -ffp-contract=off (engine/CMakeLists.txt; also GCC's full
// vectoriser cost model, which -O2 otherwise limits), and their loops
// must not be reductions the compiler may reorder (it does not, without
// -ffast-math).
#pragma once

#include "platform/sanitizer_build.h"

// ThreadSanitizer instruments the ifunc resolver too, and the resolver runs
// while the loader is still relocating, before TSan's runtime exists: every
// binary linking the engine died with SIGSEGV before main. A TSan build
// therefore gets the baseline clone only (same bits, see above).

#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__) && !defined(SAVEPOINT_NO_SIMD_CLONES) && \
    !defined(SAVEPOINT_TSAN_BUILD)
#define SAVEPOINT_SIMD_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define SAVEPOINT_SIMD_CLONES
#endif
