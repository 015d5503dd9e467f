#include "distributed/job_state.h"

#include "checkpoint/state_snapshot.h"
#include "formats/checkpoint_format.h"
#include "platform/errors.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <mutex>
#include <vector>

namespace savepoint {

namespace {

std::string to_hex(const torch::Tensor& bytes) {
    static const char digits[] = "0123456789abcdef";
    const torch::Tensor b = bytes.contiguous();
    const auto* p = b.data_ptr<std::uint8_t>();
    std::string s;
    s.reserve(static_cast<std::size_t>(b.numel()) * 2);
    for (std::int64_t i = 0; i < b.numel(); ++i) {
        s.push_back(digits[p[i] >> 4]);
        s.push_back(digits[p[i] & 15]);
    }
    return s;
}

torch::Tensor from_hex(const std::string& s) {
    torch::Tensor t = torch::empty({static_cast<std::int64_t>(s.size() / 2)}, torch::kUInt8);
    auto* p = t.data_ptr<std::uint8_t>();
    for (std::size_t i = 0; i + 1 < s.size(); i += 2)
        p[i / 2] = static_cast<std::uint8_t>(std::stoi(s.substr(i, 2), nullptr, 16));
    return t;
}

// What a rank's dropout draws from: the CPU's generator, and its GPU's (the
// current device: ProcessGroup::join made it the rank's) when it has one.
std::vector<at::Generator> rank_generators() {
    std::vector<at::Generator> g{at::globalContext().defaultGenerator(c10::Device(c10::kCPU))};
    if (torch::cuda::is_available()) g.push_back(at::globalContext().defaultGenerator(c10::Device(c10::kCUDA)));
    return g;
}

// "CPU" or "CPU:CUDA", each generator's state in hex.
std::string rng_hex() {
    std::string s;
    for (auto& gen : rank_generators()) {
        std::lock_guard<std::mutex> lock(gen.mutex());
        s += (s.empty() ? "" : ":") + to_hex(gen.get_state());
    }
    return s;
}

void set_rng_hex(const std::string& hex) {
    std::size_t at = 0;
    for (auto& gen : rank_generators()) {
        if (at > hex.size()) break;  // saved without a GPU's: that generator keeps its seed
        const std::size_t end = std::min(hex.find(':', at), hex.size());
        std::lock_guard<std::mutex> lock(gen.mutex());
        gen.set_state(from_hex(hex.substr(at, end - at)));
        at = end + 1;
    }
}

// Rank r's own stream in a new run: dropout masks must differ between ranks,
// and stay a pure function of (seed, rank).
void seed_rank_stream(std::uint64_t seed, int rank) {
    for (auto& gen : rank_generators()) {
        std::lock_guard<std::mutex> lock(gen.mutex());
        gen.set_current_seed(seed * 1000003ULL + static_cast<std::uint64_t>(rank));
    }
}

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot be read to send it to the other workers");
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

void send_job_start(ProcessGroup& group, const JobStart& start) {
    const nlohmann::json j{{"start", start.start_global_step},
                           {"target", start.target_global_step},
                           {"lr", start.lr},
                           {"checkpoint", !start.checkpoint_path.empty()}};
    // The bytes first: a rank that reads "start" may then ask for them at once.
    if (!start.checkpoint_path.empty()) group.set("start/checkpoint", read_bytes(start.checkpoint_path));
    group.set("start", j.dump());
}

JobStart receive_job_start(ProcessGroup& group, torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                           std::uint64_t seed, std::string* note) {
    const nlohmann::json j = nlohmann::json::parse(group.get("start"));
    JobStart s;
    s.start_global_step = j.at("start").get<std::int64_t>();
    s.target_global_step = j.at("target").get<std::int64_t>();
    s.lr = j.at("lr").get<double>();
    if (!j.at("checkpoint").get<bool>()) {
        seed_rank_stream(seed, group.rank());
        return s;
    }
    const std::string raw = group.get("start/checkpoint");
    const std::vector<std::uint8_t> bytes(raw.begin(), raw.end());
    CheckpointContents contents;
    const std::string name = "rank 0's checkpoint at global step " + std::to_string(s.start_global_step);
    const VerifyResult v = verify_checkpoint_bytes(bytes, name, &contents);
    if (!v.ok) throw CorruptCheckpoint(v.error);
    restore_state(contents, model, optimizer, name);
    const std::string me = std::to_string(group.rank());
    const nlohmann::json ranks = contents.meta.value(kRankRngKey, nlohmann::json::object());
    if (ranks.contains(me)) {
        set_rng_hex(ranks.at(me).get<std::string>());
    } else {
        // Saved by a job of another size (or a single process): the data position is
        // kept, this rank's dropout stream starts afresh, and the bits differ.
        seed_rank_stream(seed + static_cast<std::uint64_t>(s.start_global_step), group.rank());
        if (note)
            *note = "warning: the checkpoint holds no RNG state for rank " + me +
                    " (saved by a job of another world size); this rank's dropout stream starts afresh, so the "
                    "result will not be bit-identical to an uninterrupted run";
    }
    return s;
}

void publish_rng_state(ProcessGroup& group, std::int64_t gs) {
    group.set("rng/" + std::to_string(group.rank()) + "/" + std::to_string(gs), rng_hex());
}

nlohmann::json gather_rng_states(ProcessGroup& group, std::int64_t gs, const std::function<bool()>& stopping) {
    nlohmann::json out = nlohmann::json::object();
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 1; r < group.world_size(); ++r) {
        const std::string key = "rng/" + std::to_string(r) + "/" + std::to_string(gs);
        // In slices: a worker killed before it reached this save never sends its state.
        while (!group.wait_for(key, std::chrono::milliseconds(250))) {
            const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if ((stopping() && waited > 2) || waited * 1000 > static_cast<double>(store_timeout().count()))
                throw WorkerLost("worker " + std::to_string(r) + " sent no state for the checkpoint at global step " +
                                 std::to_string(gs));
        }
        out[std::to_string(r)] = group.get(key);
        group.erase(key);
    }
    return out;
}

}  // namespace savepoint
