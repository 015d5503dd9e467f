// Full disk and I/O errors.
//  - A real small tmpfs: the home lives on it, a filler file leaves less room
//    than the next checkpoint needs; the CLI must refuse before writing, say
//    which path needs how many bytes and how many are free, pause (not die),
//    leave the previous checkpoint and the registry intact while it waits, and
//    continue to the same final parameters once the test frees the space.
//  - The same tmpfs with its inodes used up: creating the temp file fails with
//    a real ENOSPC from the kernel in the middle of the save.
//  - The fault seam: ENOSPC, EIO and EROFS injected at the first statvfs,
//    open, write, fsync, close, rename and fsync_dir of the second save, and at
//    its registry transactions: a clear message naming the path (and, for
//    ENOSPC at the file, the bytes needed and free), a pause and retry, the
//    previous checkpoint intact, the same final parameters.
//
//   ctest --test-dir build -R test_disk_full --output-on-failure   (as root for the tmpfs cases)
#include "reliability_support.h"

#include "storage/durable_io.h"

#include <QtTest>

#include <sys/mount.h>

using namespace reliability;

namespace {

// A training process whose stderr is watched while it runs.
struct Watched {
    QProcess p;
    QString out, err;
    void start(const QStringList& args, const QProcessEnvironment& env = envWith()) {
        p.setProcessEnvironment(env);
        p.start(testsupport::cliPath(), args);
        p.waitForStarted(30000);
    }
    void pump() {
        p.waitForReadyRead(20);
        out += QString::fromUtf8(p.readAllStandardOutput());
        err += QString::fromUtf8(p.readAllStandardError());
    }
    bool waitFor(const std::function<bool()>& pred, int ms) {
        QElapsedTimer t;
        t.start();
        while (!pred()) {
            if (t.elapsed() > ms || p.state() == QProcess::NotRunning) {
                pump();
                return pred();
            }
            pump();
        }
        return true;
    }
    int finish(int ms = 120000) {
        if (!p.waitForFinished(ms)) p.kill();
        p.waitForFinished(5000);
        pump();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }
    QByteArray describe() const { return ("--- stdout ---\n" + out + "\n--- stderr ---\n" + err).toLocal8Bit(); }
};

}  // namespace

