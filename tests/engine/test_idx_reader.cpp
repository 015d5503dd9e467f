// Tests for the strict IDX reader (engine/formats/idx_reader.cpp) and the directory
// loader's file-level checks: one table row per violation, each asserting that
// the message names the file, the field, and the expected and found values,
// because those messages are all a user gets when a dataset is broken.
#include "data/dataset.h"
#include "formats/idx_reader.h"
#include "idx_files.h"
#include "platform/errors.h"

#include <QtTest>

#include <functional>
#include <set>

using namespace savepoint;

namespace {

using testsupport::be32;
using testsupport::gzip;

// A valid images file; payloadDelta < 0 drops bytes, > 0 appends some.
QByteArray idxImages(quint32 n, quint32 rows, quint32 cols, int payloadDelta = 0, quint32 magic = 0x00000803) {
    QByteArray b = be32(magic) + be32(n) + be32(rows) + be32(cols);
    const qint64 size = qint64(n) * rows * cols + payloadDelta;
    for (qint64 i = 0; i < size; ++i) b.append(char((i * 7 + 3) & 0xff));
    return b;
}

QByteArray idxLabels(quint32 n, int payloadDelta = 0, quint32 magic = 0x00000801) {
    QByteArray b = be32(magic) + be32(n);
    for (qint64 i = 0; i < qint64(n) + payloadDelta; ++i) b.append(char(i % 10));
    return b;
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    QCOMPARE(f.write(bytes), qint64(bytes.size()));
}

std::vector<std::uint8_t> toVec(const QByteArray& b) { return std::vector<std::uint8_t>(b.begin(), b.end()); }

// The message of the InputError fn throws; a null string if it throws nothing.
QString inputErrorOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}

// The small valid directory the "dir" rows start from: 3 train, 2 test images.
void writeValidDirectory(const QString& dir) {
    writeFile(dir + "/train-images-idx3-ubyte", idxImages(3, 28, 28));
    writeFile(dir + "/train-labels-idx1-ubyte.gz", gzip(idxLabels(3)));
    writeFile(dir + "/t10k-images-idx3-ubyte.gz", gzip(idxImages(2, 28, 28)));
    writeFile(dir + "/t10k-labels-idx1-ubyte", idxLabels(2));
}

const QString kFashionDir = QStringLiteral("/usr/share/datasets/fashion-mnist");

}  // namespace

class TestIdxReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rejects_data();
    void rejects();
    void parsesTinyRawAndGzipToSameBytes();
    void inflateCacheServesOnlyVerifiedBytes();
    void readsConcatenatedGzipMembers();
    void capsDecompressedSize();
    void rejectsEveryTruncation();
    void survivesHeaderMutations();
    void readsRealFashionMnist();
};

