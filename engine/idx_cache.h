// A cache of inflated .gz dataset files, so a resume does not spend half a
// second re-inflating Fashion-MNIST before its first step. The cached bytes
// are trusted only when their length and CRC-32 match the gzip trailer of the
// source file, so a stale or damaged cache entry is ignored, never used.
// Location: $SAVEPOINT_CACHE_DIR, else $XDG_CACHE_HOME/savepoint, else
// ~/.cache/savepoint; SAVEPOINT_CACHE_DIR=off disables it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace savepoint {

// `gz` is the whole compressed file as read from `path`.
std::optional<std::vector<std::uint8_t>> cached_inflate(const std::string& path, const std::vector<std::uint8_t>& gz);

// Best effort: a cache that cannot be written is simply not used.
void store_inflated(const std::string& path, const std::vector<std::uint8_t>& gz,
                    const std::vector<std::uint8_t>& inflated);

}  // namespace savepoint
