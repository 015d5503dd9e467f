#include "distributed/world_env.h"

#include "platform/errors.h"

#include <cerrno>
#include <cstdlib>

namespace savepoint {

namespace {

// An environment variable is not a flag: said as "RANK: expected …, found …", without the dashes.
InputError env_error(const std::string& name, const std::string& expected, const std::string& found) {
    return InputError("environment variable " + name + ": expected " + expected + ", found " + found);
}

// A whole decimal number in [lo, hi], else an InputError naming the variable.
long read_number(const EnvLookup& get, const char* name, long lo, long hi, const std::string& expected,
                 std::optional<long> fallback = std::nullopt) {
    const char* v = get(name);
    if (!v || !*v) {
        if (fallback) return *fallback;
        throw env_error(name, expected + " (torchrun sets it)", "it unset");
    }
    errno = 0;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0') throw env_error(name, expected, "'" + std::string(v) + "'");
    if (n < lo || n > hi) throw env_error(name, expected, std::to_string(n));
    return n;
}

}  // namespace

std::optional<WorldEnv> read_world_env(const EnvLookup& lookup) {
    const EnvLookup get = lookup ? lookup : [](const char* n) -> const char* { return std::getenv(n); };
    const char* rank = get("RANK");
    const char* world = get("WORLD_SIZE");
    if ((!rank || !*rank) && (!world || !*world)) return std::nullopt;
    WorldEnv w;
    w.world_size = static_cast<int>(read_number(get, "WORLD_SIZE", 1, 1 << 20, "a number of workers, 1 or more"));
    w.rank = static_cast<int>(read_number(get, "RANK", 0, w.world_size - 1,
                                          "a rank from 0 to " + std::to_string(w.world_size - 1) + " (WORLD_SIZE is " +
                                              std::to_string(w.world_size) + ")"));
    w.local_rank = static_cast<int>(read_number(get, "LOCAL_RANK", 0, 1 << 20, "a number, 0 or more", 0));
    const char* addr = get("MASTER_ADDR");
    if (!addr || !*addr) throw env_error("MASTER_ADDR", "rank 0's host name or address (torchrun sets it)", "it unset");
    w.master_addr = addr;
    w.master_port = static_cast<std::uint16_t>(read_number(get, "MASTER_PORT", 1, 65535, "a TCP port from 1 to 65535"));
    w.restart_count = static_cast<int>(
        read_number(get, "TORCHELASTIC_RESTART_COUNT", 0, 1 << 30, "a number of restarts, 0 or more", 0));
    const char* agent = get("TORCHELASTIC_USE_AGENT_STORE");
    w.agent_store = agent && std::string(agent) == "True";
    return w;
}

}  // namespace savepoint
