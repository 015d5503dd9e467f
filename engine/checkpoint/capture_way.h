// How a capture takes the state only the optimizer step writes (parameters,
// Adam's moments, SGD's momentum): the one thing the capture modes differ in
// (CaptureMode, trainer.h). Everything else a capture takes (step counts,
// module buffers, RNG states) is always copied.
#pragma once

#include "checkpoint/snapshot_buffers.h"

#include <torch/torch.h>

#include <string>

namespace savepoint {

class CaptureWay {
public:
    virtual ~CaptureWay() = default;
    virtual bool copy_free() const = 0;
    // Puts the live tensor into slot `index`.
    virtual void take(SnapshotBuffers& buffers, std::size_t index, const std::string& name,
                      const torch::Tensor& live) const = 0;
    // Once every tensor is taken.
    virtual void taken(torch::optim::Optimizer&) const {}
    // Before training: makes what this way's first capture would allocate. False:
    // nothing of its own, the snapshot's buffers are to be laid out instead.
    virtual bool reserve(torch::optim::Optimizer&) const { return false; }
};

// Keeps the live tensors and freezes the optimizer, whose next step writes
// into spares (FusedAdam on the CPU, where FusedAdam::can_freeze says so).
class CopyFreeCapture final : public CaptureWay {
public:
    bool copy_free() const override { return true; }
    void take(SnapshotBuffers& buffers, std::size_t index, const std::string& name,
              const torch::Tensor& live) const override;
    void taken(torch::optim::Optimizer& optimizer) const override;
    bool reserve(torch::optim::Optimizer& optimizer) const override;
};

// Copies them into the snapshot's own buffers on the training thread.
class CopyingCapture final : public CaptureWay {
public:
    bool copy_free() const override { return false; }
    void take(SnapshotBuffers& buffers, std::size_t index, const std::string& name,
              const torch::Tensor& live) const override;
};

}  // namespace savepoint
