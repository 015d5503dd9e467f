#include "checkpoint/snapshot_buffers.h"

#include "storage/stream_copy.h"

#include <cstring>

namespace savepoint {

void SnapshotBuffers::grow_to(std::size_t index) {
    if (index < buffers_.size()) return;
    buffers_.resize(index + 1);
    names_.resize(index + 1);
    owned_.resize(index + 1, false);
}

// Reallocated only when the shape or type changed (first capture, or Adam
// state appearing after step 1) or when the slot holds a live tensor from a
// copy-free capture.
torch::Tensor& SnapshotBuffers::owned_buffer(std::size_t index, c10::IntArrayRef sizes, c10::ScalarType type) {
    grow_to(index);
    torch::Tensor& dst = buffers_[index];
    if (!owned_[index] || !dst.defined() || dst.sizes() != sizes || dst.scalar_type() != type) {
        dst = torch::empty(sizes, torch::TensorOptions().dtype(type).device(torch::kCPU));
        owned_[index] = true;
    }
    return dst;
}

void SnapshotBuffers::copy_into(std::size_t index, const std::string& name, const torch::Tensor& src) {
    torch::Tensor& dst = owned_buffer(index, src.sizes(), src.scalar_type());
    names_[index] = name;
    if (laying_out_) {
        // Every page written once now, so that the first real capture faults none.
        std::memset(dst.data_ptr(), 0, dst.numel() * dst.element_size());
        return;
    }
    // Same type, contiguous, on the CPU: a plain memcpy, without copy_'s
    // dispatch and TensorIterator set-up for what is one block of bytes.
    if (src.device().is_cpu() && src.is_contiguous())
        copy_streaming(dst.data_ptr(), src.data_ptr(), src.numel() * src.element_size());
    else
        dst.copy_(src.detach());
}

// No temporary tensor per capture (torch::tensor costs a dispatch and an allocation).
void SnapshotBuffers::copy_scalar_into(std::size_t index, const std::string& name, std::int64_t value) {
    torch::Tensor& dst = owned_buffer(index, {}, torch::kInt64);
    *dst.data_ptr<std::int64_t>() = value;
    names_[index] = name;
}

void SnapshotBuffers::keep_live(std::size_t index, const std::string& name, const torch::Tensor& live) {
    grow_to(index);
    buffers_[index] = live.detach();  // an alias of the live storage, which the frozen optimizer leaves alone
    owned_[index] = false;
    names_[index] = name;
}

void SnapshotBuffers::resize(std::size_t count) {
    buffers_.resize(count);
    names_.resize(count);
    owned_.resize(count);
}

}  // namespace savepoint
