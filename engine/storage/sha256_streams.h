// Several independent SHA-256 hashes computed together, two blocks at a time.
//
// One SHA-256 is a chain: each 64-byte block needs the state the previous one
// left, and the SHA-NI round instruction waits for its input longer than the
// unit takes to start another. Two streams interleaved keep it busier
// (docs/PERFORMANCE.md, SHA-256 streams; `bench_train --only hash` measures it),
// and a checkpoint save hashes three (the tensors' two halves and the model's
// parameters, checkpoint_format.h). OpenSSL offers no multi-stream
// SHA-256, hence this kernel; where the CPU has no SHA-NI, each stream goes
// through OpenSSL in turn instead. Either way the digests are plain SHA-256,
// checked against OpenSSL's in test_sha256_streams.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace savepoint {

// The bytes of one hash, possibly scattered: the ranges are hashed in order as
// if concatenated.
struct Sha256Stream {
    struct Range {
        const void* data;
        std::size_t size;
    };
    std::vector<Range> ranges;
    std::array<std::uint8_t, 32> digest{};  // out
};

enum class Sha256Engine { Auto, OpenSsl };

// Fills in every stream's digest. `engine`: OpenSsl forces the fallback (tests).
void sha256_streams(std::vector<Sha256Stream>& streams, Sha256Engine engine = Sha256Engine::Auto);

// True when sha256_streams runs streams in pairs on this CPU.
bool sha256_streams_use_sha_ni();

}  // namespace savepoint