void TestIdxReader::rejects_data() {
    // mode: images|labels -> read_idx_*(dir/file); missing -> file not written;
    // dir -> valid directory with `file` replaced by bytes (or removed if bytes
    // is null), then load_idx_directory; nodir -> load_idx_directory(dir/file).
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QStringList>("mustContain");  // "$DIR" is the temp directory

    const QString img = "train-images-idx3-ubyte";
    const QString lab = "train-labels-idx1-ubyte";
    const QByteArray validImg = idxImages(2, 3, 4);
    const QByteArray validLab = idxLabels(5);

    // Magic, type and rank.
    QTest::addRow("images: wrong magic") << "images" << img << idxImages(2, 3, 4, 0, 0x12345678)
                                         << QStringList{img, "magic", "expected 0x00000803", "found 0x12345678"};
    QTest::addRow("labels: wrong magic") << "labels" << lab << idxLabels(5, 0, 0xdeadbeef)
                                         << QStringList{lab, "magic", "expected 0x00000801", "found 0xdeadbeef"};
    QTest::addRow("images: doubly gzipped")
        << "images" << img + ".gz" << gzip(gzip(validImg))
        << QStringList{img + ".gz", "magic", "expected 0x00000803", "found 0x1f8b0800", "gzipped twice"};
    QTest::addRow("labels: doubly gzipped")
        << "labels" << lab + ".gz" << gzip(gzip(validLab))
        << QStringList{lab + ".gz", "magic", "expected 0x00000801", "found 0x1f8b0800", "gzipped twice"};
    QTest::addRow("images: type byte float")
        << "images" << img << idxImages(2, 3, 4, 0, 0x00000d03) << QStringList{img, "type", "expected 8", "found 13"};
    QTest::addRow("labels: type byte int")
        << "labels" << lab << idxLabels(5, 0, 0x00000c01) << QStringList{lab, "type", "expected 8", "found 12"};
    QTest::addRow("images: rank 2") << "images" << img << idxImages(2, 3, 4, 0, 0x00000802)
                                    << QStringList{img, "rank", "expected 3", "found 2"};
    QTest::addRow("images: labels file given")
        << "images" << img << validLab << QStringList{img, "rank", "expected 3", "found 1", "labels file"};
    QTest::addRow("labels: images file given")
        << "labels" << lab << validImg << QStringList{lab, "rank", "expected 1", "found 3", "images file"};

    // Dimensions.
    QTest::addRow("images: zero count") << "images" << img << idxImages(0, 3, 4)
                                        << QStringList{img, "image count", "expected > 0", "found 0"};
    QTest::addRow("images: zero rows") << "images" << img << idxImages(2, 0, 4)
                                       << QStringList{img, "rows", "expected > 0", "found 0"};
    QTest::addRow("images: zero cols") << "images" << img << idxImages(2, 3, 0)
                                       << QStringList{img, "cols", "expected > 0", "found 0"};
    QTest::addRow("labels: zero count") << "labels" << lab << idxLabels(0)
                                        << QStringList{lab, "label count", "expected > 0", "found 0"};
    QTest::addRow("images: size overflows")
        << "images" << img << QByteArray(be32(0x803) + be32(0xffffffff) + be32(0xffffffff) + be32(0xffffffff))
        << QStringList{img, "image count * rows * cols", "expected a size that fits",
                       "found 4294967295 * 4294967295 * 4294967295"};

    // Payload length.
    QTest::addRow("images: payload short by 1")
        << "images" << img << idxImages(2, 3, 4, -1)
        << QStringList{img, "payload", "expected 24 bytes", "found 23 bytes", "truncated"};
    QTest::addRow("images: trailing byte")
        << "images" << img << idxImages(2, 3, 4, +1)
        << QStringList{img, "payload", "expected 24 bytes", "found 25 bytes", "trailing"};
    QTest::addRow("images: huge header, no payload")
        << "images" << img << QByteArray(be32(0x803) + be32(1) + be32(65536) + be32(65536))
        << QStringList{img, "payload", "expected 4294967296 bytes", "found 0 bytes"};
    QTest::addRow("labels: payload short by 1")
        << "labels" << lab << idxLabels(5, -1)
        << QStringList{lab, "payload", "expected 5 bytes", "found 4 bytes", "truncated"};
    QTest::addRow("labels: trailing byte")
        << "labels" << lab << idxLabels(5, +1)
        << QStringList{lab, "payload", "expected 5 bytes", "found 6 bytes", "trailing"};

    // Truncated headers: every length short of the magic, then partial dims.
    for (int n = 0; n < 4; ++n) {
        const QString found = QString("found %1 %2").arg(n).arg(n == 1 ? "byte " : "bytes");
        QTest::addRow("images: header of %d byte(s)", n)
            << "images" << img << validImg.left(n) << QStringList{img, "magic", "expected 4 bytes", found};
        QTest::addRow("labels: header of %d byte(s)", n)
            << "labels" << lab << validLab.left(n) << QStringList{lab, "magic", "expected 4 bytes", found};
    }
    QTest::addRow("images: count cut") << "images" << img << validImg.left(6)
                                       << QStringList{img, "image count", "expected 4 bytes at offset 4",
                                                      "found 2 bytes"};
    QTest::addRow("images: rows cut") << "images" << img << validImg.left(11)
                                      << QStringList{img, "rows", "expected 4 bytes at offset 8", "found 3 bytes"};
    QTest::addRow("images: cols cut") << "images" << img << validImg.left(13)
                                      << QStringList{img, "cols", "expected 4 bytes at offset 12", "found 1 byte "};
    QTest::addRow("labels: count cut") << "labels" << lab << validLab.left(7)
                                       << QStringList{lab, "label count", "expected 4 bytes at offset 4",
                                                      "found 3 bytes"};

    // Label values.
    QByteArray badLabel = validLab;
    badLabel[8 + 4] = char(10);
    QTest::addRow("labels: value 10 at index 4")
        << "labels" << lab << badLabel << QStringList{lab, "label 4", "expected a value < 10", "found 10"};
    QByteArray badLabel0 = validLab;
    badLabel0[8] = char(255);
    QTest::addRow("labels: value 255 at index 0")
        << "labels" << lab + ".gz" << gzip(badLabel0)
        << QStringList{lab + ".gz", "label 0", "expected a value < 10", "found 255"};

    // gzip framing.
    const QByteArray gz = gzip(validImg);
    const QByteArray cut = gz.left(gz.size() / 2);
    QTest::addRow("gzip: truncated stream")
        << "images" << img + ".gz" << cut
        << QStringList{img + ".gz", "gzip stream", "expected the end of the compressed data",
                       QString("found end of file after %1 bytes").arg(cut.size())};
    QTest::addRow("gzip: trailer cut") << "images" << img + ".gz" << gz.left(gz.size() - 1)
                                       << QStringList{img + ".gz", "gzip stream",
                                                      "expected the end of the compressed data",
                                                      QString("found end of file after %1 bytes").arg(gz.size() - 1)};
    QTest::addRow("gzip: magic only") << "images" << img + ".gz" << QByteArray("\x1f\x8b", 2)
                                      << QStringList{img + ".gz", "gzip stream",
                                                     "expected the end of the compressed data",
                                                     "found end of file after 2 bytes"};
    QTest::addRow("gzip: garbage after magic")
        << "images" << img + ".gz" << (QByteArray("\x1f\x8b", 2) + QByteArray(64, '\xa5'))
        << QStringList{img + ".gz", "gzip stream", "expected valid deflate data", "found corrupt data"};
    QByteArray flipped = gz;
    flipped[12] = char(flipped[12] ^ 0xff);
    QTest::addRow("gzip: corrupt deflate data")
        << "images" << img + ".gz" << flipped
        << QStringList{img + ".gz", "gzip stream", "expected valid deflate data", "found corrupt data"};
    QTest::addRow("gzip: garbage after member")
        << "images" << img + ".gz" << gz + "xyz"
        << QStringList{img + ".gz", "gzip stream", "expected end of file after the last gzip member",
                       "found 3 trailing bytes"};

    // Files and directories.
    QTest::addRow("missing file") << "missing" << img << QByteArray()
                                  << QStringList{"$DIR/" + img, "cannot open", "No such file"};
    for (const char* b :
         {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
        const QString base = b;
        QTest::addRow("dir: no %s", qPrintable(base))
            << "dir" << base << QByteArray()
            << QStringList{"$DIR", base, "expected a file named " + base + " or " + base + ".gz", "found neither"};
    }
    QTest::addRow("dir: train counts differ")
        << "dir" << lab << idxLabels(4)
        << QStringList{"$DIR/" + lab, "label count", "expected 3", "image count in train-images-idx3-ubyte", "found 4"};
    QTest::addRow("dir: test counts differ")
        << "dir"
        << "t10k-labels-idx1-ubyte" << idxLabels(1)
        << QStringList{"$DIR/t10k-labels-idx1-ubyte", "label count", "expected 2", "found 1"};
    QTest::addRow("dir: 32x32 images") << "dir" << img << idxImages(3, 32, 32)
                                       << QStringList{"$DIR/" + img, "rows x cols", "expected 28x28", "found 32x32"};
    QTest::addRow("dir: bad label inside")
        << "dir"
        << "t10k-labels-idx1-ubyte" << QByteArray(be32(0x801) + be32(2) + QByteArray("\x01\x0b", 2))
        << QStringList{"$DIR/t10k-labels-idx1-ubyte", "label 1", "expected a value < 10", "found 11"};
    QTest::addRow("dir: not a directory")
        << "nodir"
        << "nope" << QByteArray() << QStringList{"$DIR/nope", "expected a directory", "found nothing"};
}

void TestIdxReader::rejects() {
    QFETCH(QString, mode);
    QFETCH(QString, file);
    QFETCH(QByteArray, bytes);
    QFETCH(QStringList, mustContain);

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString dir = tmp.path();
    const QString path = dir + "/" + file;

    std::function<void()> call;
    if (mode == "images" || mode == "labels") {
        writeFile(path, bytes);
        if (mode == "images")
            call = [&] { read_idx_images(path.toStdString()); };
        else
            call = [&] { read_idx_labels(path.toStdString()); };
    } else if (mode == "missing") {
        call = [&] { read_idx_images(path.toStdString()); };
    } else if (mode == "dir") {
        writeValidDirectory(dir);
        QFile::remove(path);
        QFile::remove(path + ".gz");
        if (!bytes.isNull()) writeFile(path, bytes);
        call = [&] { load_idx_directory(dir.toStdString()); };
    } else if (mode == "nodir") {
        call = [&] { load_idx_directory(path.toStdString()); };
    } else {
        QFAIL(qPrintable("unknown mode " + mode));
    }

    const QString message = inputErrorOf(call);
    QVERIFY2(!message.isNull(), "expected an InputError, got none");
    for (QString part : mustContain) {
        part.replace("$DIR", dir);
        QVERIFY2(message.contains(part), qPrintable(QString("message lacks '%1': %2").arg(part, message)));
    }
}

// engine/formats/idx_cache.h: a .gz is inflated once; later reads take the cached
// bytes, but only while their length and CRC-32 match the gzip trailer.
void TestIdxReader::inflateCacheServesOnlyVerifiedBytes() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QByteArray saved = qgetenv("SAVEPOINT_CACHE_DIR");
    const bool had = qEnvironmentVariableIsSet("SAVEPOINT_CACHE_DIR");
    auto restore = qScopeGuard([&] {
        if (had)
            qputenv("SAVEPOINT_CACHE_DIR", saved);
        else
            qunsetenv("SAVEPOINT_CACHE_DIR");
    });
    const QString cache = tmp.filePath("cache");
    qputenv("SAVEPOINT_CACHE_DIR", cache.toUtf8());
    const QByteArray images = idxImages(3, 28, 28);
    writeFile(tmp.filePath("i.gz"), gzip(images));
    const std::string path = tmp.filePath("i.gz").toStdString();
    const std::vector<std::uint8_t> want = toVec(images.mid(16));

    // First read: inflated and stored.
    QVERIFY(read_idx_images(path).pixels == want);
    const QStringList entries = QDir(cache + "/datasets").entryList(QDir::Files);
    QCOMPARE(entries.size(), 1);
    const QString entry = cache + "/datasets/" + entries.first();
    QCOMPARE(QFileInfo(entry).size(), qint64(images.size()));

    // Second read: served from the entry, which is not rewritten.
    const QDateTime written = QFileInfo(entry).lastModified();
    QTest::qSleep(20);
    QVERIFY(read_idx_images(path).pixels == want);
    QCOMPARE(QFileInfo(entry).lastModified(), written);

    // The key is the content's: a copy of the .gz elsewhere shares the entry.
    QVERIFY(QFile::copy(tmp.filePath("i.gz"), tmp.filePath("copy.gz")));
    QVERIFY(read_idx_images(tmp.filePath("copy.gz").toStdString()).pixels == want);
    QCOMPARE(QDir(cache + "/datasets").entryList(QDir::Files).size(), 1);
    QCOMPARE(QFileInfo(entry).lastModified(), written);

    // A damaged entry (same length, one byte changed): CRC mismatch, not used;
    // the right bytes come from the .gz and the entry is written anew.
    // An entry of the same bytes under another key (an older key scheme) is
    // dropped when the entry is written anew; an unrelated one is kept.
    QByteArray bad = images;
    bad[100] = char(bad[100] ^ 0x40);
    writeFile(entry, bad);
    const QString suffix = entries.first().mid(entries.first().indexOf('-'));
    const QString stale = cache + "/datasets/0123abcd" + suffix;
    const QString unrelated = cache + "/datasets/0123abcd-00000000.idx";
    writeFile(stale, images);
    writeFile(unrelated, images);
    QVERIFY(read_idx_images(path).pixels == want);
    QFile f(entry);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), images);
    f.close();
    QVERIFY(!QFileInfo::exists(stale));
    QVERIFY(QFileInfo::exists(unrelated));
    QVERIFY(QFile::remove(unrelated));

    // A truncated entry is not used either.
    writeFile(entry, images.left(images.size() - 1));
    QVERIFY(read_idx_images(path).pixels == want);

    // The .gz replaced at the same path (same image count, so the same inflated
    // length): the entry of the old file is not served for the new one.
    QByteArray replaced = images;
    for (int i = 16; i < replaced.size(); i += 5) replaced[i] = char(255 - replaced[i]);
    writeFile(tmp.filePath("i.gz"), gzip(replaced));
    QVERIFY(read_idx_images(path).pixels == toVec(replaced.mid(16)));
    QCOMPARE(QDir(cache + "/datasets").entryList(QDir::Files).size(), 2);

    // Another .gz gets its own entry (the third); "off" disables the cache.
    const QByteArray other = idxImages(4, 28, 28);
    writeFile(tmp.filePath("j.gz"), gzip(other));
    QVERIFY(read_idx_images(tmp.filePath("j.gz").toStdString()).pixels == toVec(other.mid(16)));
    QCOMPARE(QDir(cache + "/datasets").entryList(QDir::Files).size(), 3);
    qputenv("SAVEPOINT_CACHE_DIR", "off");
    writeFile(tmp.filePath("k.gz"), gzip(idxImages(5, 28, 28)));
    QCOMPARE(read_idx_images(tmp.filePath("k.gz").toStdString()).count, std::int64_t(5));
    QCOMPARE(QDir(cache + "/datasets").entryList(QDir::Files).size(), 3);
}

