// Tests for the checkpoint file format (engine/formats/checkpoint_format.cpp): the
// only thing between a damaged file and LibTorch. Every truncation, every
// single-bit flip, a zero-length file and a file swapped with another valid
// checkpoint must be refused, with a message naming the file and what was
// expected and found; and the structural parser must never read past the end
// of its buffer whatever bytes it is given (checked with a guard page).
#include "formats/checkpoint_format.h"
#include "platform/errors.h"
#include "storage/sha256.h"

#include "test_home.h"

#include <QtTest>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <random>

using namespace savepoint;

namespace {

struct Built {
    std::string meta;
    std::vector<std::vector<std::uint8_t>> storage;
    std::vector<RawTensor> tensors;
    std::vector<std::uint8_t> file;
    std::string sha;
    // Offsets where each section ends (a truncation there cuts cleanly between sections).
    std::vector<std::size_t> boundaries;
    std::size_t metaBegin = 0, metaEnd = 0, footerBegin = 0;
    std::vector<std::pair<std::size_t, std::size_t>> payloads;  // [begin, end) of each tensor's data
};

template <typename T>
void put(std::vector<std::uint8_t>& out, T v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    out.insert(out.end(), p, p + sizeof v);
}

Built build(int variant = 0) {
    Built b;
    nlohmann::json meta = {{"format", "savepoint-checkpoint"},
                           {"run", "fmt"},
                           {"checkpoint_id", 7 + variant},
                           {"global_step", 120 + variant},
                           {"note", "variant " + std::to_string(variant)}};
    b.meta = meta.dump();
    struct Spec {
        const char* name;
        DType dtype;
        std::vector<std::int64_t> dims;
    };
    const std::vector<Spec> specs = {{"model/fc1.weight", DType::F32, {3, 4}},
                                     {"model/fc1.bias", DType::F32, {3}},
                                     {"optim/0/step", DType::I64, {}},
                                     {"rng/cpu", DType::U8, {37}},
                                     {"empty", DType::F64, {0, 5}},
                                     {"half", DType::F16, {2, 2}}};
    b.storage.resize(specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
        RawTensor t;
        t.name = specs[i].name;
        t.dtype = specs[i].dtype;
        t.dims = specs[i].dims;
        std::uint64_t n = 1;
        for (auto d : t.dims) n *= static_cast<std::uint64_t>(d);
        t.nbytes = n * dtype_size(t.dtype);
        b.storage[i].resize(t.nbytes);
        for (std::size_t k = 0; k < t.nbytes; ++k)
            b.storage[i][k] = static_cast<std::uint8_t>(k * 31 + i * 7 + variant);
        t.data = b.storage[i].data();
        b.tensors.push_back(t);
    }
    b.sha = write_checkpoint(b.meta, b.tensors, [&](const void* p, std::size_t n) {
        const auto* c = static_cast<const std::uint8_t*>(p);
        b.file.insert(b.file.end(), c, c + n);
    });
    // Section boundaries, computed independently from the documented layout.
    std::size_t pos = kCheckpointHeaderBytes;
    b.boundaries.push_back(8);    // after the magic
    b.boundaries.push_back(16);   // after version + flags
    b.boundaries.push_back(pos);  // after the header
    b.metaBegin = pos;
    pos += b.meta.size();
    b.metaEnd = pos;
    b.boundaries.push_back(pos);
    for (const auto& t : b.tensors) {
        pos += 4;
        b.boundaries.push_back(pos);  // after name length
        pos += t.name.size() + 4 + 8 * t.dims.size();
        b.boundaries.push_back(pos);  // before nbytes
        pos += 8;
        b.boundaries.push_back(pos);  // end of the record header
        b.payloads.emplace_back(pos, pos + t.nbytes);
        pos += t.nbytes;
        b.boundaries.push_back(pos);  // end of the data
    }
    b.footerBegin = pos;
    b.boundaries.push_back(pos + 8);   // after the footer's length
    b.boundaries.push_back(pos + 40);  // after the footer's hash
    return b;
}

// A buffer whose last byte sits right before an unreadable page, so any read
// past the end faults (and fails the test by crashing) instead of passing silently.
class GuardedBuffer {
public:
    explicit GuardedBuffer(const std::uint8_t* data, std::size_t size) : size_(size) {
        page_ = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        const std::size_t dataPages = (size + page_ - 1) / page_ + 1;
        total_ = (dataPages + 1) * page_;
        base_ = static_cast<std::uint8_t*>(
            ::mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        if (base_ == MAP_FAILED) qFatal("mmap failed");
        ::mprotect(base_ + dataPages * page_, page_, PROT_NONE);
        begin_ = base_ + dataPages * page_ - size;
        if (size) std::memcpy(begin_, data, size);
    }
    ~GuardedBuffer() { ::munmap(base_, total_); }
    const std::uint8_t* data() const { return begin_; }
    std::size_t size() const { return size_; }

private:
    std::uint8_t* base_ = nullptr;
    std::uint8_t* begin_ = nullptr;
    std::size_t size_ = 0, page_ = 0, total_ = 0;
};

// Parses; returns the CorruptCheckpoint message or "" if it parsed.
QString parseError(const std::vector<std::uint8_t>& bytes, const std::string& name = "garbage.svpt") {
    GuardedBuffer g(bytes.data(), bytes.size());
    try {
        parse_checkpoint_body(g.data(), g.size(), name);
    } catch (const CorruptCheckpoint& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}

std::array<std::uint8_t, 32> sha(const std::uint8_t* p, std::size_t n) {
    Sha256 h;
    h.update(p, n);
    return h.finish();
}

// Version 2's checksum from its definition in checkpoint_format.h, with plain
// OpenSSL SHA-256s: `file` without its footer, `bodyStart` after the meta.
std::string checksumV2(const std::vector<std::uint8_t>& file, std::size_t bodyStart, std::size_t bodyEnd) {
    const std::size_t mid = bodyStart + 64 * ((bodyEnd - bodyStart) / 128);
    Sha256 root;
    root.update("savepoint-ckpt-2", 16);
    for (auto d : {sha(file.data(), bodyStart), sha(file.data() + bodyStart, mid - bodyStart),
                   sha(file.data() + mid, bodyEnd - mid)})
        root.update(d.data(), d.size());
    const auto d = root.finish();
    return to_hex(d.data(), d.size());
}

// Appends a correct footer to `body` (a version 1 file: plain SHA-256), so only the structure can be wrong.
std::vector<std::uint8_t> withFooter(std::vector<std::uint8_t> body) {
    Sha256 h;
    h.update(body.data(), body.size());
    auto d = h.finish();
    put<std::uint64_t>(body, body.size() + kCheckpointFooterBytes);
    body.insert(body.end(), d.begin(), d.end());
    const char end[8] = {'S', 'V', 'P', 'T', 'E', 'N', 'D', '!'};
    body.insert(body.end(), end, end + 8);
    return body;
}

std::vector<std::uint8_t> header(std::uint32_t version, std::uint64_t metaLen, std::uint64_t count) {
    std::vector<std::uint8_t> h = {'S', 'V', 'P', 'T', 'C', 'K', 'P', 'T'};
    put<std::uint32_t>(h, version);
    put<std::uint32_t>(h, 0);
    put<std::uint64_t>(h, metaLen);
    put<std::uint64_t>(h, count);
    return h;
}

void append(std::vector<std::uint8_t>& v, const std::string& s) { v.insert(v.end(), s.begin(), s.end()); }

bool writeBytes(const QString& path, const std::vector<std::uint8_t>& bytes, std::size_t n) {
    return testsupport::writeAll(path, QByteArray(reinterpret_cast<const char*>(bytes.data()), int(n)));
}

}  // namespace

class TestCheckpointFormat : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void dtypeSizes() {
        QCOMPARE(dtype_size(DType::F32), std::size_t(4));
        QCOMPARE(dtype_size(DType::F64), std::size_t(8));
        QCOMPARE(dtype_size(DType::I64), std::size_t(8));
        QCOMPARE(dtype_size(DType::U8), std::size_t(1));
        QCOMPARE(dtype_size(DType::I32), std::size_t(4));
        QCOMPARE(dtype_size(DType::F16), std::size_t(2));
        QCOMPARE(dtype_size(DType::BF16), std::size_t(2));
    }

