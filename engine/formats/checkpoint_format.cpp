#include "formats/checkpoint_format.h"

#include "platform/errors.h"
#include "platform/planted_bugs.h"
#include "storage/sha256.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace savepoint {
namespace {

const char kMagic[8] = {'S', 'V', 'P', 'T', 'C', 'K', 'P', 'T'};
const char kEndMagic[8] = {'S', 'V', 'P', 'T', 'E', 'N', 'D', '!'};

template <typename T>
void put(std::string& out, T v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <typename T>
T get(const std::uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

std::string tensor_record_header(const RawTensor& t) {
    std::string h;
    put<std::uint32_t>(h, static_cast<std::uint32_t>(t.name.size()));
    h += t.name;
    put<std::uint8_t>(h, static_cast<std::uint8_t>(t.dtype));
    put<std::uint8_t>(h, static_cast<std::uint8_t>(t.dims.size()));
    put<std::uint16_t>(h, 0);
    for (auto d : t.dims) put<std::int64_t>(h, d);
    put<std::uint64_t>(h, t.nbytes);
    return h;
}

std::string file_header(const std::string& meta, std::size_t tensor_count) {
    std::string h(kMagic, 8);
    put<std::uint32_t>(h, kCheckpointFormatVersion);
    put<std::uint32_t>(h, 0);
    put<std::uint64_t>(h, meta.size());
    put<std::uint64_t>(h, tensor_count);
    return h;
}

// total: the bytes before the footer.
std::string file_footer(std::uint64_t total, const std::array<std::uint8_t, 32>& digest) {
    std::string footer;
    put<std::uint64_t>(footer, total + kCheckpointFooterBytes);
    footer.append(reinterpret_cast<const char*>(digest.data()), digest.size());
    footer.append(kEndMagic, 8);
    return footer;
}

// A tensor's bytes in 1 MiB pieces, so that each one's writeback starts
// before the next is handled.
template <typename Emit>
void for_each_piece(const RawTensor& t, const Emit& emit) {
    for (std::size_t done = 0; done < t.nbytes;) {
        const std::size_t n = std::min<std::size_t>(t.nbytes - done, 1 << 20);
        emit(t.data + done, n);
        done += n;
    }
}

using Range = Sha256Stream::Range;
using Digest = std::array<std::uint8_t, 32>;

const char kChecksumLabel[16] = {'s', 'a', 'v', 'e', 'p', 'o', 'i', 'n', 't', '-', 'c', 'k', 'p', 't', '-', '2'};

// Where version 2 splits the body: half of it, rounded down to whole SHA-256 blocks.
std::uint64_t body_split(std::uint64_t body_len) { return 64 * (body_len / 128); }

// The SHA-256s of the body's two halves (version 2), hashed side by side with
// `side` (if given), whose digest is filled in too.
std::pair<Digest, Digest> body_digests(const std::vector<Range>& body, Sha256Stream* side) {
    std::uint64_t len = 0;
    for (const auto& r : body) len += r.size;
    const std::uint64_t mid = body_split(len);
    std::vector<Sha256Stream> streams(side ? 3 : 2);
    std::uint64_t at = 0;
    for (const auto& r : body) {
        const std::size_t first = static_cast<std::size_t>(std::min<std::uint64_t>(r.size, mid > at ? mid - at : 0));
        if (first) streams[0].ranges.push_back({r.data, first});
        if (first < r.size)
            streams[1].ranges.push_back({static_cast<const std::uint8_t*>(r.data) + first, r.size - first});
        at += r.size;
    }
    if (side) streams[2].ranges = side->ranges;
    sha256_streams(streams);
    if (side) side->digest = streams[2].digest;
    return {streams[0].digest, streams[1].digest};
}

// Version 2's checksum from the head (header and meta) and the body's halves.
Digest checksum_v2(const std::vector<Range>& head, const std::pair<Digest, Digest>& body) {
    Sha256 h;
    for (const auto& r : head) h.update(r.data, r.size);
    const Digest head_digest = h.finish();
    Sha256 root;
    root.update(kChecksumLabel, sizeof kChecksumLabel);
    root.update(head_digest.data(), head_digest.size());
    root.update(body.first.data(), body.first.size());
    root.update(body.second.data(), body.second.size());
    return root.finish();
}

// The records as ranges: each record header, then its tensor's bytes.
std::vector<Range> body_ranges(const std::vector<std::string>& record_headers, const std::vector<RawTensor>& tensors) {
    std::vector<Range> body;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        body.push_back({record_headers[i].data(), record_headers[i].size()});
        body.push_back({tensors[i].data, static_cast<std::size_t>(tensors[i].nbytes)});
    }
    return body;
}

[[noreturn]] void corrupt(const std::string& name, const std::string& what) {
    throw CorruptCheckpoint(name + ": " + what);
}

std::string version_error(std::uint32_t found) {
    return "format version: expected " + std::to_string(kOldestCheckpointFormatVersion) + " to " +
           std::to_string(kCheckpointFormatVersion) + ", found " + std::to_string(found) +
           (found > kCheckpointFormatVersion ? " (written by a newer Savepoint?)" : "");
}

}  // namespace

std::size_t dtype_size(DType t) {
    switch (t) {
        case DType::F32:
        case DType::I32:
            return 4;
        case DType::F64:
        case DType::I64:
            return 8;
        case DType::U8:
            return 1;
        case DType::F16:
        case DType::BF16:
            return 2;
    }
    return 0;
}

std::uint64_t checkpoint_file_size(const std::string& meta_json, const std::vector<RawTensor>& tensors) {
    std::uint64_t n = kCheckpointHeaderBytes + meta_json.size() + kCheckpointFooterBytes;
    for (const auto& t : tensors) n += tensor_record_header(t).size() + t.nbytes;
    return n;
}

std::string write_checkpoint(const std::string& meta_json, const std::vector<RawTensor>& tensors,
                             const std::function<void(const void*, std::size_t)>& sink) {
    std::vector<std::string> record_headers;
    for (const auto& t : tensors) record_headers.push_back(tensor_record_header(t));
    const std::string h = file_header(meta_json, tensors.size());
    std::uint64_t total = h.size() + meta_json.size();
    sink(h.data(), h.size());
    sink(meta_json.data(), meta_json.size());
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        sink(record_headers[i].data(), record_headers[i].size());
        for_each_piece(tensors[i], sink);  // the disk works on each piece while the next is handed over
        total += record_headers[i].size() + tensors[i].nbytes;
    }
    const Digest digest = checksum_v2({{h.data(), h.size()}, {meta_json.data(), meta_json.size()}},
                                      body_digests(body_ranges(record_headers, tensors), nullptr));
    const std::string footer = file_footer(total, digest);
    sink(footer.data(), footer.size());
    return to_hex(digest.data(), digest.size());
}

