// libFuzzer target: the checkpoint reader. Torch-free.
// Feeds the bytes (1) to parse_checkpoint_body, (2) to verify_checkpoint_bytes
// as they are, and (3) as a version 1 file with a correct footer appended
// (length + SHA-256 + end magic), so the structural parser behind the checksum
// gets explored too.
#include "formats/checkpoint_format.h"
#include "platform/errors.h"
#include "storage/sha256.h"

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        auto c = savepoint::parse_checkpoint_body(data, size, "fuzz");
        for (const auto& t : c.tensors)
            if (t.data < data || t.data + t.nbytes > data + size) __builtin_trap();
    } catch (const savepoint::CorruptCheckpoint&) {
    }
    std::vector<std::uint8_t> bytes(data, data + size);
    savepoint::VerifyResult v = savepoint::verify_checkpoint_bytes(bytes, "fuzz");
    if (!v.ok && v.error.empty()) __builtin_trap();  // every refusal says why

    // The same body with a valid footer: a version 1 one (plain SHA-256), so the
    // header says version 1. (2) above covers version 2's checksum, which reads
    // the meta length before it can hash; the parser behind either is the same.
    if (size >= 12) {
        const std::uint32_t one = 1;
        std::memcpy(bytes.data() + 8, &one, 4);
    }
    savepoint::Sha256 h;
    h.update(bytes.data(), size);
    auto digest = h.finish();
    std::uint64_t total = size + savepoint::kCheckpointFooterBytes;
    bytes.resize(size + savepoint::kCheckpointFooterBytes);
    std::memcpy(bytes.data() + size, &total, 8);
    std::memcpy(bytes.data() + size + 8, digest.data(), 32);
    std::memcpy(bytes.data() + size + 40, "SVPTEND!", 8);
    savepoint::CheckpointContents contents;
    v = savepoint::verify_checkpoint_bytes(bytes, "fuzz", &contents);
    if (!v.ok && v.error.empty()) __builtin_trap();
    if (v.ok)
        for (const auto& t : contents.tensors)
            if (t.data < bytes.data() || t.data + t.nbytes > bytes.data() + bytes.size()) __builtin_trap();
    return 0;
}
