// c10d's NCCL backend for a job that trains on CUDA, one GPU a worker. Compiled
// only with SAVEPOINT_HAVE_NCCL (a CUDA LibTorch with NCCL: engine/distributed/CMakeLists.txt);
// without it, nccl_none.cpp refuses a CUDA job at join.
#include "distributed/collectives.h"

#include "platform/errors.h"

#include <c10/cuda/CUDAFunctions.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include <string>
#include <vector>

namespace savepoint {

namespace {

class NcclCollectives : public Collectives {
public:
    explicit NcclCollectives(c10::intrusive_ptr<c10d::ProcessGroupNCCL> pg, int device)
        : pg_(std::move(pg)), device_(device) {}
    void allreduce_sum(torch::Tensor& t) override {
        std::vector<torch::Tensor> v{t};
        pg_->allreduce(v)->wait();
    }
    void broadcast(torch::Tensor& t, int root) override {
        std::vector<torch::Tensor> v{t};
        c10d::BroadcastOptions o;
        o.rootRank = root;
        pg_->broadcast(v, o)->wait();
    }
    // An all-reduce of one word on this GPU: NCCL's own barrier guesses the device.
    void barrier() override {
        torch::Tensor one = torch::ones({1}, torch::TensorOptions(torch::kFloat32).device(torch::kCUDA, device_));
        allreduce_sum(one);
        one.item<float>();  // waits for it
    }

private:
    c10::intrusive_ptr<c10d::ProcessGroupNCCL> pg_;
    int device_;
};

}  // namespace

bool nccl_built() { return true; }

std::unique_ptr<Collectives> make_nccl_collectives(const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                                                   int local_rank, std::chrono::milliseconds timeout) {
    const int gpus = static_cast<int>(c10::cuda::device_count());
    if (local_rank >= gpus)
        throw InputError("environment variable LOCAL_RANK: expected a GPU for each worker of this machine (0 to " +
                         std::to_string(gpus - 1) + "), found " + std::to_string(local_rank) +
                         " (fewer GPUs than workers on this machine)");
    // Before anything touches CUDA: this worker's default device, generator and streams are its GPU's.
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(local_rank));
    auto opts = c10d::ProcessGroupNCCL::Options::create();
    opts->timeout = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::minutes(10)) + timeout;
    return std::make_unique<NcclCollectives>(c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size, opts),
                                             local_rank);
}

}  // namespace savepoint
