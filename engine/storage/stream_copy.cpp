#include "storage/stream_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace savepoint {

#if defined(__x86_64__)

void copy_streaming(void* dst, const void* src, std::size_t bytes) {
    // Below this the copy stays in the caches anyway and memcpy is as fast.
    constexpr std::size_t kMin = 64 * 1024;
    if (bytes < kMin) {
        std::memcpy(dst, src, bytes);
        return;
    }
    copy_streaming_unfenced(dst, src, bytes);
    // Non-temporal stores are weakly ordered: without the fence another thread
    // could see the buffer handed over before all of its bytes.
    _mm_sfence();
}

void stream_fence() { _mm_sfence(); }

void copy_streaming_unfenced(void* dst, const void* src, std::size_t bytes) {
    auto* d = static_cast<std::uint8_t*>(dst);
    const auto* s = static_cast<const std::uint8_t*>(src);
    // Up to the first 64-byte boundary of the destination: non-temporal stores
    // need aligned addresses, and whole lines are what they save a read of.
    const std::size_t head = std::min(bytes, (64 - reinterpret_cast<std::uintptr_t>(d) % 64) % 64);
    std::memcpy(d, s, head);
    d += head;
    s += head;
    bytes -= head;
    const std::size_t lines = bytes / 64;
    // SSE2 is part of x86-64: no dispatch. The width of the store does not
    // matter here: the write-combining buffer sends whole lines either way.
    for (std::size_t i = 0; i < lines; ++i, d += 64, s += 64) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
        const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 48));
        _mm_stream_si128(reinterpret_cast<__m128i*>(d), a);
        _mm_stream_si128(reinterpret_cast<__m128i*>(d + 16), b);
        _mm_stream_si128(reinterpret_cast<__m128i*>(d + 32), c);
        _mm_stream_si128(reinterpret_cast<__m128i*>(d + 48), e);
    }
    std::memcpy(d, s, bytes % 64);
}

#else

void copy_streaming(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }
void copy_streaming_unfenced(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }
void stream_fence() {}

#endif

}  // namespace savepoint