std::string write_checkpoint_tensors_first(std::size_t meta_bytes, const std::vector<RawTensor>& tensors,
                                           const std::function<std::string()>& final_meta, const PositionedSink& sink,
                                           Sha256Stream* side_hash) {
    std::vector<std::string> record_headers;
    record_headers.reserve(tensors.size());
    for (const auto& t : tensors) record_headers.push_back(tensor_record_header(t));

    const std::uint64_t body_start = kCheckpointHeaderBytes + meta_bytes;
    std::uint64_t body_end = body_start;
    sink.seek(body_start);
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        sink.write(record_headers[i].data(), record_headers[i].size());
        for_each_piece(tensors[i], sink.write);
        body_end += record_headers[i].size() + tensors[i].nbytes;
    }
    if (sink.tensors_written) sink.tensors_written();

    // The body's halves and the side hash together, while the disk flushes the tensors.
    const auto body = body_digests(body_ranges(record_headers, tensors), side_hash);
    const std::string meta = final_meta();
    if (meta.size() != meta_bytes)
        throw std::logic_error("checkpoint meta changed length after the tensors were placed: " +
                               std::to_string(meta_bytes) + " -> " + std::to_string(meta.size()) + " bytes");
    const std::string header = file_header(meta, tensors.size());
    const Digest digest = checksum_v2({{header.data(), header.size()}, {meta.data(), meta.size()}}, body);
    sink.seek(0);
    sink.write(header.data(), header.size());
    sink.write(meta.data(), meta.size());
    sink.seek(body_end);
    const std::string footer = file_footer(body_end, digest);
    sink.write(footer.data(), footer.size());
    return to_hex(digest.data(), digest.size());
}