    void roundTripInMemory() {
        Built b = build();
        QCOMPARE(b.file.size(), std::size_t(checkpoint_file_size(b.meta, b.tensors)));
        QCOMPARE(b.footerBegin + kCheckpointFooterBytes, b.file.size());
        // The returned checksum is version 2's, computed here from its definition, and is what the footer holds.
        std::uint32_t version = 0;
        std::memcpy(&version, b.file.data() + 8, 4);
        QCOMPARE(version, std::uint32_t(2));
        QCOMPARE(QString::fromStdString(b.sha), QString::fromStdString(checksumV2(b.file, b.metaEnd, b.footerBegin)));
        QVERIFY(b.sha != sha256_hex(b.file.data(), b.footerBegin));  // not version 1's
        QCOMPARE(QString::fromStdString(to_hex(b.file.data() + b.footerBegin + 8, 32)), QString::fromStdString(b.sha));
        QCOMPARE(std::memcmp(b.file.data() + b.file.size() - 8, "SVPTEND!", 8), 0);

        CheckpointContents c;
        VerifyResult v = verify_checkpoint_bytes(b.file, "mem.svpt", &c);
        QVERIFY2(v.ok, v.error.c_str());
        QCOMPARE(v.bytes, std::uint64_t(b.file.size()));
        QCOMPARE(v.sha256, b.sha);
        QCOMPARE(QString::fromStdString(v.meta.dump()), QString::fromStdString(b.meta));
        QCOMPARE(c.tensors.size(), b.tensors.size());
        for (std::size_t i = 0; i < c.tensors.size(); ++i) {
            const RawTensor& got = c.tensors[i];
            const RawTensor& want = b.tensors[i];
            QCOMPARE(QString::fromStdString(got.name), QString::fromStdString(want.name));
            QVERIFY(got.dtype == want.dtype);
            QCOMPARE(got.dims, want.dims);
            QCOMPARE(got.nbytes, want.nbytes);
            QVERIFY(want.nbytes == 0 || std::memcmp(got.data, want.data, want.nbytes) == 0);
            // Tensor data points into the verified bytes, not into a copy of unknown origin.
            QVERIFY(want.nbytes == 0 ||
                    (got.data >= b.file.data() && got.data + got.nbytes <= b.file.data() + b.file.size()));
        }
    }

