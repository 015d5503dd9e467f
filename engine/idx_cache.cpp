#include "idx_cache.h"

#include "sha256.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

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

struct Trailer {
    std::uint32_t crc = 0, size = 0;
};

std::optional<Trailer> trailer_of(const std::vector<std::uint8_t>& gz) {
    if (gz.size() < 18) return std::nullopt;
    Trailer t;
    std::memcpy(&t.crc, gz.data() + gz.size() - 8, 4);   // little-endian, as gzip stores it
    std::memcpy(&t.size, gz.data() + gz.size() - 4, 4);
    return t;
}

std::string entry_path(const std::string& path, const std::vector<std::uint8_t>& gz, const Trailer& t) {
    const std::string dir = cache_dir();
    if (dir.empty()) return "";
    (void)path;
    // Content-addressed: a damaged .gz never matches the entry of the good one.
    char suffix[64];
    std::snprintf(suffix, sizeof suffix, "-%08x.idx", t.crc);
    return dir + "/datasets/" + sha256_hex(gz.data(), gz.size()) + suffix;
}

}  // namespace

std::optional<std::vector<std::uint8_t>> cached_inflate(const std::string& path, const std::vector<std::uint8_t>& gz) {
    auto t = trailer_of(gz);
    if (!t) return std::nullopt;
    const std::string entry = entry_path(path, gz, *t);
    if (entry.empty()) return std::nullopt;
    int fd = ::open(entry.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st {};
    std::vector<std::uint8_t> bytes;
    if (::fstat(fd, &st) == 0 && static_cast<std::uint32_t>(st.st_size) == t->size) {
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
    if (static_cast<std::uint32_t>(crc) != t->crc) return std::nullopt;
    return bytes;
}

void store_inflated(const std::string& path, const std::vector<std::uint8_t>& gz,
                    const std::vector<std::uint8_t>& inflated) {
    auto t = trailer_of(gz);
    if (!t || static_cast<std::uint32_t>(inflated.size()) != t->size) return;
    const std::string entry = entry_path(path, gz, *t);
    if (entry.empty()) return;
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
    if (!ok || ::rename(tmp.c_str(), entry.c_str()) != 0) ::unlink(tmp.c_str());
}

}  // namespace savepoint
