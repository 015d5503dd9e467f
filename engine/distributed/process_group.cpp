#include "distributed/process_group.h"

#include "distributed/collectives.h"
#include "platform/errors.h"
#include "platform/planted_bugs.h"

#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <csignal>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <optional>
#include <thread>

namespace savepoint {

struct ProcessGroup::Impl {
    c10::intrusive_ptr<c10d::Store> store;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> gloo;  // a CPU job's collectives
    std::unique_ptr<Collectives> nccl;                // a CUDA job's
};

namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string endpoint(const WorldEnv& env) { return env.master_addr + ":" + std::to_string(env.master_port); }

// TCPStore's own error for a taken port comes only after its whole timeout, worded
// for a developer: a plain bind first says it at once.
bool port_free(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return true;  // cannot tell: let the store try
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

bool is_loopback(const std::string& host) { return host == "localhost" || host.rfind("127.", 0) == 0; }

std::shared_ptr<::gloo::transport::Device> gloo_device(const WorldEnv& env) {
    // One machine: loopback, whatever the host's name resolves to. Several: the
    // interface GLOO_SOCKET_IFNAME names, else the one the host name resolves to.
    if (is_loopback(env.master_addr)) return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
    if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname)
        return c10d::ProcessGroupGloo::createDeviceForInterface(ifname);
    return c10d::ProcessGroupGloo::createDefaultDevice();
}

std::string worker_json(int rank) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return nlohmann::json{{"rank", rank}, {"host", host}, {"pid", static_cast<std::int64_t>(::getpid())}}.dump();
}

std::string seconds_text(std::chrono::milliseconds t) { return std::to_string(t.count() / 1000) + " s"; }

// Rank 0 compares every rank's hash with its own; the others compare rank 0's.
// A refusal is said only once every rank has read what it needs: rank 0 leaving
// at once would take the store with it, and the others would see a broken pipe
// instead of the two hashes.
void check_same_config(c10d::Store& store, const WorldEnv& env, const std::string& config_hash,
                       std::chrono::milliseconds timeout) {
    std::optional<InputError> refusal;
    for (int r = 0; r < env.world_size; ++r) {
        if (r == env.rank || (env.rank != 0 && r != 0)) continue;  // rank 0 checks all; the others check rank 0
        std::vector<std::uint8_t> theirs;
        try {
            theirs = store.get("config/" + std::to_string(r));
        } catch (const std::exception& e) {
            if (env.rank != 0)  // something answered there, but not rank 0's store
                throw InputError("environment variables MASTER_ADDR and MASTER_PORT: expected rank 0's store at " +
                                 endpoint(env) + ", found no answer from rank 0 there within " + seconds_text(timeout) +
                                 " (" + first_line(e.what()) + ")");
            throw InputError("environment variable WORLD_SIZE: expected " + std::to_string(env.world_size) +
                             " workers to join " + endpoint(env) + ", found rank " + std::to_string(r) +
                             " missing after " + seconds_text(timeout) + " (" + first_line(e.what()) + ")");
        }
        const std::string h(theirs.begin(), theirs.end());
        if (h != config_hash)
            refusal = InputError("config: expected the same settings on every worker, found config hash " +
                                 config_hash + " on rank " + std::to_string(env.rank) + " and " + h + " on rank " +
                                 std::to_string(r) + " (give every worker the same command line)");
    }
    store.add("config/checked", 1);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (env.rank == 0 && store.add("config/checked", 0) < env.world_size &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (refusal) throw *refusal;
}

}  // namespace

std::chrono::milliseconds store_timeout() {
    const char* v = std::getenv("SAVEPOINT_STORE_TIMEOUT");
    const double s = v && *v ? std::atof(v) : 30.0;
    if (!(s > 0))
        throw InputError("environment variable SAVEPOINT_STORE_TIMEOUT: expected seconds, more than 0, found '" +
                         std::string(v) + "'");
    return std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000));
}

ProcessGroup::ProcessGroup(WorldEnv env, std::unique_ptr<Impl> impl) : env_(std::move(env)), impl_(std::move(impl)) {}
ProcessGroup::~ProcessGroup() = default;