    void roundTripFile() {
        Built b = build();
        const QString p = path("round.svpt");
        QVERIFY(writeBytes(p, b.file, b.file.size()));
        std::vector<std::uint8_t> kept;
        CheckpointContents c;
        VerifyResult v = verify_checkpoint_file(p.toStdString(), b.sha, &kept, &c);
        QVERIFY2(v.ok, v.error.c_str());
        QCOMPARE(kept, b.file);
        QCOMPARE(c.tensors.size(), b.tensors.size());
        QCOMPARE(v.meta.value("checkpoint_id", -1), 7);
        VerifyResult f = check_checkpoint_footer(p.toStdString(), b.sha);
        QVERIFY2(f.ok, f.error.c_str());
        QCOMPARE(f.sha256, b.sha);
        QCOMPARE(f.bytes, std::uint64_t(b.file.size()));
    }

    void tensorsFirstWritesTheSameBytes() {
        // The I/O thread writes the tensors first, flushes them while it hashes,
        // and only then the header, meta and footer: the file must not differ.
        for (int variant : {0, 1}) {
            Built b = build(variant);
            std::vector<std::uint8_t> file;
            std::uint64_t pos = 0;
            std::size_t lengthAtSync = 0;
            bool headAtSync = true, metaAsked = false, metaBeforeSync = false;
            PositionedSink sink;
            sink.seek = [&](std::uint64_t offset) { pos = offset; };
            sink.write = [&](const void* p, std::size_t n) {
                if (file.size() < pos + n) file.resize(pos + n);
                std::memcpy(file.data() + pos, p, n);
                pos += n;
            };
            sink.tensors_written = [&] {
                lengthAtSync = file.size();
                headAtSync = std::any_of(file.begin(), file.begin() + std::ptrdiff_t(b.metaEnd),
                                         [](std::uint8_t c) { return c != 0; });
                metaBeforeSync = metaAsked;
            };
            const std::string sha = write_checkpoint_tensors_first(
                b.meta.size(), b.tensors,
                [&] {
                    metaAsked = true;
                    return b.meta;
                },
                sink);
            QCOMPARE(QString::fromStdString(sha), QString::fromStdString(b.sha));
            QVERIFY(file == b.file);
            // Every tensor byte was handed over before the sync, and nothing of the head yet;
            // the meta was asked for only after it (it may carry hashes computed meanwhile).
            QCOMPARE(lengthAtSync, b.footerBegin);
            QVERIFY(!headAtSync);
            QVERIFY(!metaBeforeSync);
            QVERIFY(metaAsked);
        }
    }

