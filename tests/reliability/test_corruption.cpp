// Corruption: every damage must be detected, 100%, and never offered as usable.
//  - In-process, on the real head checkpoint of a finished run: truncation at
//    every section boundary (header, meta, each tensor record header and data,
//    footer fields) and at 200 random offsets, 300 random bit flips plus one in
//    every section: verify_checkpoint_file must refuse each.
//  - Through the real CLI, per damage class (truncations, bit flips in header /
//    meta / payload / footer, a file swapped with another valid checkpoint, a
//    deleted file, a zero-length file, two damaged in a row): `savepoint-cli
//    verify` exits 1 naming the file; on a fresh copy `resume` falls back to the
//    previous usable checkpoint, says so, and ends bit-identical to an
//    uninterrupted run.
//
//   ctest --test-dir build -R test_corruption --output-on-failure
#include "reliability_support.h"
#include "script_fixtures.h"

#include <QtTest>

#include <random>

using namespace reliability;

class TestCorruption : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    QString base_, reference_;
    QByteArray head_;  // the intact head checkpoint (#4, global step 12)
    QList<QPair<qint64, QString>> boundaries_;
    const QString run_ = QStringLiteral("r");

    QString ckpt(const QString& home, int id) const {
        return home + QStringLiteral("/checkpoints/r/ckpt-%1.svpt").arg(id, 8, 10, QLatin1Char('0'));
    }

    bool detects(const QByteArray& damaged, QString* error) {
        const QString path = tmp_.filePath(QStringLiteral("probe.svpt"));
        if (!testsupport::writeAll(path, damaged)) return false;
        auto v = savepoint::verify_checkpoint_file(path.toStdString());
        *error = QString::fromStdString(v.error);
        return !v.ok && !v.error.empty();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        base_ = tmp_.filePath(QStringLiteral("base"));
        CliResult r = reliability::runCli(tinyTrain(base_, run_, 2, 6, 3));
        QVERIFY2(r.exitCode == 0 && savedLines(r.out).size() == 4, r.describe().constData());
        reference_ = testsupport::paramsShaFromOutput(r.out);
        head_ = testsupport::readAll(ckpt(base_, 4));
        QVERIFY(head_.size() > 1000);

        // Section boundaries of the real file.
        const auto* data = reinterpret_cast<const std::uint8_t*>(head_.constData());
        auto c = savepoint::parse_checkpoint_body(data, static_cast<std::size_t>(head_.size()), "head");
        const qint64 size = head_.size();
        const qint64 metaEnd = savepoint::kCheckpointHeaderBytes + static_cast<qint64>(c.meta.dump().size());
        boundaries_ << qMakePair(qint64(0), QStringLiteral("zero length"))
                    << qMakePair(qint64(8), QStringLiteral("after magic"))
                    << qMakePair(qint64(16), QStringLiteral("inside header"))
                    << qMakePair(qint64(32), QStringLiteral("end of header"));
        // The meta length from the header (the dump above may differ in key order).
        quint64 metaLen = 0;
        memcpy(&metaLen, data + 16, 8);
        Q_UNUSED(metaEnd);
        boundaries_ << qMakePair(qint64(32 + metaLen / 2), QStringLiteral("mid meta"))
                    << qMakePair(qint64(32 + metaLen), QStringLiteral("end of meta"));
        for (const auto& t : c.tensors) {
            const qint64 dataStart = t.data - data;
            const qint64 recStart =
                dataStart - (4 + static_cast<qint64>(t.name.size()) + 4 + 8 * static_cast<qint64>(t.dims.size()) + 8);
            boundaries_ << qMakePair(recStart + 2,
                                     QStringLiteral("tensor %1 name length").arg(QString::fromStdString(t.name)))
                        << qMakePair(dataStart,
                                     QStringLiteral("tensor %1 data start").arg(QString::fromStdString(t.name)));
            if (t.nbytes > 1)
                boundaries_ << qMakePair(dataStart + static_cast<qint64>(t.nbytes) / 2,
                                         QStringLiteral("tensor %1 mid data").arg(QString::fromStdString(t.name)));
        }
        boundaries_ << qMakePair(size - 48, QStringLiteral("footer start"))
                    << qMakePair(size - 40, QStringLiteral("after footer length"))
                    << qMakePair(size - 8, QStringLiteral("before end magic"))
                    << qMakePair(size - 1, QStringLiteral("last byte missing"));
        qInfo("%lld section boundaries in a %lld-byte checkpoint with %lld tensors",
              static_cast<long long>(boundaries_.size()), static_cast<long long>(size),
              static_cast<long long>(c.tensors.size()));
    }

    void inProcessTruncations() {
        QString err;
        int n = 0;
        for (const auto& b : boundaries_) {
            QVERIFY2(detects(head_.left(b.first), &err),
                     qPrintable(QStringLiteral("truncation at %1 (%2) not detected").arg(b.first).arg(b.second)));
            ++n;
        }
        std::mt19937_64 rng(4);
        for (int i = 0; i < 200; ++i) {
            const qint64 at = static_cast<qint64>(rng() % static_cast<quint64>(head_.size()));
            QVERIFY2(detects(head_.left(at), &err),
                     qPrintable(QStringLiteral("truncation at %1 not detected").arg(at)));
            ++n;
        }
        // Appended garbage is damage too.
        QVERIFY(detects(head_ + QByteArray("x"), &err));
        qInfo("%d truncations, all detected", n + 1);
    }

    void inProcessBitFlips() {
        QString err;
        std::mt19937_64 rng(7);
        QList<qint64> offsets;
        for (const auto& b : boundaries_)
            if (b.first < head_.size()) offsets << b.first;
        offsets << 0 << 9 << 20 << 40 << head_.size() - 45 << head_.size() - 20
                << head_.size() - 3;  // header, meta, footer fields
        for (int i = 0; i < 300; ++i) offsets << static_cast<qint64>(rng() % static_cast<quint64>(head_.size()));
        for (qint64 at : offsets) {
            QByteArray d = head_;
            d[at] = static_cast<char>(d[at] ^ (1 << (rng() % 8)));
            QVERIFY2(detects(d, &err), qPrintable(QStringLiteral("bit flip at %1 not detected").arg(at)));
        }
        qInfo("%lld bit flips, all detected", static_cast<long long>(offsets.size()));
    }

    void cli_data() {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<qint64>("arg");
        QTest::addColumn<int>("expectFrom");
        const qint64 size = head_.size();
        QTest::newRow("truncated: zero length") << "truncate" << qint64(0) << 3;
        QTest::newRow("truncated: end of header") << "truncate" << qint64(32) << 3;
        QTest::newRow("truncated: mid meta") << "truncate" << boundaries_[4].first << 3;
        QTest::newRow("truncated: first tensor data") << "truncate" << boundaries_[7].first << 3;
        QTest::newRow("truncated: footer start") << "truncate" << size - 48 << 3;
        QTest::newRow("truncated: last byte") << "truncate" << size - 1 << 3;
        QTest::newRow("truncated: random offset")
            << "truncate" << qint64(std::mt19937_64(11)() % static_cast<quint64>(size)) << 3;
        QTest::newRow("bit flip: header version") << "flip" << qint64(9) << 3;
        QTest::newRow("bit flip: meta") << "flip" << qint64(40) << 3;
        QTest::newRow("bit flip: payload") << "flip" << size / 2 << 3;
        QTest::newRow("bit flip: footer length") << "flip" << size - 45 << 3;
        QTest::newRow("bit flip: footer sha256") << "flip" << size - 20 << 3;
        QTest::newRow("bit flip: end magic") << "flip" << size - 3 << 3;
        QTest::newRow("swapped with checkpoint #3") << "swap" << qint64(3) << 3;
        QTest::newRow("deleted") << "delete" << qint64(0) << 3;
        QTest::newRow("two in a row: payload of #4 and #3") << "flip2" << size / 2 << 2;
    }

    void cli() {
        QFETCH(QString, damage);
        QFETCH(qint64, arg);
        QFETCH(int, expectFrom);
        QString homes[2];
        for (int i = 0; i < 2; ++i) {
            homes[i] = tmp_.filePath(QStringLiteral("%1-%2-%3").arg(damage).arg(arg).arg(i));
            QDir(homes[i]).removeRecursively();
            QVERIFY(copyTree(base_, homes[i]));
            const QString f = ckpt(homes[i], 4);
            if (damage == QLatin1String("truncate"))
                QVERIFY(testsupport::truncateFile(f, arg));
            else if (damage == QLatin1String("flip"))
                QVERIFY(testsupport::flipByte(f, arg, 0x10));
            else if (damage == QLatin1String("flip2"))
                QVERIFY(testsupport::flipByte(f, arg, 0x10) && testsupport::flipByte(ckpt(homes[i], 3), arg, 0x10));
            else if (damage == QLatin1String("swap"))
                QVERIFY(QFile::remove(f) && QFile::copy(ckpt(homes[i], static_cast<int>(arg)), f));
            else if (damage == QLatin1String("delete"))
                QVERIFY(QFile::remove(f));
        }
        // verify: exit 1, the damaged file named.
        CliResult v = reliability::runCli({QStringLiteral("verify"), QStringLiteral("--home"), homes[0]});
        QVERIFY2(v.exitCode == 1, v.describe().constData());
        QVERIFY2(v.err.contains(QStringLiteral("DAMAGED r #4 ") + ckpt(homes[0], 4)) ||
                     v.err.contains(QStringLiteral("DAMAGED r #4 ")),
                 v.describe().constData());
        QVERIFY2(!v.out.contains(QStringLiteral("ok      r #4")), v.describe().constData());
        if (damage == QLatin1String("flip2"))
            QVERIFY2(v.err.contains(QStringLiteral("DAMAGED r #3 ")), v.describe().constData());
        // After verify, nothing damaged is offered.
        HomeState s = checkHome(homes[0], run_);
        QVERIFY2(s.ok, qPrintable(s.why));
        QVERIFY(!hasCommitted(s, 4));
        QVERIFY(s.head && s.head->id == expectFrom);

        // resume on an untouched damaged copy: falls back, says so, same final parameters.
        CliResult r = reliability::runCli(resumeArgs(homes[1], run_));
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        auto from = resumedFrom(r.out);
        QVERIFY2(from && from->id == expectFrom, r.describe().constData());
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("#4\\b.*(damaged|corrupt|missing|not usable)"))),
                 r.describe().constData());
        QVERIFY2(testsupport::paramsShaFromOutput(r.out) == reference_, r.describe().constData());
        HomeState e = checkHome(homes[1], run_);
        QVERIFY2(e.ok, qPrintable(e.why));
        for (const auto& h : homes) QDir(h).removeRecursively();
    }

    // A TorchScript run (BatchNorm and dropout, tests/support/script_fixtures.h):
    // one bit of its batch-norm statistics flipped in the head checkpoint is
    // caught by verify, and the resume falls back and ends with the same bits.
    void scriptModelBufferFlip() {
        const QString model = tmp_.filePath(QStringLiteral("bn_mlp.pt")), data = tmp_.filePath(QStringLiteral("q.pt"));
        testsupport::bnMlp(64, 16, 4).save(model.toStdString());
        testsupport::writeTensorFile(data.toStdString(), testsupport::quadrantData(256, 64));
        QStringList args = tinyTrain(tmp_.filePath(QStringLiteral("script")), run_, 2, 6, 3);
        args[args.indexOf(QStringLiteral("mlp"))] = model;
        args[args.indexOf(QStringLiteral("synthetic"))] = data;
        CliResult t = reliability::runCli(args);
        QVERIFY2(t.exitCode == 0 && savedLines(t.out).size() == 4, t.describe().constData());
        const QString reference = testsupport::paramsShaFromOutput(t.out);
        const QString home = tmp_.filePath(QStringLiteral("script"));
        const QByteArray bytes = testsupport::readAll(ckpt(home, 4));
        const auto* start = reinterpret_cast<const std::uint8_t*>(bytes.constData());
        auto c = savepoint::parse_checkpoint_body(start, static_cast<std::size_t>(bytes.size()), "head");
        qint64 at = -1;
        for (const auto& tensor : c.tensors)
            if (tensor.name == "model/buffer/bn.running_mean") at = tensor.data - start + 5;
        QVERIFY2(at > 0, "no model/buffer/bn.running_mean in the checkpoint");
        QVERIFY(testsupport::flipByte(ckpt(home, 4), at, 0x01));
        CliResult v = reliability::runCli({QStringLiteral("verify"), QStringLiteral("--home"), home});
        QVERIFY2(v.exitCode == 1 && v.err.contains(QStringLiteral("DAMAGED r #4 ")), v.describe().constData());
        CliResult r = reliability::runCli(resumeArgs(home, run_));
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        auto from = resumedFrom(r.out);
        QVERIFY2(from && from->id == 3, r.describe().constData());
        QVERIFY2(testsupport::paramsShaFromOutput(r.out) == reference, r.describe().constData());
    }
};

RELIABILITY_TEST_MAIN(TestCorruption)
#include "test_corruption.moc"
