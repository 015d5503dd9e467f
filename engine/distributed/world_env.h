// The job a worker belongs to, as torchrun (or a user) describes it in the
// environment: RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT and
// TORCHELASTIC_RESTART_COUNT. Read once, at start, before anything is opened.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace savepoint {

struct WorldEnv {
    int rank = 0;
    int world_size = 1;
    int local_rank = 0;
    std::string master_addr;
    std::uint16_t master_port = 0;
    int restart_count = 0;  // TORCHELASTIC_RESTART_COUNT: > 0 after torchrun restarted the workers
    // TORCHELASTIC_USE_AGENT_STORE=True (torchrun's static rendezvous): torchrun's agent
    // already serves the store on MASTER_PORT, and every rank is its client.
    bool agent_store = false;
};

// Reads one variable; nullptr: unset. Tests pass their own.
using EnvLookup = std::function<const char*(const char*)>;

// nullopt when neither RANK nor WORLD_SIZE is set (a single process). Throws
// InputError naming the variable, what was expected and what was found: one of
// RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT missing, a non-number, WORLD_SIZE < 1,
// RANK outside 0..WORLD_SIZE-1, a port outside 1..65535.
std::optional<WorldEnv> read_world_env(const EnvLookup& get = {});

}  // namespace savepoint