    void tensorsFirstRefusesAMetaOfAnotherLength() {
        // The tensors' offsets were fixed by the meta's announced length.
        Built b = build();
        PositionedSink sink;
        sink.seek = [](std::uint64_t) {};
        sink.write = [](const void*, std::size_t) {};
        QVERIFY_THROWS_EXCEPTION(std::logic_error, write_checkpoint_tensors_first(
                                                       b.meta.size(), b.tensors, [&] { return b.meta + " "; }, sink));
    }

    void versionOneFilesAreStillRead() {
        // Checkpoints written before version 2 (plain SHA-256 of all before the footer) verify and load.
        Built b = build();
        std::vector<std::uint8_t> v1 = b.file;
        const std::uint32_t one = 1;
        std::memcpy(v1.data() + 8, &one, 4);
        const auto plain = sha(v1.data(), b.footerBegin);
        std::memcpy(v1.data() + b.footerBegin + 8, plain.data(), plain.size());
        CheckpointContents c;
        VerifyResult v = verify_checkpoint_bytes(v1, "v1.svpt", &c);
        QVERIFY2(v.ok, v.error.c_str());
        QCOMPARE(v.sha256, to_hex(plain.data(), plain.size()));
        QCOMPARE(c.tensors.size(), b.tensors.size());
        for (std::size_t i = 0; i < c.tensors.size(); ++i) {
            QCOMPARE(c.tensors[i].name, b.tensors[i].name);
            QCOMPARE(c.tensors[i].nbytes, b.tensors[i].nbytes);
            if (b.tensors[i].nbytes)  // an empty tensor's data pointer may be null
                QCOMPARE(std::memcmp(c.tensors[i].data, b.tensors[i].data, b.tensors[i].nbytes), 0);
        }
        // The version decides the checksum: version 2's on a version 1 file, or the reverse, is refused.
        std::vector<std::uint8_t> mixed = b.file;
        std::memcpy(mixed.data() + 8, &one, 4);
        QVERIFY(!verify_checkpoint_bytes(mixed, "mixed.svpt").ok);
        mixed = v1;
        const std::uint32_t two = 2;
        std::memcpy(mixed.data() + 8, &two, 4);
        QVERIFY(!verify_checkpoint_bytes(mixed, "mixed.svpt").ok);
    }

    void emptyCheckpoint() {
        // No tensors and an empty JSON object: still a valid, verifiable file.
        std::vector<std::uint8_t> file;
        std::string sha = write_checkpoint("{}", {}, [&](const void* p, std::size_t n) {
            file.insert(file.end(), static_cast<const std::uint8_t*>(p), static_cast<const std::uint8_t*>(p) + n);
        });
        QCOMPARE(file.size(), kCheckpointHeaderBytes + 2 + kCheckpointFooterBytes);
        VerifyResult v = verify_checkpoint_bytes(file, "empty.svpt");
        QVERIFY2(v.ok, v.error.c_str());
        QCOMPARE(v.sha256, sha);
    }

    // Every possible truncation, in memory; the section boundaries and random offsets also on disk.
    void truncationEverywhere() {
        Built b = build();
        for (std::size_t n = 0; n < b.file.size(); ++n) {
            std::vector<std::uint8_t> cut(b.file.begin(), b.file.begin() + n);
            VerifyResult v = verify_checkpoint_bytes(cut, "cut.svpt");
            QVERIFY2(!v.ok, qPrintable(QStringLiteral("truncation to %1 bytes accepted").arg(n)));
            QVERIFY2(v.error.rfind("cut.svpt: ", 0) == 0, v.error.c_str());
        }
    }

