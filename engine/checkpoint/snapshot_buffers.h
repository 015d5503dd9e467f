// The slots of a state snapshot: one named CPU tensor each, the snapshot's
// own buffer reused from one capture to the next (allocated only when a shape
// or type changes), or a live tensor a copy-free capture keeps.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace savepoint {

class SnapshotBuffers {
public:
    // Copies `src` into the reused buffer at `index`. While laying out
    // (set_laying_out), only makes the buffer and writes every page once.
    void copy_into(std::size_t index, const std::string& name, const torch::Tensor& src);
    // Writes a step count into the reused 0-d int64 buffer at `index`.
    void copy_scalar_into(std::size_t index, const std::string& name, std::int64_t value);
    // Keeps the live tensor itself (a copy-free capture; the optimizer is frozen).
    void keep_live(std::size_t index, const std::string& name, const torch::Tensor& live);
    // Drops the slots from `count` on (what the last capture did not fill).
    void resize(std::size_t count);
    // The first capture in the loop must allocate nothing (StateSnapshot::reserve).
    void set_laying_out(bool on) { laying_out_ = on; }
    bool laying_out() const { return laying_out_; }

    std::size_t size() const { return buffers_.size(); }
    const torch::Tensor& at(std::size_t index) const { return buffers_[index]; }
    const std::string& name(std::size_t index) const { return names_[index]; }

private:
    void grow_to(std::size_t index);
    torch::Tensor& owned_buffer(std::size_t index, c10::IntArrayRef sizes, c10::ScalarType type);

    std::vector<std::string> names_;
    std::vector<torch::Tensor> buffers_;  // CPU, contiguous
    std::vector<bool> owned_;             // false: a live tensor kept by a copy-free capture, never written here
    bool laying_out_ = false;
};

}  // namespace savepoint
