// A build without NCCL (Debian's LibTorch is CPU only): a job that trains on
// CUDA is refused when it joins, naming the device; CPU jobs use Gloo.
#include "distributed/collectives.h"

#include "platform/errors.h"

namespace savepoint {

bool nccl_built() { return false; }

std::unique_ptr<Collectives> make_nccl_collectives(const c10::intrusive_ptr<c10d::Store>&, int, int, int,
                                                   std::chrono::milliseconds) {
    throw InputError("device", "cpu for a data-parallel job with this build (its LibTorch has no NCCL)", "cuda");
}

}  // namespace savepoint