    void truncationAtSectionBoundariesOnDisk() {
        Built b = build();
        std::vector<std::size_t> cuts = b.boundaries;
        std::mt19937_64 rng(12345);
        for (int i = 0; i < 40; ++i) cuts.push_back(std::size_t(rng() % b.file.size()));
        cuts.push_back(0);
        cuts.push_back(1);
        cuts.push_back(kCheckpointHeaderBytes + kCheckpointFooterBytes - 1);
        cuts.push_back(kCheckpointHeaderBytes + kCheckpointFooterBytes);
        cuts.push_back(b.file.size() - 1);
        cuts.push_back(b.footerBegin);
        for (std::size_t n : cuts) {
            QVERIFY(n < b.file.size());
            const QString p = path(QStringLiteral("cut-%1.svpt").arg(n));
            QVERIFY(writeBytes(p, b.file, n));
            VerifyResult full = verify_checkpoint_file(p.toStdString(), b.sha);
            VerifyResult cheap = check_checkpoint_footer(p.toStdString(), b.sha);
            const QString ctx = QStringLiteral("cut at %1 of %2: full='%3' footer='%4'")
                                    .arg(n)
                                    .arg(b.file.size())
                                    .arg(QString::fromStdString(full.error), QString::fromStdString(cheap.error));
            QVERIFY2(!full.ok, qPrintable(ctx));
            QVERIFY2(!cheap.ok, qPrintable(ctx));
            // Both name the file.
            QVERIFY2(QString::fromStdString(full.error).startsWith(p + ": "), qPrintable(ctx));
            QVERIFY2(QString::fromStdString(cheap.error).startsWith(p + ": "), qPrintable(ctx));
            // ...and say what is wrong in terms of expected vs found.
            const QString e = QString::fromStdString(full.error);
            QVERIFY2(e.contains(QLatin1String("truncated: ") + QString::number(n) + QLatin1String(" bytes")) ||
                         e.contains(QLatin1String("expected SVPTEND!")) ||
                         e.contains(QLatin1String("file has ") + QString::number(n)),
                     qPrintable(ctx));
            QVERIFY(full.bytes == n || cheap.bytes == n);
        }
    }

    void truncatedFileWithForgedFooterIsRefused() {
        // Cut the last tensor's data, then glue a footer that would match the
        // original file: the length field and the hash both give it away.
        Built b = build();
        std::vector<std::uint8_t> forged(b.file.begin(), b.file.begin() + std::ptrdiff_t(b.footerBegin - 3));
        forged.insert(forged.end(), b.file.end() - std::ptrdiff_t(kCheckpointFooterBytes), b.file.end());
        VerifyResult v = verify_checkpoint_bytes(forged, "forged.svpt");
        QVERIFY(!v.ok);
        QVERIFY2(v.error.find("length: footer says " + std::to_string(b.file.size()) + " bytes, file has " +
                              std::to_string(forged.size())) != std::string::npos,
                 v.error.c_str());
    }

    void bitFlipsEverywhere() {
        Built b = build();
        for (std::size_t i = 0; i < b.file.size(); ++i) {
            for (std::uint8_t mask : {std::uint8_t(0x01), std::uint8_t(0x80)}) {
                std::vector<std::uint8_t> bad = b.file;
                bad[i] ^= mask;
                VerifyResult v = verify_checkpoint_bytes(bad, "flip.svpt");
                const QString ctx =
                    QStringLiteral("flip at %1 (mask %2): %3").arg(i).arg(mask).arg(QString::fromStdString(v.error));
                QVERIFY2(!v.ok, qPrintable(ctx));
                QVERIFY2(v.error.rfind("flip.svpt: ", 0) == 0, qPrintable(ctx));
                const QString e = QString::fromStdString(v.error);
                if (i >= 8 && i < 12) {
                    // The version: read before the checksum, which depends on it.
                    QVERIFY2(e.contains(QLatin1String("format version: expected 1 to 2, found ")), qPrintable(ctx));
                } else if (i >= 16 && i < 24 && e.contains(QLatin1String("meta length: "))) {
                    // The meta length, read (bounds-checked) to find the body: past the end is said as such.
                    QVERIFY2(e.contains(QLatin1String("bytes runs past the end of the file")), qPrintable(ctx));
                } else if (i < b.footerBegin) {
                    // Header, meta, record headers and payload: the hash catches it, naming both values.
                    QVERIFY2(e.contains(QLatin1String("SHA-256: footer says ") + QString::fromStdString(b.sha) +
                                        QLatin1String(", contents hash to ")),
                             qPrintable(ctx));
                } else if (i < b.footerBegin + 8) {
                    QVERIFY2(e.contains(QLatin1String("length: footer says ")) &&
                                 e.contains(QLatin1String("file has ") + QString::number(b.file.size())),
                             qPrintable(ctx));
                } else if (i < b.footerBegin + 40) {
                    QVERIFY2(e.contains(QLatin1String("SHA-256: footer says ")) &&
                                 e.contains(QLatin1String("contents hash to ") + QString::fromStdString(b.sha)),
                             qPrintable(ctx));
                } else {
                    QVERIFY2(e.contains(QLatin1String("footer magic: expected SVPTEND!")), qPrintable(ctx));
                }
            }
        }
    }

