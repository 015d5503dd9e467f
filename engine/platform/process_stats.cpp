#include "platform/process_stats.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace savepoint {

namespace {

// Reads up to n-1 bytes of a small /proc file into buf, NUL-terminated; 0 when
// it cannot be read. One read() is how /proc hands these files out.
std::size_t read_proc(const char* path, char* buf, std::size_t n) {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    std::size_t got = 0;
    while (got + 1 < n) {
        const ssize_t r = ::read(fd, buf + got, n - 1 - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += static_cast<std::size_t>(r);
    }
    ::close(fd);
    buf[got] = '\0';
    return got;
}

// The number after "<key>" in a "key: value" file, or -1 when the key is absent.
long long field_after(const char* text, const char* key) {
    const char* p = std::strstr(text, key);
    if (!p) return -1;
    char* end = nullptr;
    const long long v = std::strtoll(p + std::strlen(key), &end, 10);
    return end == p + std::strlen(key) ? -1 : v;
}

double seconds_of(clockid_t clock) {
    timespec ts{};
    if (::clock_gettime(clock, &ts) != 0) return 0;
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

// The process clock rather than /proc/self/stat's utime+stime: the same sum over
// every thread, but in nanoseconds instead of 10 ms ticks, and no text to parse.
double process_cpu_seconds() { return seconds_of(CLOCK_PROCESS_CPUTIME_ID); }

std::int64_t process_resident_bytes() {
    char buf[256];
    if (!read_proc("/proc/self/statm", buf, sizeof buf)) return 0;
    char* end = nullptr;
    std::strtoll(buf, &end, 10);  // total program size; resident pages follow
    const long long pages = std::strtoll(end, nullptr, 10);
    const long page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : 0;
}

std::int64_t available_memory_bytes() {
    char buf[4096];
    if (!read_proc("/proc/meminfo", buf, sizeof buf)) return 0;
    const long long kib = field_after(buf, "MemAvailable:");
    return kib > 0 ? static_cast<std::int64_t>(kib) * 1024 : 0;
}

std::int64_t process_written_bytes() {
    char buf[512];
    if (!read_proc("/proc/self/io", buf, sizeof buf)) return 0;  // a kernel without task I/O accounting
    // write_bytes counts pages the process dirtied on a file system with a backing
    // device (before writeback, so what fsync later sends). A kernel without
    // storage accounting gives only wchar: every byte passed to write(), pipes and
    // terminals too, and page-cache hits that never reach a disk.
    long long v = field_after(buf, "write_bytes:");
    if (v < 0) v = field_after(buf, "wchar:");
    return v > 0 ? static_cast<std::int64_t>(v) : 0;
}

std::int64_t free_disk_bytes(const std::string& dir) {
    struct statvfs fs {};
    if (::statvfs(dir.c_str(), &fs) != 0) return 0;
    return static_cast<std::int64_t>(fs.f_bavail) * static_cast<std::int64_t>(fs.f_frsize);
}

CpuMeter::CpuMeter() : cpu_s_(process_cpu_seconds()), wall_s_(seconds_of(CLOCK_MONOTONIC)) {}

double CpuMeter::percent() {
    const double cpu = process_cpu_seconds(), wall = seconds_of(CLOCK_MONOTONIC);
    const double d_cpu = cpu - cpu_s_, d_wall = wall - wall_s_;
    cpu_s_ = cpu;
    wall_s_ = wall;
    return d_wall > 0 && d_cpu >= 0 ? 100.0 * d_cpu / d_wall : 0.0;
}

}  // namespace savepoint
