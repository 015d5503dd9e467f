// Copying a snapshot without pulling it into the training core's caches.
//
// A copying capture writes ~5 MB (mlp's parameters and Adam moments) into the
// snapshot's buffers, which only the I/O thread reads afterwards, from its own
// core. Ordinary stores first read each destination line into this core's
// caches (a read for ownership), evicting the training loop's working set,
// and the next steps fetch it back. Non-temporal stores write whole lines
// straight to memory instead.
//
// Same bytes as memcpy; the stores are fenced before returning, so handing the
// buffer to another thread through a mutex publishes them as usual. Falls back
// to memcpy for small copies and where the instruction set has no such stores.
#pragma once

#include <cstddef>

namespace savepoint {

void copy_streaming(void* dst, const void* src, std::size_t bytes);

// The same stores for a copy of any size, unfenced: for many small pieces
// whose source was just computed and is still in L1 (FusedAdam's update
// copying its results into a snapshot chunk by chunk). Call stream_fence()
// after the last piece, on the same thread, before the buffer is handed over.
void copy_streaming_unfenced(void* dst, const void* src, std::size_t bytes);
void stream_fence();

}  // namespace savepoint