    void bitFlipsInEachRegionOnDisk() {
        Built b = build();
        struct Where {
            const char* region;
            std::size_t offset;
        };
        const std::vector<Where> where = {{"header magic", 0},
                                          {"header version", 9},
                                          {"header meta length", 17},
                                          {"header tensor count", 25},
                                          {"meta", b.metaBegin + (b.metaEnd - b.metaBegin) / 2},
                                          {"first record header", b.metaEnd + 2},
                                          {"payload", b.payloads[0].first + 5},
                                          {"last payload byte", b.footerBegin - 1},
                                          {"footer length", b.footerBegin},
                                          {"footer hash", b.footerBegin + 20},
                                          {"footer magic", b.file.size() - 1}};
        for (const Where& w : where) {
            const QString p = path(QStringLiteral("flip-%1.svpt").arg(w.offset));
            QVERIFY(writeBytes(p, b.file, b.file.size()));
            QVERIFY(testsupport::flipByte(p, qint64(w.offset)));
            VerifyResult v = verify_checkpoint_file(p.toStdString(), b.sha);
            const QString ctx = QStringLiteral("%1: %2").arg(QLatin1String(w.region), QString::fromStdString(v.error));
            QVERIFY2(!v.ok, qPrintable(ctx));
            QVERIFY2(QString::fromStdString(v.error).startsWith(p + ": "), qPrintable(ctx));
            // The cheap footer check (used at every registry open) catches footer
            // damage; damage inside the body needs the full hash, by design.
            VerifyResult f = check_checkpoint_footer(p.toStdString(), b.sha);
            if (w.offset >= b.footerBegin) {
                QVERIFY2(!f.ok, qPrintable(QStringLiteral("footer check missed %1").arg(QLatin1String(w.region))));
                QVERIFY2(QString::fromStdString(f.error).startsWith(p + ": "), f.error.c_str());
            } else {
                QVERIFY2(f.ok, f.error.c_str());
            }
        }
    }

    void zeroLengthFile() {
        const QString p = path("zero.svpt");
        QVERIFY(testsupport::writeAll(p, QByteArray()));
        VerifyResult v = verify_checkpoint_file(p.toStdString());
        QVERIFY(!v.ok);
        QCOMPARE(QString::fromStdString(v.error),
                 p + QStringLiteral(": truncated: 0 bytes, a checkpoint has at least %1")
                         .arg(kCheckpointHeaderBytes + kCheckpointFooterBytes));
        VerifyResult f = check_checkpoint_footer(p.toStdString());
        QVERIFY(!f.ok);
        QCOMPARE(QString::fromStdString(f.error), p + QStringLiteral(": truncated: 0 bytes"));
    }

    void missingFile() {
        const QString p = path("never-written.svpt");
        VerifyResult v = verify_checkpoint_file(p.toStdString());
        QVERIFY(!v.ok);
        QCOMPARE(QString::fromStdString(v.error), p + QStringLiteral(": file is missing"));
        VerifyResult f = check_checkpoint_footer(p.toStdString());
        QVERIFY(!f.ok);
        QCOMPARE(QString::fromStdString(f.error), p + QStringLiteral(": file is missing"));
    }

