// Keeping the disk's interrupts off the training core.
//
// A disk with one completion queue (virtio-blk, AHCI) takes its interrupts on
// a fixed CPU. Every request a checkpoint makes (~25 a save: data, journal,
// cache flushes) then interrupts whatever runs there — the training thread,
// half the time — and wakes the I/O thread through another interrupt. The I/O
// thread on the interrupted CPU and training on the other takes most of that
// cost away (docs/PERFORMANCE.md, I/O affinity). Disks with a queue per CPU (NVMe) complete on the submitting
// CPU already: nothing to do there.
#pragma once

#include <sched.h>

#include <string>
#include <vector>

namespace savepoint {

// The CPUs that take the completion interrupts of the block device holding
// `path` (from sysfs and /proc/irq), when they are fewer than the online
// CPUs; empty when unknown, spread over every CPU, or not on Linux.
// SAVEPOINT_IO_CPUS overrides: a comma-separated CPU list, or "off".
std::vector<int> storage_interrupt_cpus(const std::string& path);

// How many CPUs this process may use (its affinity when first asked).
int available_cpus();

// Pins the calling thread to `cpus` for the object's lifetime, then restores
// the mask it had. Does nothing for an empty list or if the kernel refuses.
class ThreadAffinity {
public:
    explicit ThreadAffinity(const std::vector<int>& cpus);
    ~ThreadAffinity();
    ThreadAffinity(const ThreadAffinity&) = delete;
    ThreadAffinity& operator=(const ThreadAffinity&) = delete;

private:
    cpu_set_t saved_{};
    bool active_ = false;
};

// Every CPU this process may use except `excluded`.
std::vector<int> cpus_except(const std::vector<int>& excluded);

}  // namespace savepoint