void TestIdxReader::parsesTinyRawAndGzipToSameBytes() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QByteArray images = idxImages(2, 3, 4);
    const QByteArray labels = idxLabels(5);
    writeFile(tmp.filePath("i"), images);
    writeFile(tmp.filePath("i.gz"), gzip(images));
    writeFile(tmp.filePath("l"), labels);
    writeFile(tmp.filePath("l.gz"), gzip(labels));

    const IdxImages raw = read_idx_images(tmp.filePath("i").toStdString());
    const IdxImages gz = read_idx_images(tmp.filePath("i.gz").toStdString());
    QCOMPARE(raw.count, std::int64_t(2));
    QCOMPARE(raw.rows, std::int64_t(3));
    QCOMPARE(raw.cols, std::int64_t(4));
    QCOMPARE(gz.count, raw.count);
    QCOMPARE(gz.rows, raw.rows);
    QCOMPARE(gz.cols, raw.cols);
    QVERIFY(raw.pixels == toVec(images.mid(16)));
    QVERIFY(gz.pixels == raw.pixels);

    const IdxLabels lraw = read_idx_labels(tmp.filePath("l").toStdString());
    const IdxLabels lgz = read_idx_labels(tmp.filePath("l.gz").toStdString());
    QVERIFY(lraw.labels == (std::vector<std::uint8_t>{0, 1, 2, 3, 4}));
    QVERIFY(lgz.labels == lraw.labels);

    // In-memory parsing agrees with reading the file, and num_classes is honoured.
    QVERIFY(parse_idx_images(toVec(images), "mem").pixels == raw.pixels);
    QCOMPARE(parse_idx_labels(toVec(labels), "mem", 5).labels.size(), std::size_t(5));
    const QString msg = inputErrorOf([&] { parse_idx_labels(toVec(labels), "mem", 4); });
    QVERIFY2(msg.contains("mem: label 4: expected a value < 4, found 4"), qPrintable(msg));
}