class TestDiskFull : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    QString reference_;
    qint64 ckptBytes_ = 0;
    QStringList trace_;
    const QString run_ = QStringLiteral("r");

    QStringList train(const QString& home, const QStringList& extra = {}) const {
        return tinyTrain(home, run_, 2, 6, 3, extra);
    }
    static QStringList retries(int n, const QString& seconds) {
        return {QStringLiteral("--disk-retries"), QString::number(n), QStringLiteral("--disk-retry-seconds"), seconds};
    }

    // Mounts a tmpfs with 64 inodes at `mnt` and trains run r in `*home` on it, interrupted
    // at step 4. `*home` stays empty if mounting is not permitted.
    CliResult interruptedOnInodeLimitedTmpfs(const QString& mnt, QString* home) {
        if (!mountTmpfs(mnt, QStringLiteral("size=64m,nr_inodes=64"))) return {};
        *home = mnt + QStringLiteral("/home");
        return reliability::runCli(train(*home, {QStringLiteral("--interrupt-at-step"), QStringLiteral("4")}));
    }
    // Creates empty files in `dir` until the filesystem has no inode left; returns them.
    static QStringList useUpInodes(const QString& dir) {
        QStringList fillers;
        for (int i = 0; i < 1000; ++i) {
            QFile f(dir + QStringLiteral("/f%1").arg(i));
            if (!f.open(QIODevice::WriteOnly)) break;
            fillers << f.fileName();
        }
        return fillers;
    }
    bool mountTmpfs(const QString& dir, const QString& options) {
        QDir().mkpath(dir);
        return ::mount("tmpfs", dir.toLocal8Bit().constData(), "tmpfs", 0, options.toLocal8Bit().constData()) == 0;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        const QString ref = tmp_.filePath(QStringLiteral("ref"));
        const QString traceFile = tmp_.filePath(QStringLiteral("trace.txt"));
        CliResult r =
            reliability::runCli(train(ref), 120000, envWith({{QStringLiteral("SAVEPOINT_FAULT_TRACE"), traceFile}}));
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        reference_ = testsupport::paramsShaFromOutput(r.out);
        const auto rows = testsupport::checkpointsJson(ref, run_);
        QVERIFY(!rows.isEmpty());
        ckptBytes_ = rows.first().toObject().value(QStringLiteral("bytes")).toInteger();
        QVERIFY(ckptBytes_ > 0);
        trace_ = QString::fromUtf8(testsupport::readAll(traceFile)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        qInfo("checkpoint size %lld bytes, %lld traced operations", static_cast<long long>(ckptBytes_),
              static_cast<long long>(trace_.size()));
    }

    void tmpfsFillsUp() {
        const QString mnt = tmp_.filePath(QStringLiteral("tmpfs"));
        if (!mountTmpfs(mnt, QStringLiteral("size=%1k").arg((ckptBytes_ * 3 + 8 * 1024 * 1024) / 1024)))
            QSKIP(qPrintable(QStringLiteral("mount -t tmpfs not permitted here (%1); run as root")
                                 .arg(QString::fromLocal8Bit(strerror(errno)))));
        auto unmount = qScopeGuard([&] { ::umount2(mnt.toLocal8Bit().constData(), MNT_DETACH); });
        const QString home = mnt + QStringLiteral("/home");
        CliResult b = reliability::runCli(train(home, {QStringLiteral("--interrupt-at-step"), QStringLiteral("4")}));
        QVERIFY2(b.exitCode == 3, b.describe().constData());
        const QByteArray firstBytes =
            testsupport::fileSha256(home + QStringLiteral("/checkpoints/r/ckpt-00000001.svpt"));
        QVERIFY(!firstBytes.isEmpty());

        // Leave half a checkpoint free: the next save cannot fit.
        const quint64 avail = savepoint::free_bytes(mnt.toStdString());
        const qint64 fill = static_cast<qint64>(avail) - ckptBytes_ / 2;
        QVERIFY(fill > 0);
        const QString filler = mnt + QStringLiteral("/filler");
        {
            QFile f(filler);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray chunk(1 << 16, 'x');
            for (qint64 left = fill; left > 0; left -= chunk.size())
                if (f.write(chunk.constData(), std::min<qint64>(left, chunk.size())) <= 0) break;
        }

        Watched w;
        w.start(resumeArgs(home, run_, retries(200, QStringLiteral("0.2"))));
        QVERIFY2(w.waitFor([&] { return w.err.contains(QLatin1String("training is paused")); }, 60000),
                 w.describe().constData());
        // The message names the path, the bytes needed and the bytes free.
        static const QRegularExpression msg(
            QStringLiteral("not enough space to write checkpoint (\\S+/checkpoints/r/ckpt-\\d+\\.svpt): needs (\\d+) "
                           "bytes, (\\d+) bytes free"));
        auto m = msg.match(w.err);
        QVERIFY2(m.hasMatch(), w.describe().constData());
        QVERIFY2(m.captured(1).startsWith(home), w.describe().constData());
        QVERIFY2(m.captured(2).toLongLong() > m.captured(3).toLongLong(), w.describe().constData());
        // While it waits: alive, previous checkpoint and registry intact.
        QThread::msleep(500);
        QCOMPARE(w.p.state(), QProcess::Running);
        HomeState s = checkHome(home, run_);
        QVERIFY2(s.ok, qPrintable(s.why));
        QVERIFY(hasCommitted(s, 1));
        QCOMPARE(testsupport::fileSha256(home + QStringLiteral("/checkpoints/r/ckpt-00000001.svpt")), firstBytes);
        QVERIFY(
            !QDir(home + QStringLiteral("/checkpoints/r")).entryList({QStringLiteral("*.tmp")}, QDir::Files).size());

        // Space comes back: it continues and finishes where an uninterrupted run does.
        QVERIFY(QFile::remove(filler));
        const int code = w.finish();
        QVERIFY2(code == 0, w.describe().constData());
        QVERIFY2(w.out.contains(QLatin1String("retrying the checkpoint")), w.describe().constData());
        QCOMPARE(testsupport::paramsShaFromOutput(w.out), reference_);
        HomeState e = checkHome(home, run_);
        QVERIFY2(e.ok, qPrintable(e.why));
        QVERIFY2(duplicateSaves(e).isEmpty(), qPrintable(duplicateSaves(e)));
    }

    void tmpfsOutOfInodes() {
        const QString mnt = tmp_.filePath(QStringLiteral("tmpfs-inodes"));
        QString home;
        const CliResult b = interruptedOnInodeLimitedTmpfs(mnt, &home);
        if (home.isEmpty()) QSKIP("mount -t tmpfs not permitted here; run as root");
        auto unmount = qScopeGuard([&] { ::umount2(mnt.toLocal8Bit().constData(), MNT_DETACH); });
        QVERIFY2(b.exitCode == 3, b.describe().constData());
        // The registry's -wal/-shm files exist only while a connection is open: hold one,
        // so the files the CLI needs exist and the first new inode it asks for is the temp file.
        savepoint::Registry holder(home.toStdString());
        const QStringList fillers = useUpInodes(mnt);
        QVERIFY(!fillers.isEmpty());
        Watched w;
        w.start(resumeArgs(home, run_, retries(200, QStringLiteral("0.2"))));
        QVERIFY2(w.waitFor([&] { return w.err.contains(QLatin1String("training is paused")); }, 60000),
                 w.describe().constData());
        QVERIFY2(w.err.contains(QRegularExpression(
                     QStringLiteral("cannot create \\S+/checkpoints/r/ckpt-\\d+\\.svpt\\.tmp: No space left on device "
                                    "\\(checkpoint needs \\d+ bytes, \\d+ bytes free\\)"))),
                 w.describe().constData());
        HomeState s = checkHome(home, run_);
        QVERIFY2(s.ok, qPrintable(s.why));
        QVERIFY(hasCommitted(s, 1));
        for (const auto& f : fillers) QFile::remove(f);
        QVERIFY2(w.finish() == 0, w.describe().constData());
        QCOMPARE(testsupport::paramsShaFromOutput(w.out), reference_);
        HomeState e = checkHome(home, run_);
        QVERIFY2(e.ok, qPrintable(e.why));
        QVERIFY2(duplicateSaves(e).isEmpty(), qPrintable(duplicateSaves(e)));
    }

    // Out of inodes with no registry connection open: SQLite cannot create the
    // registry's -wal and -shm files, and its own message ("unable to open
    // database file") does not say why. The CLI must name the cause, exit
    // non-zero and leave the home as it was.
    void tmpfsOutOfInodesBeforeTheRegistryOpens() {
        const QString mnt = tmp_.filePath(QStringLiteral("tmpfs-inodes-open"));
        QString home;
        const CliResult b = interruptedOnInodeLimitedTmpfs(mnt, &home);
        if (home.isEmpty()) QSKIP("mount -t tmpfs not permitted here; run as root");
        auto unmount = qScopeGuard([&] { ::umount2(mnt.toLocal8Bit().constData(), MNT_DETACH); });
        QVERIFY2(b.exitCode == 3, b.describe().constData());
        QVERIFY(!QFile::exists(home + QStringLiteral("/registry.sqlite-wal")));  // no connection open
        const QByteArray registryBefore = testsupport::fileSha256(home + QStringLiteral("/registry.sqlite"));
        const QStringList fillers = useUpInodes(mnt);
        QVERIFY(!fillers.isEmpty());
        for (const QStringList& args :
             {QStringList{QStringLiteral("runs"), QStringLiteral("--home"), home}, resumeArgs(home, run_, {})}) {
            CliResult r = reliability::runCli(args);
            QVERIFY2(r.exitCode != 0 && !r.crashed, r.describe().constData());
            QVERIFY2(r.err.contains(home + QStringLiteral("/registry.sqlite")) &&
                         r.err.contains(QLatin1String("No space left on device")),
                     r.describe().constData());
        }
        QCOMPARE(testsupport::fileSha256(home + QStringLiteral("/registry.sqlite")), registryBefore);
        for (const auto& f : fillers) QFile::remove(f);
        HomeState s = checkHome(home, run_);
        QVERIFY2(s.ok, qPrintable(s.why));
        QVERIFY(hasCommitted(s, 1));
    }

    void injected_data() {
        QTest::addColumn<int>("k");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("err");
        // The ops of the second save: from its registry insert to the next one.
        int start = -1, end = trace_.size();
        int inserts = 0;
        for (int i = 0; i < trace_.size(); ++i)
            if (trace_[i].section(QLatin1Char(' '), 1, 1) == QLatin1String("registry.insert_writing")) {
                ++inserts;
                if (inserts == 2) start = i;
                if (inserts == 3) {
                    end = i;
                    break;
                }
            }
        QVERIFY(start >= 0);
        QSet<QString> seen;
        for (int i = start; i < end; ++i) {
            const QString op = trace_[i].section(QLatin1Char(' '), 1, 1);
            if (seen.contains(op)) continue;
            seen.insert(op);
            for (const char* e : {"ENOSPC", "EIO", "EROFS"})
                QTest::addRow("%s %s (op %d)", qPrintable(op), e, i + 1) << (i + 1) << op << QString::fromLatin1(e);
        }
    }

    void injected() {
        QFETCH(int, k);
        QFETCH(QString, op);
        QFETCH(QString, err);
        const QString home = tmp_.filePath(QStringLiteral("inj-%1-%2").arg(k).arg(err));
        const QString traceFile = home + QStringLiteral(".trace");
        CliResult r = reliability::runCli(train(home, retries(3, QStringLiteral("0.1"))), 120000,
                                          envWith({{QStringLiteral("SAVEPOINT_FAULT_AT"), QString::number(k)},
                                                   {QStringLiteral("SAVEPOINT_FAULT_ERRNO"), err},
                                                   {QStringLiteral("SAVEPOINT_FAULT_TRACE"), traceFile}}));
        // Metric flushes are timed, so op k of this run may differ from the reference trace's:
        // judge the message by the op that really failed.
        const QString actual = QString::fromUtf8(testsupport::readAll(traceFile))
                                   .split(QLatin1Char('\n'))
                                   .value(k - 1)
                                   .section(QLatin1Char(' '), 1, 1);
        if (actual != op) qInfo("op %d was %s in this run (reference: %s)", k, qPrintable(actual), qPrintable(op));
        op = actual;
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        QCOMPARE(testsupport::paramsShaFromOutput(r.out), reference_);
        HomeState s = checkHome(home, run_);
        QVERIFY2(s.ok, qPrintable(s.why));
        QVERIFY(hasCommitted(s, 1));  // the previous checkpoint survived
        QVERIFY2(duplicateSaves(s).isEmpty(), qPrintable(duplicateSaves(s)));
        if (op.startsWith(QLatin1String("registry.commit")) && !r.err.contains(QLatin1String("error:"))) {
            // A commit of metrics (best effort) rather than of the checkpoint: nothing to report.
            return;
        }
        // With the limits this run was given, not "until it can be written".
        QVERIFY2(
            r.err.contains(QLatin1String("training is paused; it retries the checkpoint every 0.1 s, at most 3 times")),
            r.describe().constData());
        QVERIFY2(r.out.contains(QLatin1String("retrying the checkpoint")), r.describe().constData());
        const QString strerr = err == QLatin1String("ENOSPC") ? QStringLiteral("No space left on device")
                               : err == QLatin1String("EIO")  ? QStringLiteral("Input/output error")
                                                              : QStringLiteral("Read-only file system");
        const QString line = r.err.section(QLatin1String("error: "), 1, 1).section(QLatin1Char('\n'), 0, 0);
        // Names the path: the checkpoint (or its directory) or the registry.
        QVERIFY2(line.contains(home + QStringLiteral("/checkpoints/r")) ||
                     line.contains(home + QStringLiteral("/registry.sqlite")),
                 r.describe().constData());
        if (op == QLatin1String("statvfs") && err == QLatin1String("ENOSPC")) {
            QVERIFY2(line.contains(QRegularExpression(QStringLiteral("needs \\d+ bytes, \\d+ bytes free"))),
                     r.describe().constData());
        } else {
            QVERIFY2(line.contains(strerr), r.describe().constData());
            if (err == QLatin1String("ENOSPC") && !op.startsWith(QLatin1String("registry")) &&
                op != QLatin1String("fsync_dir"))
                QVERIFY2(line.contains(QRegularExpression(QStringLiteral("needs \\d+ bytes, \\d+ bytes free"))),
                         r.describe().constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestDiskFull)
#include "test_disk_full.moc"