CheckpointContents parse_checkpoint_body(const std::uint8_t* data, std::size_t size, const std::string& name) {
    if (size < kCheckpointHeaderBytes + kCheckpointFooterBytes)
        corrupt(name, "file length: expected at least " +
                          std::to_string(kCheckpointHeaderBytes + kCheckpointFooterBytes) + " bytes, found " +
                          std::to_string(size));
    if (std::memcmp(data, kMagic, 8) != 0) corrupt(name, "header magic: expected SVPTCKPT, found other bytes");
    const auto version = get<std::uint32_t>(data + 8);
    if (version < kOldestCheckpointFormatVersion || version > kCheckpointFormatVersion)
        corrupt(name, version_error(version));
    const auto meta_len = get<std::uint64_t>(data + 16);
    const auto count = get<std::uint64_t>(data + 24);
    const std::size_t body_end = size - kCheckpointFooterBytes;
    std::size_t pos = kCheckpointHeaderBytes;
    if (meta_len > body_end - pos)
        corrupt(name, "meta length: " + std::to_string(meta_len) + " bytes runs past the end of the file");
    CheckpointContents c;
    try {
        c.meta = nlohmann::json::parse(data + pos, data + pos + meta_len);
    } catch (const nlohmann::json::exception& e) {
        corrupt(name, std::string("meta: expected JSON, found unparsable bytes (") + e.what() + ")");
    }
    if (!c.meta.is_object()) corrupt(name, "meta: expected a JSON object");
    pos += meta_len;
    if (count > 100000) corrupt(name, "tensor count: expected at most 100000, found " + std::to_string(count));
    // Negative control for the fuzzer (docs/RELIABILITY.md): no bounds checks on the records.
    const bool unchecked = planted_bug(PlantedBug::ParserNoBounds);
    for (std::uint64_t i = 0; i < count; ++i) {
        auto need = [&](std::size_t n, const char* field) {
            if (n > body_end - pos && !unchecked)
                corrupt(name, "tensor " + std::to_string(i) + " " + field + ": runs past the end of the file");
        };
        RawTensor t;
        need(4, "name length");
        const auto name_len = get<std::uint32_t>(data + pos);
        pos += 4;
        if (name_len > 4096) corrupt(name, "tensor " + std::to_string(i) + " name length: " + std::to_string(name_len));
        need(name_len, "name");
        t.name.assign(reinterpret_cast<const char*>(data + pos), name_len);
        pos += name_len;
        need(4, "type");
        const auto dtype = data[pos];
        const auto ndim = data[pos + 1];
        pos += 4;
        if (dtype > static_cast<std::uint8_t>(DType::BF16))
            corrupt(name, "tensor '" + t.name + "' dtype: expected 0..6, found " + std::to_string(dtype));
        t.dtype = static_cast<DType>(dtype);
        if (ndim > 8) corrupt(name, "tensor '" + t.name + "' rank: expected at most 8, found " + std::to_string(ndim));
        need(8u * ndim + 8, "dims");
        unsigned __int128 elements = 1;
        for (int d = 0; d < ndim; ++d) {
            auto v = get<std::int64_t>(data + pos);
            pos += 8;
            if (v < 0) corrupt(name, "tensor '" + t.name + "' dimension: negative (" + std::to_string(v) + ")");
            t.dims.push_back(v);
            elements *= static_cast<std::uint64_t>(v);
            if (elements > (1ull << 40)) corrupt(name, "tensor '" + t.name + "' is implausibly large");
        }
        t.nbytes = get<std::uint64_t>(data + pos);
        pos += 8;
        if (t.nbytes != static_cast<std::uint64_t>(elements) * dtype_size(t.dtype))
            corrupt(name, "tensor '" + t.name + "' byte count: expected " +
                              std::to_string(static_cast<std::uint64_t>(elements) * dtype_size(t.dtype)) + ", found " +
                              std::to_string(t.nbytes));
        need(t.nbytes, "data");
        t.data = data + pos;
        pos += t.nbytes;
        c.tensors.push_back(std::move(t));
    }
    if (pos != body_end)
        corrupt(name, "body length: expected " + std::to_string(body_end) + " bytes before the footer, found " +
                          std::to_string(pos));
    return c;
}