std::shared_ptr<ProcessGroup> ProcessGroup::join(const WorldEnv& env, const std::string& config_hash,
                                                 std::chrono::milliseconds timeout, bool cuda) {
    // Refused before anything is served or joined: a CUDA job needs NCCL.
    if (cuda && !nccl_built()) make_nccl_collectives({}, env.rank, env.world_size, env.local_rank, timeout);
    // Gloo sends with writev(), which raises SIGPIPE on a socket its peer has closed: a lost worker
    // must reach us as WorkerLost, not end this process before it records the loss.
    if (!planted_bug(PlantedBug::PeerLossKills)) std::signal(SIGPIPE, SIG_IGN);
    auto impl = std::make_unique<Impl>();
    const bool serves = env.rank == 0 && !env.agent_store;
    if (serves && !port_free(env.master_port))
        throw InputError("environment variable MASTER_PORT: expected a free port for rank 0's store, found " +
                         std::to_string(env.master_port) + " in use (another job, or an earlier one still running?)");
    c10d::TCPStoreOptions o;
    o.port = env.master_port;
    o.isServer = serves;
    o.numWorkers = env.world_size;
    o.waitWorkers = false;  // the config check below waits, and says who is missing
    o.timeout = timeout;
    try {
        impl->store = c10::make_intrusive<c10d::TCPStore>(env.master_addr, o);
        // torchrun's store outlives a restart: each attempt keeps to its own keys, as PyTorch's workers do.
        if (env.agent_store)
            impl->store = c10::make_intrusive<c10d::PrefixStore>("/worker/attempt_" + std::to_string(env.restart_count),
                                                                 impl->store);
    } catch (const std::exception& e) {
        throw InputError("environment variables MASTER_ADDR and MASTER_PORT: expected rank 0's store at " +
                         endpoint(env) + ", found nothing reachable there within " + seconds_text(timeout) + " (" +
                         first_line(e.what()) + ")");
    }
    // The same settings on every rank, or no job: a worker with another config
    // would train something else with the same gradients.
    const std::string mine = "config/" + std::to_string(env.rank);
    const std::string me = worker_json(env.rank);
    impl->store->set("worker/" + std::to_string(env.rank), std::vector<std::uint8_t>(me.begin(), me.end()));
    impl->store->set(mine, std::vector<std::uint8_t>(config_hash.begin(), config_hash.end()));
    check_same_config(*impl->store, env, config_hash, timeout);
    if (cuda) {
        impl->nccl = make_nccl_collectives(impl->store, env.rank, env.world_size, env.local_rank, timeout);
    } else {
        auto opts = c10d::ProcessGroupGloo::Options::create();
        opts->devices.push_back(gloo_device(env));
        opts->timeout = std::chrono::minutes(10);  // a peer that died is seen at once; this is for a stuck one
        impl->gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(impl->store, env.rank, env.world_size, opts);
    }
    // Rank 0 records them all: each rank set its own before its config hash, which rank 0 has read.
    std::string workers = "[";
    if (env.rank != 0) workers += me;
    for (int r = 0; env.rank == 0 && r < env.world_size; ++r) {
        const std::vector<std::uint8_t> w = impl->store->get("worker/" + std::to_string(r));
        workers += (r ? "," : "") + std::string(w.begin(), w.end());
    }
    auto group = std::shared_ptr<ProcessGroup>(new ProcessGroup(env, std::move(impl)));
    group->workers_ = workers + "]";
    return group;
}

namespace {

// The transport's error, its first line (LibTorch appends a C++ backtrace), as WorkerLost.
template <class F>
void collective(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        const std::string what = e.what();
        throw WorkerLost(what.substr(0, what.find('\n')));
    }
}

}  // namespace

void ProcessGroup::allreduce_sum(torch::Tensor& t) {
    collective([&] {
        if (impl_->nccl) return impl_->nccl->allreduce_sum(t);
        std::vector<torch::Tensor> v{t};
        impl_->gloo->allreduce(v)->wait();
    });
}

void ProcessGroup::broadcast(torch::Tensor& t, int root) {
    collective([&] {
        if (impl_->nccl) return impl_->nccl->broadcast(t, root);
        std::vector<torch::Tensor> v{t};
        c10d::BroadcastOptions o;
        o.rootRank = root;
        impl_->gloo->broadcast(v, o)->wait();
    });
}

void ProcessGroup::barrier() {
    collective([&] {
        if (impl_->nccl) return impl_->nccl->barrier();
        impl_->gloo->barrier()->wait();
    });
}

void ProcessGroup::set(const std::string& key, const std::string& value) {
    impl_->store->set(key, std::vector<std::uint8_t>(value.begin(), value.end()));
}

std::string ProcessGroup::get(const std::string& key) {
    const std::vector<std::uint8_t> v = impl_->store->get(key);
    return std::string(v.begin(), v.end());
}

bool ProcessGroup::wait_for(const std::string& key, std::chrono::milliseconds timeout) {
    try {
        impl_->store->wait({key}, timeout);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

void ProcessGroup::erase(const std::string& key) { impl_->store->deleteKey(key); }

}  // namespace savepoint
