// Strict MNIST IDX reader (raw or gzip). Owns the byte-level validation of
// dataset files, so that a bad download, a doubly-compressed file or a swapped
// images/labels pair is reported precisely instead of training on garbage.
// Deliberately free of torch: it is small, fast to compile and fuzzable.
#include "formats/idx_reader.h"

#include "formats/idx_cache.h"

#include "platform/errors.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

namespace savepoint {

namespace {

std::string n_bytes(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

std::string hex32(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

[[noreturn]] void fail(const std::string& name, const std::string& field, const std::string& expected,
                       const std::string& found, const std::string& hint = {}) {
    std::string msg = name + ": " + field + ": expected " + expected + ", found " + found;
    if (!hint.empty()) msg += " (" + hint + ")";
    throw InputError(msg);
}

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

std::vector<std::uint8_t> read_raw(const std::string& path, std::uint64_t max_bytes) {
    std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
    if (!f) {
        const int err = errno;
        throw InputError(path + ": cannot open: " + std::strerror(err));
    }
    std::vector<std::uint8_t> out;
    // ftell's size is only a reservation hint: the cap is enforced on the bytes
    // actually read, so a file that grows under us (or a pipe) cannot exceed it.
    std::uint8_t chunk[1 << 16];
    if (std::fseek(f.get(), 0, SEEK_END) == 0) {
        const long size = std::ftell(f.get());
        if (size > 0 && static_cast<std::uint64_t>(size) <= max_bytes) out.reserve(static_cast<std::size_t>(size));
        std::fseek(f.get(), 0, SEEK_SET);
    }
    for (;;) {
        const std::size_t n = std::fread(chunk, 1, sizeof chunk, f.get());
        if (n > 0) {
            if (out.size() + n > max_bytes)
                fail(path, "file size", "at most " + std::to_string(max_bytes) + " bytes",
                     "more than " + std::to_string(max_bytes) + " bytes");
            out.insert(out.end(), chunk, chunk + n);
        }
        if (n < sizeof chunk) {
            if (std::ferror(f.get())) {
                const int err = errno;
                throw InputError(path + ": read error: " + std::strerror(err));
            }
            break;
        }
    }
    return out;
}

bool is_gzip(const std::vector<std::uint8_t>& b, std::size_t at = 0) {
    return b.size() >= at + 2 && b[at] == 0x1f && b[at + 1] == 0x8b;
}

// Inflates every gzip member (concatenated members are legal gzip, e.g. from
// `cat a.gz b.gz`); anything else after a member is corruption.
std::vector<std::uint8_t> inflate_gzip(const std::vector<std::uint8_t>& in, const std::string& path,
                                       std::uint64_t max_bytes) {
    std::vector<std::uint8_t> out;
    // The trailer's ISIZE (size mod 2^32) is only a hint, never trusted for
    // correctness; it saves the reallocations of a 47 MB inflate.
    if (in.size() >= 18) {
        const std::size_t t = in.size() - 4;
        const std::uint64_t isize = std::uint64_t(in[t]) | (std::uint64_t(in[t + 1]) << 8) |
                                    (std::uint64_t(in[t + 2]) << 16) | (std::uint64_t(in[t + 3]) << 24);
        // deflate cannot expand more than ~1032:1, so a forged ISIZE in a tiny
        // file cannot make us reserve gigabytes.
        const std::uint64_t plausible = std::uint64_t(in.size()) * 1032;
        out.reserve(static_cast<std::size_t>(std::min({isize, max_bytes, plausible})));
    }

    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK) throw InputError(path + ": gzip: cannot initialise zlib");
    struct Guard {
        z_stream* z;
        ~Guard() { inflateEnd(z); }
    } guard{&zs};

    std::size_t pos = 0;
    std::uint8_t buf[1 << 16];
    while (pos < in.size()) {
        if (pos > 0 && !is_gzip(in, pos))
            fail(path, "gzip stream", "end of file after the last gzip member",
                 std::to_string(in.size() - pos) + " trailing bytes at offset " + std::to_string(pos));
        if (pos > 0) inflateReset(&zs);
        zs.next_in = const_cast<Bytef*>(in.data() + pos);
        const std::size_t avail = in.size() - pos;
        zs.avail_in = static_cast<uInt>(std::min<std::size_t>(avail, std::numeric_limits<uInt>::max()));
        std::size_t fed = zs.avail_in;
        int rc = Z_OK;
        while (rc != Z_STREAM_END) {
            if (zs.avail_in == 0 && pos + fed < in.size()) {
                const std::size_t rest = in.size() - pos - fed;
                zs.next_in = const_cast<Bytef*>(in.data() + pos + fed);
                zs.avail_in = static_cast<uInt>(std::min<std::size_t>(rest, std::numeric_limits<uInt>::max()));
                fed += zs.avail_in;
            }
            zs.next_out = buf;
            zs.avail_out = sizeof buf;
            rc = inflate(&zs, Z_NO_FLUSH);
            const std::size_t produced = sizeof buf - zs.avail_out;
            if (out.size() + produced > max_bytes)
                fail(path, "decompressed size", "at most " + std::to_string(max_bytes) + " bytes",
                     "more than " + std::to_string(max_bytes) + " bytes", "refusing to inflate further");
            out.insert(out.end(), buf, buf + produced);
            if (rc == Z_STREAM_END) break;
            if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR)
                fail(path, "gzip stream", "valid deflate data",
                     std::string("corrupt data at compressed offset ") + std::to_string(pos + fed - zs.avail_in),
                     zs.msg ? zs.msg : "zlib error");
            if (rc == Z_MEM_ERROR) throw InputError(path + ": gzip stream: out of memory while inflating");
            // No progress possible: input exhausted before the member ended.
            // (Z_BUF_ERROR with input left cannot happen with a free output
            // buffer, but treating it as corruption rules out an endless loop.)
            if (produced == 0 && zs.avail_in == 0 && pos + fed >= in.size())
                fail(path, "gzip stream", "the end of the compressed data",
                     "end of file after " + std::to_string(in.size()) + " bytes", "truncated download?");
            if (produced == 0 && rc == Z_BUF_ERROR) fail(path, "gzip stream", "valid deflate data", "a stalled stream");
        }
        pos += fed - zs.avail_in;
    }
    return out;
}

std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) {
    return (std::uint32_t(b[at]) << 24) | (std::uint32_t(b[at + 1]) << 16) | (std::uint32_t(b[at + 2]) << 8) |
           std::uint32_t(b[at + 3]);
}

// Validates the magic and returns the dimensions, checking every byte is there
// before it is read.
std::vector<std::uint64_t> parse_header(const std::vector<std::uint8_t>& b, const std::string& name, std::uint8_t rank,
                                        const char* const* dim_names, const char* kind, const char* other_kind) {
    const std::uint32_t expected_magic = 0x00000800u | rank;
    if (b.size() < 4) fail(name, "magic", "4 bytes", n_bytes(b.size()), "header truncated");
    const std::uint32_t magic = be32(b, 0);
    if (b[0] != 0 || b[1] != 0) {
        std::string hint;
        if (b[0] == 0x1f && b[1] == 0x8b) hint = "is the file gzipped twice?";
        fail(name, "magic", hex32(expected_magic), hex32(magic), hint);
    }
    if (b[2] != 0x08)
        fail(name, "type", "8 (unsigned byte)", std::to_string(b[2]),
             "magic " + hex32(magic) + ", expected " + hex32(expected_magic));
    if (b[3] != rank) {
        std::string hint = "magic " + hex32(magic) + ", expected " + hex32(expected_magic);
        if (b[3] == (rank == 3 ? 1 : 3))
            hint += "; is this " + std::string(other_kind) + " file instead of " + kind + " file?";
        fail(name, "rank", std::to_string(rank), std::to_string(b[3]), hint);
    }
    std::vector<std::uint64_t> dims;
    for (std::size_t i = 0; i < rank; ++i) {
        const std::size_t at = 4 + 4 * i;
        if (b.size() < at + 4)
            fail(name, dim_names[i], "4 bytes at offset " + std::to_string(at), n_bytes(b.size() - at),
                 "header truncated");
        const std::uint32_t d = be32(b, at);
        if (d == 0) fail(name, dim_names[i], "> 0", "0");
        dims.push_back(d);
    }
    return dims;
}

void check_payload(const std::vector<std::uint8_t>& b, const std::string& name, std::size_t header,
                   std::uint64_t expected, const std::string& formula) {
    const std::uint64_t found = b.size() - header;
    if (found != expected)
        fail(name, "payload",
             std::to_string(expected) + " bytes (" + formula + ") after the " + std::to_string(header) + "-byte header",
             n_bytes(found), found < expected ? "file truncated" : "trailing bytes after the data");
}

}  // namespace

