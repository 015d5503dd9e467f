// The collectives a data-parallel job runs, over whichever c10d backend its
// device needs: Gloo for CPU training (process_group.cpp), NCCL for CUDA
// (nccl_collectives.cpp, built only when LibTorch has CUDA and NCCL). LibTorch
// 1.13's ProcessGroupGloo and 2.x's backends share no base class, hence this one.
#pragma once

#include <torch/torch.h>

#include <torch/csrc/distributed/c10d/Store.hpp>

#include <chrono>
#include <memory>

namespace savepoint {

class Collectives {
public:
    virtual ~Collectives() = default;
    // In place, one tensor each; every rank calls them in the same order.
    virtual void allreduce_sum(torch::Tensor& t) = 0;
    virtual void broadcast(torch::Tensor& t, int root) = 0;
    virtual void barrier() = 0;
};

// True when this build has the NCCL backend (LibTorch with CUDA and NCCL).
bool nccl_built();

// This worker's GPU is `local_rank` (made the current device), its tensors'
// collectives go through NCCL, rendezvous through `store`. Throws InputError
// when the build has no NCCL or the machine has fewer GPUs than local ranks.
std::unique_ptr<Collectives> make_nccl_collectives(const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                                                   int local_rank, std::chrono::milliseconds timeout);

}  // namespace savepoint