void TestIdxReader::readsConcatenatedGzipMembers() {
    // `cat a.gz b.gz` is a valid gzip file; gunzip yields both parts.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QByteArray images = idxImages(2, 3, 4);
    writeFile(tmp.filePath("i.gz"), gzip(images.left(10)) + gzip(images.mid(10)));
    const auto bytes = read_maybe_gzipped(tmp.filePath("i.gz").toStdString());
    QVERIFY(bytes == toVec(images));
}

void TestIdxReader::capsDecompressedSize() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QByteArray zeros(1000, '\0');
    writeFile(tmp.filePath("raw"), zeros);
    writeFile(tmp.filePath("z.gz"), gzip(zeros));

    QCOMPARE(read_maybe_gzipped(tmp.filePath("raw").toStdString(), 1000).size(), std::size_t(1000));
    QCOMPARE(read_maybe_gzipped(tmp.filePath("z.gz").toStdString(), 1000).size(), std::size_t(1000));

    QString msg = inputErrorOf([&] { read_maybe_gzipped(tmp.filePath("raw").toStdString(), 999); });
    QVERIFY2(msg.contains("raw: file size: expected at most 999 bytes, found more than 999"), qPrintable(msg));
    msg = inputErrorOf([&] { read_maybe_gzipped(tmp.filePath("z.gz").toStdString(), 100); });
    QVERIFY2(msg.contains("z.gz: decompressed size: expected at most 100 bytes, "
                          "found more than 100"),
             qPrintable(msg));
}