    void swappedWithAnotherValidCheckpoint() {
        Built a = build(0), other = build(1);
        QVERIFY(a.sha != other.sha);
        const QString p = path("swapped.svpt");
        // The file at A's path is B: perfectly valid on its own.
        QVERIFY(writeBytes(p, other.file, other.file.size()));
        QVERIFY(verify_checkpoint_file(p.toStdString()).ok);
        VerifyResult v = verify_checkpoint_file(p.toStdString(), a.sha);
        QVERIFY(!v.ok);
        QCOMPARE(QString::fromStdString(v.error), p + ": SHA-256: registry says " + QString::fromStdString(a.sha) +
                                                      ", file has " + QString::fromStdString(other.sha) +
                                                      " (swapped with another checkpoint?)");
        VerifyResult f = check_checkpoint_footer(p.toStdString(), a.sha);
        QVERIFY(!f.ok);
        QCOMPARE(QString::fromStdString(f.error), p + ": SHA-256: registry says " + QString::fromStdString(a.sha) +
                                                      ", footer says " + QString::fromStdString(other.sha));
    }

    void appendedBytesAreRefused() {
        Built b = build();
        std::vector<std::uint8_t> longer = b.file;
        longer.push_back(0);
        VerifyResult v = verify_checkpoint_bytes(longer, "long.svpt");
        QVERIFY(!v.ok);
        const QString p = path("long.svpt");
        QVERIFY(writeBytes(p, b.file, b.file.size()));
        QFile f(p);
        QVERIFY(f.open(QIODevice::Append));
        QVERIFY(f.write(QByteArray(b.file.size() > 100 ? "SVPTEND!" : "x")) > 0);
        f.close();
        QVERIFY(!check_checkpoint_footer(p.toStdString()).ok);
        QVERIFY(!verify_checkpoint_file(p.toStdString()).ok);
    }

    // Structure errors behind a correct hash: the parser's own checks, with messages.
    void structuralErrorsBehindAValidHash_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        const std::string meta = "{\"a\":1}";
        auto rec = [](const std::string& name, std::uint8_t dtype, std::vector<std::int64_t> dims, std::uint64_t nbytes,
                      std::size_t dataBytes) {
            std::vector<std::uint8_t> r;
            put<std::uint32_t>(r, std::uint32_t(name.size()));
            append(r, name);
            r.push_back(dtype);
            r.push_back(std::uint8_t(dims.size()));
            put<std::uint16_t>(r, 0);
            for (auto d : dims) put<std::int64_t>(r, d);
            put<std::uint64_t>(r, nbytes);
            r.insert(r.end(), dataBytes, 0x5a);
            return r;
        };
        auto make = [&](std::uint32_t version, std::uint64_t metaLen, std::uint64_t count, const std::string& m,
                        const std::vector<std::uint8_t>& records) {
            std::vector<std::uint8_t> b = header(version, metaLen, count);
            append(b, m);
            b.insert(b.end(), records.begin(), records.end());
            return QByteArray(reinterpret_cast<const char*>(b.data()), int(b.size()));
        };
        QTest::newRow("format version") << make(3, meta.size(), 0, meta, {})
                                        << "format version: expected 1 to 2, found 3 (written by a newer Savepoint?)";
        QTest::newRow("format version 0")
            << make(0, meta.size(), 0, meta, {}) << "format version: expected 1 to 2, found 0";
        QTest::newRow("meta length too long")
            << make(1, 1000, 0, meta, {}) << "meta length: 1000 bytes runs past the end";
        QTest::newRow("meta not JSON") << make(1, 7, 0, "{\"a\":1X", {}) << "meta: expected JSON";
        QTest::newRow("meta not an object") << make(1, 3, 0, "[1]", {}) << "meta: expected a JSON object";
        QTest::newRow("tensor count huge")
            << make(1, meta.size(), 1000001, meta, {}) << "tensor count: expected at most 100000, found 1000001";
        QTest::newRow("tensor count beyond records")
            << make(1, meta.size(), 2, meta, rec("x", 0, {2}, 8, 8)) << "tensor 1 name length: runs past the end";
        QTest::newRow("bad dtype") << make(1, meta.size(), 1, meta, rec("x", 9, {2}, 8, 8))
                                   << "tensor 'x' dtype: expected 0..6, found 9";
        QTest::newRow("rank too high") << make(1, meta.size(), 1, meta, rec("x", 0, {1, 1, 1, 1, 1, 1, 1, 1, 1}, 4, 4))
                                       << "tensor 'x' rank: expected at most 8, found 9";
        QTest::newRow("negative dim") << make(1, meta.size(), 1, meta, rec("x", 0, {-2}, 8, 8))
                                      << "tensor 'x' dimension: negative (-2)";
        QTest::newRow("byte count mismatch")
            << make(1, meta.size(), 1, meta, rec("x", 0, {3}, 8, 8)) << "tensor 'x' byte count: expected 12, found 8";
        QTest::newRow("implausibly large") << make(1, meta.size(), 1, meta, rec("x", 0, {1 << 30, 1 << 30}, 0, 0))
                                           << "tensor 'x' is implausibly large";
        QTest::newRow("data past the end")
            << make(1, meta.size(), 1, meta, rec("x", 0, {4}, 16, 8)) << "tensor 0 data: runs past the end";
        QTest::newRow("trailing bytes") << make(1, meta.size(), 1, meta, [&] {
            auto r = rec("x", 0, {2}, 8, 8);
            r.push_back(1);
            return r;
        }()) << "body length: expected";
        QTest::newRow("name length huge") << make(1, meta.size(), 1, meta, [&] {
            std::vector<std::uint8_t> r;
            put<std::uint32_t>(r, 5000);
            return r;
        }()) << "tensor 0 name length: 5000";
    }
    void structuralErrorsBehindAValidHash() {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        std::vector<std::uint8_t> file = withFooter(std::vector<std::uint8_t>(body.begin(), body.end()));
        VerifyResult v = verify_checkpoint_bytes(file, "struct.svpt");
        QVERIFY2(!v.ok, "a structurally broken file with a valid hash was accepted");
        QVERIFY2(QString::fromStdString(v.error).startsWith(QLatin1String("struct.svpt: ")), v.error.c_str());
        QVERIFY2(QString::fromStdString(v.error).contains(expected), v.error.c_str());
        // The parser alone, with nothing readable after the buffer, says the same.
        QVERIFY(parseError(file, "struct.svpt").contains(expected));
    }

