// Which sanitizer this translation unit is compiled under, for GCC
// (__SANITIZE_*__) and Clang (__has_feature) alike. One place, so the
// pieces that must behave differently under a sanitizer agree on it.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define SAVEPOINT_TSAN_BUILD 1
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SAVEPOINT_ASAN_BUILD 1
#endif
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) && !defined(SAVEPOINT_TSAN_BUILD)
#define SAVEPOINT_TSAN_BUILD 1
#endif
#if __has_feature(address_sanitizer) && !defined(SAVEPOINT_ASAN_BUILD)
#define SAVEPOINT_ASAN_BUILD 1
#endif
#if __has_feature(memory_sanitizer)
#define SAVEPOINT_MSAN_BUILD 1
#endif
#endif

#if defined(SAVEPOINT_TSAN_BUILD) || defined(SAVEPOINT_ASAN_BUILD) || defined(SAVEPOINT_MSAN_BUILD)
#define SAVEPOINT_SANITIZED_BUILD 1
#endif