void TestIdxReader::rejectsEveryTruncation() {
    // Every proper prefix of a valid file, raw or gzipped, is an InputError:
    // never a crash, an over-read or a silently short dataset.
    const QByteArray images = idxImages(2, 3, 4);
    const QByteArray labels = idxLabels(5);
    for (int n = 0; n < images.size(); ++n)
        QVERIFY2(!inputErrorOf([&] { parse_idx_images(toVec(images.left(n)), "i"); }).isNull(),
                 qPrintable(QString("images prefix %1").arg(n)));
    for (int n = 0; n < labels.size(); ++n)
        QVERIFY2(!inputErrorOf([&] { parse_idx_labels(toVec(labels.left(n)), "l"); }).isNull(),
                 qPrintable(QString("labels prefix %1").arg(n)));

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QByteArray gz = gzip(images);
    for (int n = 2; n < gz.size(); ++n) {
        const QString path = tmp.filePath(QString("p%1.gz").arg(n));
        writeFile(path, gz.left(n));
        const QString msg = inputErrorOf([&] { read_idx_images(path.toStdString()); });
        QVERIFY2(msg.contains(path), qPrintable(QString("gzip prefix %1: %2").arg(n).arg(msg)));
    }
}

void TestIdxReader::survivesHeaderMutations() {
    // Any single-byte change to a header either still parses (e.g. it hit the
    // payload) or is an InputError; nothing else may escape.
    const QByteArray images = idxImages(2, 3, 4);
    for (int pos = 0; pos < 16; ++pos) {
        for (int value : {0x00, 0x01, 0x03, 0x08, 0x7f, 0x80, 0xff}) {
            QByteArray m = images;
            m[pos] = char(value);
            try {
                const IdxImages r = parse_idx_images(toVec(m), "m");
                QCOMPARE(std::int64_t(r.pixels.size()), r.count * r.rows * r.cols);
            } catch (const InputError&) {
            }
        }
    }
}