    void parserNeverReadsOutOfBounds() {
        Built b = build();
        std::mt19937_64 rng(2024);
        int refused = 0;
        // Pure garbage of every small size.
        for (std::size_t n = 0; n < 300; ++n) {
            std::vector<std::uint8_t> g(n);
            for (auto& c : g) c = std::uint8_t(rng());
            if (!parseError(g).isEmpty()) ++refused;
        }
        QCOMPARE(refused, 300);
        // Garbage behind a valid magic and version, and mutated real files
        // (bytes randomised, prefixes cut off): the parser must either parse
        // within bounds or throw; the guard page turns any overread into a crash.
        for (int i = 0; i < 3000; ++i) {
            std::vector<std::uint8_t> m = b.file;
            const int edits = 1 + int(rng() % 8);
            for (int e = 0; e < edits; ++e) {
                std::size_t at = std::size_t(rng() % m.size());
                switch (rng() % 3) {
                    case 0:
                        m[at] = std::uint8_t(rng());
                        break;
                    case 1:
                        m[at] = 0xff;
                        break;
                    default:
                        m.resize(std::max<std::size_t>(at, 1));
                        break;
                }
                if (m.empty()) break;
            }
            QString err = parseError(m);
            Q_UNUSED(err);
        }
        for (int i = 0; i < 2000; ++i) {
            std::vector<std::uint8_t> m = header(1, rng() % 64, rng() % 4);
            const std::size_t extra = kCheckpointFooterBytes + std::size_t(rng() % 200);
            for (std::size_t k = 0; k < extra; ++k) m.push_back(std::uint8_t(rng() % 4 == 0 ? 0xff : rng() % 8));
            QString err = parseError(m);
            Q_UNUSED(err);
        }
        // The unmodified file parses fine through the same guarded path.
        QVERIFY(parseError(b.file).isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestCheckpointFormat)
#include "test_checkpoint_format.moc"
