#include "checkpoint/capture_way.h"

#include "model/fused_adam.h"

namespace savepoint {

void CopyFreeCapture::take(SnapshotBuffers& buffers, std::size_t index, const std::string& name,
                           const torch::Tensor& live) const {
    buffers.keep_live(index, name, live);
}

// Last: from here on the optimizer's next step leaves the kept tensors alone.
void CopyFreeCapture::taken(torch::optim::Optimizer& optimizer) const { static_cast<FusedAdam&>(optimizer).freeze(); }

bool CopyFreeCapture::reserve(torch::optim::Optimizer& optimizer) const {
    static_cast<FusedAdam&>(optimizer).reserve_spares();
    return true;
}

void CopyingCapture::take(SnapshotBuffers& buffers, std::size_t index, const std::string& name,
                          const torch::Tensor& live) const {
    buffers.copy_into(index, name, live);
}

}  // namespace savepoint
