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

// Where the inflated bytes of one .gz live in the cache, and what they must be.
struct InflateCacheEntry {
    std::string path;       // the entry file
    std::string key;        // its name
    std::uint32_t crc = 0;  // CRC-32 and length of the inflated bytes (the gzip trailer)
    std::uint32_t size = 0;
};

// The entry for the gzip file at `path`; nothing when the cache is off or the
// file is not a regular gzip file. Reads only the file's edges.
std::optional<InflateCacheEntry> inflate_cache_entry(const std::string& path);

// The entry's bytes, if present and matching the trailer's length and CRC.
std::optional<std::vector<std::uint8_t>> read_cached(const InflateCacheEntry& entry);

// Best effort: a cache that cannot be written is simply not used.
void store_inflated(const InflateCacheEntry& entry, const std::vector<std::uint8_t>& inflated);

}  // namespace savepoint
