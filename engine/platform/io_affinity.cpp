#include "platform/io_affinity.h"

#include <pthread.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace savepoint {
namespace {

namespace fs = std::filesystem;

// "0-2,5" → {0, 1, 2, 5}; nothing on garbage.
std::vector<int> parse_cpu_list(const std::string& text) {
    std::vector<int> out;
    std::stringstream ss(text);
    std::string part;
    while (std::getline(ss, part, ',')) {
        part.erase(std::remove_if(part.begin(), part.end(), ::isspace), part.end());
        if (part.empty()) continue;
        const auto dash = part.find('-');
        char* end = nullptr;
        const long first = std::strtol(part.c_str(), &end, 10);
        if (end == part.c_str() || first < 0 || first >= CPU_SETSIZE) return {};
        long last = first;
        if (dash != std::string::npos) {
            const char* second = part.c_str() + dash + 1;
            last = std::strtol(second, &end, 10);
            if (end == second || last < first || last >= CPU_SETSIZE) return {};
        } else if (*end != '\0') {
            return {};
        }
        for (long c = first; c <= last; ++c) out.push_back(static_cast<int>(c));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string read_line(const fs::path& p) {
    std::ifstream in(p);
    std::string line;
    std::getline(in, line);
    return line;
}

// IRQ number → total interrupts so far, from /proc/interrupts.
std::map<int, unsigned long long> interrupt_counts() {
    std::map<int, unsigned long long> out;
    std::ifstream in("/proc/interrupts");
    std::string line;
    std::getline(in, line);  // CPU header
    while (std::getline(in, line)) {
        std::stringstream ss(line);
        std::string label;
        ss >> label;
        if (label.empty() || label.back() != ':') continue;
        char* end = nullptr;
        const long irq = std::strtol(label.c_str(), &end, 10);
        if (end == label.c_str() || *end != ':') continue;
        unsigned long long total = 0, n = 0;
        while (ss >> n) total += n;
        out[static_cast<int>(irq)] = total;
    }
    return out;
}

std::vector<int> cpus_of(const cpu_set_t& set) {
    std::vector<int> out;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) out.push_back(c);
    return out;
}

}  // namespace

// The CPUs this process may use, as first asked (before any ThreadAffinity
// narrowed the asking thread).
const std::vector<int>& process_cpus() {
    static const std::vector<int> cpus = [] {
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) != 0) return std::vector<int>{};
        return cpus_of(set);
    }();
    return cpus;
}

int available_cpus() { return std::max<int>(1, static_cast<int>(process_cpus().size())); }

std::vector<int> cpus_except(const std::vector<int>& excluded) {
    std::vector<int> out;
    for (int c : process_cpus())
        if (std::find(excluded.begin(), excluded.end(), c) == excluded.end()) out.push_back(c);
    return out;
}

std::vector<int> storage_interrupt_cpus(const std::string& path) {
    if (const char* env = std::getenv("SAVEPOINT_IO_CPUS")) {
        const std::string v = env;
        return v == "off" ? std::vector<int>{} : parse_cpu_list(v);
    }
    std::error_code ec;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    const std::string dev = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
    fs::path disk = fs::canonical("/sys/dev/block/" + dev, ec);
    if (ec) return {};  // not a block device (tmpfs, overlay, NFS): no interrupts of ours to dodge
    if (fs::exists(disk / "partition", ec)) disk = disk.parent_path();
    // The nearest ancestor with MSI vectors is the controller (PCI function).
    fs::path controller;
    for (fs::path p = disk; p.has_relative_path() && p != "/sys/devices"; p = p.parent_path())
        if (fs::is_directory(p / "msi_irqs", ec)) {
            controller = p;
            break;
        }
    if (controller.empty()) return {};
    const auto counts = interrupt_counts();
    cpu_set_t all;
    CPU_ZERO(&all);
    for (const auto& entry : fs::directory_iterator(controller / "msi_irqs", ec)) {
        const int irq = std::atoi(entry.path().filename().c_str());
        const auto it = counts.find(irq);
        if (it == counts.end() || it->second == 0) continue;  // configuration vectors that never fire
        const std::string base = "/proc/irq/" + std::to_string(irq) + "/";
        std::string list = read_line(base + "effective_affinity_list");
        if (list.empty()) list = read_line(base + "smp_affinity_list");
        for (int c : parse_cpu_list(list)) CPU_SET(c, &all);
    }
    std::vector<int> cpus = cpus_of(all);
    // Spread over every CPU we may use (per-CPU queues): completions are local already.
    const std::vector<int> others = cpus_except(cpus);
    if (cpus.empty() || others.empty()) return {};
    return cpus;
}

ThreadAffinity::ThreadAffinity(const std::vector<int>& cpus) {
    if (cpus.empty() || pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_) != 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus) CPU_SET(c, &set);
    active_ = pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

ThreadAffinity::~ThreadAffinity() {
    if (active_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
}

}  // namespace savepoint
