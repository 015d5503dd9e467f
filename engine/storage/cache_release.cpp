#include "storage/cache_release.h"

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace savepoint {

#if defined(__x86_64__) || defined(__i386__)
namespace {

constexpr std::uintptr_t kLine = 64;

// CLFLUSHOPT (CPUID.7.0:EBX bit 23) is weakly ordered: the flushes of one buffer
// overlap instead of running one after another as CLFLUSH's do.
bool has_clflushopt() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (b & (1u << 23)) != 0;
}

__attribute__((target("clflushopt"))) void flush_opt(std::uintptr_t from, std::uintptr_t to) {
    for (std::uintptr_t p = from; p < to; p += kLine) _mm_clflushopt(reinterpret_cast<void*>(p));
    _mm_sfence();
}

void flush_plain(std::uintptr_t from, std::uintptr_t to) {
    for (std::uintptr_t p = from; p < to; p += kLine) _mm_clflush(reinterpret_cast<void*>(p));
    _mm_mfence();
}

}  // namespace

void release_from_caches(const void* data, std::size_t bytes) {
    if (!data || bytes == 0) return;
    static const bool opt = has_clflushopt();
    const auto begin = reinterpret_cast<std::uintptr_t>(data) & ~(kLine - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(data) + bytes;
    if (opt)
        flush_opt(begin, end);
    else
        flush_plain(begin, end);
}

#else

void release_from_caches(const void*, std::size_t) {}

#endif

}  // namespace savepoint
