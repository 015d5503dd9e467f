// io_load: the work of an mlp checkpoint, without Savepoint.
//
// Once every PERIOD milliseconds, until killed, does what a save does to the
// machine, or one part of it (WORK):
//   disk  (default) writes a 4.9 MB file over itself (same size, as a recycled
//         checkpoint is) and fdatasyncs it;
//   copy  copies 4.9 MB into a snapshot buffer with non-temporal stores, as the
//         background copy does (stream_copy.h);
//   hash  the copy, then the save's three SHA-256 streams (the two halves of
//         the 4.9 MB and the 1.6 MB of parameters, sha256_streams.h);
//   save  the copy, the write and fdatasync, the hashes and the cache release,
//         in a save's order.
// Run it pinned to the I/O CPU beside a training run that does not
// checkpoint, and the slowdown of that run is what that work alone costs the
// training core through the memory and caches they share (the host's side of
// the I/O and its interrupts too, with disk and save). Whatever a
// checkpointing run costs beyond `save` is Savepoint's own hand-over.
// tests/benchmarks/io_interference.sh alternates the modes beside a run.
//
//   io_load PATH [PERIOD_MS=9.5] [WORK=disk]
//   taskset -c 1 build/tests/benchmarks/io_load /tmp/io_load.dat 9.5 &
//
// Not a test and not part of any suite: docs/PERFORMANCE.md, a save's memory work, says what it showed.
#include "storage/cache_release.h"
#include "storage/sha256_streams.h"
#include "storage/stream_copy.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kBytes = 4891120;       // what an mlp checkpoint holds (model + Adam state)
constexpr std::size_t kChunk = 1 << 20;       // the pieces a save writes in
constexpr std::size_t kParamBytes = 1628200;  // mlp's parameters, hashed again for params_sha256

bool write_all(int fd, const char* data, std::size_t size, off_t offset) {
    while (size > 0) {
        const ssize_t n = ::pwrite(fd, data, size, offset);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
        offset += n;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 4) {
        std::fprintf(stderr, "usage: io_load PATH [PERIOD_MS=9.5] [WORK=disk|copy|hash|save]\n");
        return 2;
    }
    const double period_ms = argc >= 3 ? std::atof(argv[2]) : 9.5;
    if (!(period_ms > 0)) {
        std::fprintf(stderr, "io_load: PERIOD_MS: expected a positive number of milliseconds, found '%s'\n", argv[2]);
        return 2;
    }
    const std::string work = argc == 4 ? argv[3] : "disk";
    if (work != "disk" && work != "copy" && work != "hash" && work != "save") {
        std::fprintf(stderr, "io_load: WORK: expected disk, copy, hash or save, found '%s'\n", work.c_str());
        return 2;
    }
    const bool copy = work != "disk", write = work == "disk" || work == "save", hash = work == "hash" || work == "save";
    const int fd = write ? ::open(argv[1], O_WRONLY | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (write && fd < 0) {
        std::fprintf(stderr, "io_load: cannot open %s: %s\n", argv[1], std::strerror(errno));
        return 1;
    }
    // `live` stands for the model's tensors, `snapshot` for the buffers a capture fills.
    std::vector<char> live(kBytes), snapshot(kBytes);
    for (std::size_t i = 0; i < kBytes; ++i) live[i] = static_cast<char>(i * 2654435761u >> 24);
    const char* data = copy ? snapshot.data() : live.data();
    const auto period = std::chrono::duration<double, std::milli>(period_ms);
    for (;;) {
        const auto t0 = std::chrono::steady_clock::now();
        if (copy) savepoint::copy_streaming(snapshot.data(), live.data(), kBytes);
        if (write) {
            for (std::size_t off = 0; off < kBytes; off += kChunk)
                if (!write_all(fd, data + off, std::min(kChunk, kBytes - off), static_cast<off_t>(off))) {
                    std::fprintf(stderr, "io_load: cannot write %s: %s\n", argv[1], std::strerror(errno));
                    return 1;
                }
        }
        if (hash) {
            std::vector<savepoint::Sha256Stream> streams(3);
            streams[0].ranges = {{data, kBytes / 2}};
            streams[1].ranges = {{data + kBytes / 2, kBytes - kBytes / 2}};
            streams[2].ranges = {{data, kParamBytes}};
            savepoint::sha256_streams(streams);
        }
        if (copy && write) savepoint::release_from_caches(data, kBytes);
        if (write && ::fdatasync(fd) != 0) {
            std::fprintf(stderr, "io_load: cannot sync %s: %s\n", argv[1], std::strerror(errno));
            return 1;
        }
        std::this_thread::sleep_until(t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(period));
    }
}
