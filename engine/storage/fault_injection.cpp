#include "storage/fault_injection.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace savepoint {
namespace {

std::mutex g_hook_mutex;
FaultHook g_hook;

struct EnvFault {
    long long at = 0;
    int err = EIO;
    bool crash = false;
    bool persist = false;
    std::string trace;
    std::atomic<long long> count{0};
};

EnvFault& env_fault() {
    static EnvFault* f = [] {
        auto* e = new EnvFault;
        if (const char* at = std::getenv("SAVEPOINT_FAULT_AT")) e->at = std::atoll(at);
        if (const char* er = std::getenv("SAVEPOINT_FAULT_ERRNO")) {
            std::string s = er;
            e->err = s == "ENOSPC" ? ENOSPC : s == "EROFS" ? EROFS : s == "EDQUOT" ? EDQUOT : EIO;
        }
        if (const char* m = std::getenv("SAVEPOINT_FAULT_MODE")) e->crash = std::string(m) == "crash";
        if (const char* p = std::getenv("SAVEPOINT_FAULT_PERSIST")) e->persist = std::string(p) == "1";
        if (const char* t = std::getenv("SAVEPOINT_FAULT_TRACE")) e->trace = t;
        return e;
    }();
    return *f;
}

}  // namespace

void set_fault_hook(FaultHook hook) {
    std::lock_guard<std::mutex> lock(g_hook_mutex);
    g_hook = std::move(hook);
}

int fault_point(const char* op, const std::string& path) {
    EnvFault& e = env_fault();
    if (e.at > 0 || !e.trace.empty()) {
        long long k = ++e.count;
        if (!e.trace.empty()) {
            if (FILE* f = std::fopen(e.trace.c_str(), "a")) {
                std::fprintf(f, "%lld %s %s\n", k, op, path.c_str());
                std::fclose(f);
            }
        }
        if (e.at > 0 && (k == e.at || (e.persist && k > e.at))) {
            if (e.crash) _exit(137);
            return e.err;
        }
    }
    std::lock_guard<std::mutex> lock(g_hook_mutex);
    return g_hook ? g_hook(op, path) : 0;
}

}  // namespace savepoint