void TestIdxReader::readsRealFashionMnist() {
    if (!QFileInfo(kFashionDir).isDir()) QSKIP("dataset-fashion-mnist is not installed");
    const std::string dir = kFashionDir.toStdString();

    const IdxLabels labels = read_idx_labels(dir + "/train-labels-idx1-ubyte.gz");
    QCOMPARE(labels.labels.size(), std::size_t(60000));
    const std::set<std::uint8_t> classes(labels.labels.begin(), labels.labels.end());
    QCOMPARE(classes.size(), std::size_t(10));

    const IdxImages images = read_idx_images(dir + "/train-images-idx3-ubyte.gz");
    QCOMPARE(images.count, std::int64_t(60000));
    QCOMPARE(images.rows, std::int64_t(28));
    QCOMPARE(images.cols, std::int64_t(28));
    QCOMPARE(images.pixels.size(), std::size_t(60000) * 28 * 28);

    QCOMPARE(read_idx_labels(dir + "/t10k-labels-idx1-ubyte.gz").labels.size(), std::size_t(10000));
    QCOMPARE(read_idx_images(dir + "/t10k-images-idx3-ubyte.gz").count, std::int64_t(10000));
}

QTEST_APPLESS_MAIN(TestIdxReader)
#include "test_idx_reader.moc"