VerifyResult verify_checkpoint_bytes(const std::vector<std::uint8_t>& bytes, const std::string& name,
                                     CheckpointContents* out) {
    VerifyResult r;
    r.bytes = bytes.size();
    if (bytes.size() < kCheckpointHeaderBytes + kCheckpointFooterBytes) {
        r.error = name + ": truncated: " + std::to_string(bytes.size()) + " bytes, a checkpoint has at least " +
                  std::to_string(kCheckpointHeaderBytes + kCheckpointFooterBytes);
        return r;
    }
    const std::uint8_t* footer = bytes.data() + bytes.size() - kCheckpointFooterBytes;
    if (std::memcmp(footer + 40, kEndMagic, 8) != 0) {
        r.error = name + ": footer magic: expected SVPTEND!, found other bytes (truncated or damaged)";
        return r;
    }
    const auto total = get<std::uint64_t>(footer);
    r.sha256 = to_hex(footer + 8, 32);
    if (total != bytes.size()) {
        r.error = name + ": length: footer says " + std::to_string(total) + " bytes, file has " +
                  std::to_string(bytes.size());
        return r;
    }
    // The checksum before anything else is believed; version 2 needs the meta length to find the body.
    const std::size_t body_end = bytes.size() - kCheckpointFooterBytes;
    const auto version = get<std::uint32_t>(bytes.data() + 8);
    Digest d{};
    if (version == 1) {
        Sha256 h;
        h.update(bytes.data(), body_end);
        d = h.finish();
    } else if (version == 2) {
        const auto meta_len = get<std::uint64_t>(bytes.data() + 16);
        if (meta_len > body_end - kCheckpointHeaderBytes) {
            r.error = name + ": meta length: " + std::to_string(meta_len) + " bytes runs past the end of the file";
            return r;
        }
        const std::size_t body_start = kCheckpointHeaderBytes + static_cast<std::size_t>(meta_len);
        d = checksum_v2({{bytes.data(), body_start}},
                        body_digests({{bytes.data() + body_start, body_end - body_start}}, nullptr));
    } else {
        r.error = name + ": " + version_error(version);
        return r;
    }
    std::string actual = to_hex(d.data(), d.size());
    if (actual != r.sha256 && !planted_bug(PlantedBug::SkipChecksum)) {
        r.error = name + ": SHA-256: footer says " + r.sha256 + ", contents hash to " + actual;
        return r;
    }
    try {
        CheckpointContents c = parse_checkpoint_body(bytes.data(), bytes.size(), name);
        r.meta = c.meta;
        if (out) *out = std::move(c);
    } catch (const CorruptCheckpoint& e) {
        r.error = e.what();
        return r;
    }
    r.ok = true;
    return r;
}

VerifyResult verify_checkpoint_file(const std::string& path, const std::string& expected_sha256,
                                    std::vector<std::uint8_t>* keep_bytes, CheckpointContents* out) {
    VerifyResult r;
    std::vector<std::uint8_t> local;
    std::vector<std::uint8_t>& bytes = keep_bytes ? *keep_bytes : local;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        r.error = path + ": " + (errno == ENOENT ? std::string("file is missing") : std::strerror(errno));
        return r;
    }
    struct stat st {};
    ::fstat(fd, &st);
    bytes.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < bytes.size()) {
        ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    bytes.resize(got);
    r = verify_checkpoint_bytes(bytes, path, out);
    if (r.ok && !expected_sha256.empty() && r.sha256 != expected_sha256) {
        r.ok = false;
        r.error = path + ": SHA-256: registry says " + expected_sha256 + ", file has " + r.sha256 +
                  " (swapped with another checkpoint?)";
    }
    return r;
}

VerifyResult check_checkpoint_footer(const std::string& path, const std::string& expected_sha256) {
    VerifyResult r;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        r.error = path + ": " + (errno == ENOENT ? std::string("file is missing") : std::strerror(errno));
        return r;
    }
    struct stat st {};
    ::fstat(fd, &st);
    r.bytes = static_cast<std::uint64_t>(st.st_size);
    std::uint8_t footer[kCheckpointFooterBytes];
    if (r.bytes < kCheckpointHeaderBytes + kCheckpointFooterBytes ||
        ::pread(fd, footer, sizeof footer, st.st_size - static_cast<off_t>(sizeof footer)) !=
            static_cast<ssize_t>(sizeof footer)) {
        ::close(fd);
        r.error = path + ": truncated: " + std::to_string(r.bytes) + " bytes";
        return r;
    }
    ::close(fd);
    if (std::memcmp(footer + 40, kEndMagic, 8) != 0) {
        r.error = path + ": footer magic: expected SVPTEND!, found other bytes (truncated or damaged)";
        return r;
    }
    r.sha256 = to_hex(footer + 8, 32);
    if (get<std::uint64_t>(footer) != r.bytes) {
        r.error = path + ": length: footer says " + std::to_string(get<std::uint64_t>(footer)) + " bytes, file has " +
                  std::to_string(r.bytes);
        return r;
    }
    if (!expected_sha256.empty() && r.sha256 != expected_sha256) {
        r.error = path + ": SHA-256: registry says " + expected_sha256 + ", footer says " + r.sha256;
        return r;
    }
    r.ok = true;
    return r;
}

}  // namespace savepoint
