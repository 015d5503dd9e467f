// A cache of inflated .gz dataset files, so a resume does not spend half a
// second re-inflating Fashion-MNIST before its first step. An entry is found
// from the .gz's identity (size, mtime, inode, its first and last 64 KiB), so
// a hit reads only the entry; its bytes are trusted only when their length and
// CRC-32 match the gzip trailer of the source file, so a stale or damaged
// cache entry is ignored, never used.
// Location: $SAVEPOINT_CACHE_DIR, else $XDG_CACHE_HOME/savepoint, else
// ~/.cache/savepoint; SAVEPOINT_CACHE_DIR=off disables it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace savepoint {

// The inflated bytes of the gzip file at `path`, if cached; nothing for a
// file that is not gzip, missing, or not cached.
std::optional<std::vector<std::uint8_t>> cached_inflate(const std::string& path);

// Best effort: a cache that cannot be written is simply not used.
void store_inflated(const std::string& path, const std::vector<std::uint8_t>& inflated);

}  // namespace savepoint
