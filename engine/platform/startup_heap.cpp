#include "platform/startup_heap.h"

#include "platform/sanitizer_build.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace savepoint {
namespace {

StartupHeap g_startup_heap;

#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !defined(SAVEPOINT_SANITIZED_BUILD)
#define SAVEPOINT_STARTUP_HEAP 1
// The environment as the kernel passed it: this runs before libc's own
// initialiser, so getenv() is not to be relied on yet.
bool disabled_by(char** envp) {
    static const char kVar[] = "SAVEPOINT_HEAP_HUGE_PAGES=";
    for (char** e = envp; e && *e; ++e)
        if (std::strncmp(*e, kVar, sizeof kVar - 1) == 0) return std::strcmp(*e + sizeof kVar - 1, "off") == 0;
    return false;
}
#endif

void heap_on_huge_pages([[maybe_unused]] int argc, [[maybe_unused]] char** argv, char** envp) {
#ifdef SAVEPOINT_STARTUP_HEAP
    if (disabled_by(envp)) {
        g_startup_heap.why_not = "SAVEPOINT_HEAP_HUGE_PAGES=off";
        return;
    }
    constexpr std::size_t kPad = std::size_t{64} << 20;
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
    mallopt(M_TOP_PAD, static_cast<int>(kPad));
    const auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
    // volatile: a malloc/free pair the compiler can see through is removed.
    void* volatile probe = std::malloc(1);
    const auto after = reinterpret_cast<std::uintptr_t>(sbrk(0));
    std::free(probe);
    mallopt(M_TOP_PAD, 128 << 10);  // back to glibc's default for later growth
    // Only a range the heap grew into just now: if brk could not move, glibc
    // fell back to mmap and there is nothing here to advise.
    if (before == ~std::uintptr_t{0} || after < before + kPad) {
        g_startup_heap.why_not = "the heap did not grow in place (brk refused)";
        return;
    }
    const std::uintptr_t begin = (before + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = after & ~(kHuge - 1);
    if (::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) != 0) {
        g_startup_heap.why_not = "the kernel refused MADV_HUGEPAGE (no transparent huge pages)";
        return;
    }
    g_startup_heap = StartupHeap{true, end - begin, ""};
#else
    (void)envp;
    g_startup_heap.why_not = "not a glibc/Linux build, or a sanitizer build (not glibc's allocator)";
#endif
}

}  // namespace

StartupHeap startup_heap() { return g_startup_heap; }

}  // namespace savepoint

// Only an executable's .preinit_array runs this early (a shared library's is
// ignored), which is why this file is an object library linked into each one.
__attribute__((section(".preinit_array"),
               used)) static void (*const savepoint_preinit_heap)(int, char**, char**) = savepoint::heap_on_huge_pages;
