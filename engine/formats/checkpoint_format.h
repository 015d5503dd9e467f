// The checkpoint file: one self-describing file with a checksum.
//
//   header   "SVPTCKPT" | u32 version | u32 flags | u64 meta_len | u64 tensor_count   (32 bytes)
//   meta     JSON, meta_len bytes (run, checkpoint id, position, config, metrics, params_sha256)
//   tensors  tensor_count records: u32 name_len | name | u8 dtype | u8 ndim | u16 0 |
//            i64 dims[ndim] | u64 nbytes | raw bytes (little-endian, contiguous)
//   footer   u64 total_len | checksum (32 bytes) | "SVPTEND!"  (48 bytes)
//
// The checksum (the registry's sha256) is built from SHA-256 in two ways:
//   version 1 (read only): SHA-256 of everything before the footer;
//   version 2 (written):   SHA-256( "savepoint-ckpt-2" | SHA-256(header, meta)
//                                  | SHA-256(body[0, m)) | SHA-256(body[m, end)) ),
//   where the body is the tensor records and m = 64 * floor(body_len / 128).
// One SHA-256 is a chain, one block after the other; the two halves of
// version 2 are hashed side by side on one core (sha256_streams.h), along with
// the parameters' own hash, which shortens a save's hashing (docs/PERFORMANCE.md,
// checkpoint format). Any change to any byte still changes the checksum.
//
// Readers check the footer and the checksum before parsing anything else
// (version 2 needs the header's meta length first, bounds-checked), and the
// parser bounds-checks every field, so a damaged file is refused, never
// half-loaded. No LibTorch parser ever sees unverified bytes.
#pragma once

#include "storage/sha256_streams.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace savepoint {

constexpr std::uint32_t kCheckpointFormatVersion = 2;        // written
constexpr std::uint32_t kOldestCheckpointFormatVersion = 1;  // still read
constexpr std::size_t kCheckpointHeaderBytes = 32;
constexpr std::size_t kCheckpointFooterBytes = 48;

enum class DType : std::uint8_t { F32 = 0, F64 = 1, I64 = 2, U8 = 3, I32 = 4, F16 = 5, BF16 = 6 };
std::size_t dtype_size(DType t);

// A tensor as plain bytes, so this layer needs no LibTorch.
struct RawTensor {
    std::string name;
    DType dtype = DType::F32;
    std::vector<std::int64_t> dims;
    const std::uint8_t* data = nullptr;  // borrowed when writing; points into `storage` when read
    std::uint64_t nbytes = 0;
};

struct CheckpointContents {
    nlohmann::json meta;
    std::vector<RawTensor> tensors;
};

// Exact size of the file that write_checkpoint produces.
std::uint64_t checkpoint_file_size(const std::string& meta_json, const std::vector<RawTensor>& tensors);

// Streams the file through `sink` (called with consecutive chunks) and returns
// the checksum (hex) written into the footer.
std::string write_checkpoint(const std::string& meta_json, const std::vector<RawTensor>& tensors,
                             const std::function<void(const void*, std::size_t)>& sink);

// The same file as write_checkpoint, byte for byte, written in another order
// so that the disk can flush the tensors while they are hashed:
//   1. the tensor records, at their final offsets (after a meta of `meta_bytes`);
//   2. `tensors_written()` (if set): the caller may start flushing them;
//   3. `final_meta()`: the meta, which may now name hashes computed in the
//      meantime, and must be exactly `meta_bytes` long (logic_error if not);
//   4. the checksum, then header, meta and footer.
// `seek` moves where `write` writes. Returns the checksum (hex). `side_hash`
// (optional): more bytes to hash alongside the tensors (the parameters' own
// SHA-256); its digest is filled in before `final_meta()` is called.
struct PositionedSink {
    std::function<void(std::uint64_t offset)> seek;
    std::function<void(const void*, std::size_t)> write;
    std::function<void()> tensors_written;
};
std::string write_checkpoint_tensors_first(std::size_t meta_bytes, const std::vector<RawTensor>& tensors,
                                           const std::function<std::string()>& final_meta, const PositionedSink& sink,
                                           Sha256Stream* side_hash = nullptr);

struct VerifyResult {
    bool ok = false;
    std::string error;  // what failed, with expected and found values
    std::uint64_t bytes = 0;
    std::string sha256;   // from the footer, when readable
    nlohmann::json meta;  // when ok
};

// Checks length, footer, SHA-256 and structure of bytes already in memory.
// `name` is used in messages. On success `out` (if given) holds the parsed
// contents with tensor data pointing into `bytes`.
VerifyResult verify_checkpoint_bytes(const std::vector<std::uint8_t>& bytes, const std::string& name,
                                     CheckpointContents* out = nullptr);

// Reads the file and verifies it. `expected_sha256` (if not empty) must match too.
VerifyResult verify_checkpoint_file(const std::string& path, const std::string& expected_sha256 = {},
                                    std::vector<std::uint8_t>* keep_bytes = nullptr, CheckpointContents* out = nullptr);

// Cheap check used at every registry open: size and footer (magic, length, hash) only.
VerifyResult check_checkpoint_footer(const std::string& path, const std::string& expected_sha256 = {});

// Parses structure without checking the hash (used by the fuzzer and by
// verify_checkpoint_bytes after the hash matched). Throws CorruptCheckpoint.
CheckpointContents parse_checkpoint_body(const std::uint8_t* data, std::size_t size, const std::string& name);

}  // namespace savepoint
