#include "formats/idx_cache.h"

#include "storage/sha256.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace savepoint {
namespace {

std::string cache_dir() {
    if (const char* d = std::getenv("SAVEPOINT_CACHE_DIR"); d && *d) return std::string(d) == "off" ? "" : d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/savepoint";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/savepoint";
    return "";
}

// Who the .gz is, read without reading all of it: its size, its first and
// last 64 KiB and the gzip trailer (CRC-32 and length of the inflated bytes).
// Hashing the whole file for a key would cost every resume far more than this
// (docs/PERFORMANCE.md, IDX cache). Content only (no inode or mtime), so a copy or a fresh
// download of the same file shares the entry. Damage in the middle of the .gz
// that keeps its size is not noticed here, but then the cached bytes (checked
// against the trailer's CRC) are the good ones.
std::optional<InflateCacheEntry> identify(const std::string& path) {
    // Only regular files: opening a FIFO here would consume its writer.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return std::nullopt;
    std::optional<InflateCacheEntry> out;
    constexpr std::size_t kEdge = 64 * 1024;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 18) {
        const auto size = static_cast<std::size_t>(st.st_size);
        std::vector<std::uint8_t> head(std::min(size, kEdge)), tail(std::min(size, kEdge));
        const bool read_ok = ::pread(fd, head.data(), head.size(), 0) == static_cast<ssize_t>(head.size()) &&
                             ::pread(fd, tail.data(), tail.size(), static_cast<off_t>(size - tail.size())) ==
                                 static_cast<ssize_t>(tail.size());
        if (read_ok && head[0] == 0x1f && head[1] == 0x8b) {
            InflateCacheEntry id;
            std::memcpy(&id.crc, tail.data() + tail.size() - 8, 4);  // little-endian, as gzip stores it
            std::memcpy(&id.size, tail.data() + tail.size() - 4, 4);
            Sha256 h;
            const std::uint64_t file_size = size;
            h.update(&file_size, sizeof file_size);
            h.update(head.data(), head.size());
            h.update(tail.data(), tail.size());
            const auto digest = h.finish();
            char suffix[64];
            std::snprintf(suffix, sizeof suffix, "-%08x.idx", id.crc);
            id.key = to_hex(digest.data(), digest.size()) + suffix;
            out = std::move(id);
        }
    }
    ::close(fd);
    return out;
}

// Asks for 2 MiB pages behind a fresh, untouched buffer (transparent huge
// pages in "madvise" mode, Debian's default). The training images then fault
// in a few dozen times instead of thousands, which counts on a VM where each
// fault traps to the hypervisor (docs/PERFORMANCE.md, IDX cache). Only advice: if
// the kernel says no, the buffer is as it was.
void back_with_huge_pages(void* data, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
    const std::uintptr_t huge = 2u << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + huge - 1) & ~(huge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(huge - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

}  // namespace

std::optional<InflateCacheEntry> inflate_cache_entry(const std::string& path) {
    const std::string dir = cache_dir();
    if (dir.empty()) return std::nullopt;
    auto id = identify(path);
    if (id) id->path = dir + "/datasets/" + id->key;
    return id;
}

std::optional<std::vector<std::uint8_t>> read_cached(const InflateCacheEntry& entry) {
    int fd = ::open(entry.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st {};
    std::vector<std::uint8_t> bytes;
    if (::fstat(fd, &st) == 0 && static_cast<std::uint32_t>(st.st_size) == entry.size) {
        bytes.reserve(static_cast<std::size_t>(st.st_size));
        back_with_huge_pages(bytes.data(), bytes.capacity());
        bytes.resize(static_cast<std::size_t>(st.st_size));
        std::size_t got = 0;
        while (got < bytes.size()) {
            ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        if (got != bytes.size()) bytes.clear();
    }
    ::close(fd);
    if (bytes.empty()) return std::nullopt;
    uLong crc = crc32_z(0L, Z_NULL, 0);
    crc = crc32_z(crc, bytes.data(), bytes.size());
    if (static_cast<std::uint32_t>(crc) != entry.crc) return std::nullopt;
    return bytes;
}

void store_inflated(const InflateCacheEntry& id, const std::vector<std::uint8_t>& inflated) {
    if (static_cast<std::uint32_t>(inflated.size()) != id.size) return;
    const std::string& entry = id.path;
    const std::string dir = entry.substr(0, entry.find_last_of('/'));
    std::string partial;
    for (std::size_t pos = 1; pos != std::string::npos;) {
        pos = dir.find('/', pos + 1);
        partial = dir.substr(0, pos);
        ::mkdir(partial.c_str(), 0755);
    }
    const std::string tmp = entry + ".tmp" + std::to_string(::getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    std::size_t done = 0;
    while (done < inflated.size()) {
        ssize_t n = ::write(fd, inflated.data() + done, inflated.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
    }
    const bool ok = ::close(fd) == 0 && done == inflated.size();
    // A cache needs no fsync: a torn entry fails the CRC check and is rebuilt.
    if (!ok || ::rename(tmp.c_str(), entry.c_str()) != 0) {
        ::unlink(tmp.c_str());
        return;
    }
    // Entries under other keys with the same inflated CRC hold these same bytes
    // (an older key scheme, or the file before an edit that kept its contents):
    // drop them, so the cache does not grow by 55 MB per variant.
    const std::string suffix = id.key.substr(id.key.find('-'));
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name != id.key && name.size() > suffix.size() &&
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
                ::unlink((dir + "/" + name).c_str());
        }
        ::closedir(d);
    }
}

}  // namespace savepoint
