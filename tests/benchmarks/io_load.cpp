// io_load: the disk traffic of an mlp checkpoint, without Savepoint.
//
// Writes a 4.9 MB file over itself (same size, as a recycled checkpoint is)
// and fdatasyncs it, once every PERIOD milliseconds, until killed. Run it
// pinned to the I/O CPU beside a training run that does not checkpoint, and
// the slowdown of that run is what the disk work alone costs the training
// core: the host's side of the I/O, its interrupts, the page-cache copy.
// Whatever a checkpointing run costs beyond that is Savepoint's own.
//
//   io_load PATH [PERIOD_MS=9.5]
//   taskset -c 1 build/tests/benchmarks/io_load /tmp/io_load.dat 9.5 &
//
// Not a test and not part of any suite: README's performance section says
// what it showed.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kBytes = 4891120;  // what an mlp checkpoint holds (model + Adam state)
constexpr std::size_t kChunk = 1 << 20;  // the pieces a save writes in

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
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: io_load PATH [PERIOD_MS=9.5]\n");
        return 2;
    }
    const double period_ms = argc == 3 ? std::atof(argv[2]) : 9.5;
    if (!(period_ms > 0)) {
        std::fprintf(stderr, "io_load: PERIOD_MS: expected a positive number of milliseconds, found '%s'\n", argv[2]);
        return 2;
    }
    const int fd = ::open(argv[1], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::fprintf(stderr, "io_load: cannot open %s: %s\n", argv[1], std::strerror(errno));
        return 1;
    }
    std::vector<char> data(kBytes);
    for (std::size_t i = 0; i < kBytes; ++i) data[i] = static_cast<char>(i * 2654435761u >> 24);
    const auto period = std::chrono::duration<double, std::milli>(period_ms);
    for (;;) {
        const auto t0 = std::chrono::steady_clock::now();
        for (std::size_t off = 0; off < kBytes; off += kChunk)
            if (!write_all(fd, data.data() + off, std::min(kChunk, kBytes - off), static_cast<off_t>(off))) {
                std::fprintf(stderr, "io_load: cannot write %s: %s\n", argv[1], std::strerror(errno));
                return 1;
            }
        if (::fdatasync(fd) != 0) {
            std::fprintf(stderr, "io_load: cannot sync %s: %s\n", argv[1], std::strerror(errno));
            return 1;
        }
        std::this_thread::sleep_until(t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(period));
    }
}
