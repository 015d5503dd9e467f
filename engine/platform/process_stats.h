// The process's and the machine's figures for telemetry, read from /proc and
// statvfs. Each reading that fails gives 0 and never throws: they run on the
// sampler's thread every second, and a missing figure must not stop it.
// Linux only (as is the rest of the engine).
#pragma once

#include <cstdint>
#include <string>

namespace savepoint {

// CPU time of every thread of the process, user and system, in seconds.
double process_cpu_seconds();
// Resident set size (/proc/self/statm).
std::int64_t process_resident_bytes();
// What the kernel thinks can be allocated without swapping (/proc/meminfo MemAvailable).
std::int64_t available_memory_bytes();
// Bytes the process sent towards storage (/proc/self/io write_bytes; wchar where
// the kernel gives no write_bytes).
std::int64_t process_written_bytes();
// Bytes an unprivileged process may still write on the file system holding `dir`.
std::int64_t free_disk_bytes(const std::string& dir);

// The process's CPU use between two readings; 100 % is one core busy.
// Not thread-safe: one owner (the sampler) calls percent().
class CpuMeter {
public:
    CpuMeter();  // takes the first reading: the first percent() covers the time since
    // Since the previous call (or construction); starts the next interval.
    double percent();

private:
    double cpu_s_ = 0, wall_s_ = 0;
};

}  // namespace savepoint