std::vector<std::uint8_t> read_maybe_gzipped(const std::string& path, std::uint64_t max_bytes) {
    // A cache hit needs only the .gz's edges, not its 26 MB.
    const auto entry = inflate_cache_entry(path);
    if (entry)
        if (auto cached = read_cached(*entry); cached && cached->size() <= max_bytes) return std::move(*cached);
    std::vector<std::uint8_t> raw = read_raw(path, max_bytes);
    if (!is_gzip(raw)) return raw;
    std::vector<std::uint8_t> inflated = inflate_gzip(raw, path, max_bytes);
    // Stored under the key read above; should the file have changed since, the
    // entry's CRC no longer matches what the key promises and it is never served.
    if (entry) store_inflated(*entry, inflated);
    return inflated;
}

IdxImages parse_idx_images(std::vector<std::uint8_t>&& bytes, const std::string& name) {
    static const char* const dim_names[] = {"image count", "rows", "cols"};
    const auto dims = parse_header(bytes, name, 3, dim_names, "an images", "a labels");
    // Each dimension is < 2^32, so rows*cols fits in 64 bits; the count may not.
    const std::uint64_t per_image = dims[1] * dims[2];
    if (dims[0] > std::numeric_limits<std::uint64_t>::max() / per_image ||
        dims[0] * per_image > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        fail(name, "image count * rows * cols", "a size that fits in 63 bits",
             std::to_string(dims[0]) + " * " + std::to_string(dims[1]) + " * " + std::to_string(dims[2]));
    const std::uint64_t total = dims[0] * per_image;
    check_payload(bytes, name, 16, total,
                  std::to_string(dims[0]) + " * " + std::to_string(dims[1]) + " * " + std::to_string(dims[2]));
    IdxImages out;
    out.count = static_cast<std::int64_t>(dims[0]);
    out.rows = static_cast<std::int64_t>(dims[1]);
    out.cols = static_cast<std::int64_t>(dims[2]);
    bytes.erase(bytes.begin(), bytes.begin() + 16);
    out.pixels = std::move(bytes);
    return out;
}

IdxImages parse_idx_images(const std::vector<std::uint8_t>& bytes, const std::string& name) {
    return parse_idx_images(std::vector<std::uint8_t>(bytes), name);
}

IdxLabels parse_idx_labels(const std::vector<std::uint8_t>& bytes, const std::string& name, int num_classes) {
    static const char* const dim_names[] = {"label count"};
    if (num_classes < 1 || num_classes > 256)
        throw InputError(name + ": num_classes: expected 1..256, found " + std::to_string(num_classes));
    const auto dims = parse_header(bytes, name, 1, dim_names, "a labels", "an images");
    check_payload(bytes, name, 8, dims[0], std::to_string(dims[0]) + " labels");
    IdxLabels out;
    out.labels.assign(bytes.begin() + 8, bytes.end());
    for (std::size_t i = 0; i < out.labels.size(); ++i) {
        if (out.labels[i] >= num_classes)
            fail(name, "label " + std::to_string(i), "a value < " + std::to_string(num_classes),
                 std::to_string(out.labels[i]));
    }
    return out;
}

IdxImages read_idx_images(const std::string& path) { return parse_idx_images(read_maybe_gzipped(path), path); }

IdxLabels read_idx_labels(const std::string& path, int num_classes) {
    return parse_idx_labels(read_maybe_gzipped(path), path, num_classes);
}

}  // namespace savepoint
