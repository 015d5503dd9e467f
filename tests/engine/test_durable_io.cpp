// Tests for durable file writing (engine/storage/durable_io.cpp): the final name never
// exists until commit, an existing file is never replaced, a failure at any
// step leaves no temp file behind, and a full disk is refused up front with
// the bytes needed and free.
#include "platform/errors.h"
#include "storage/background_sync.h"
#include "storage/durable_io.h"

#include "test_home.h"

#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

using namespace savepoint;

class TestDurableIo : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> dir_;
    std::string path(const char* name) const { return dir_->path().toStdString() + "/" + name; }
    QString q(const std::string& s) const { return QString::fromStdString(s); }

private Q_SLOTS:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
    }
    void cleanup() { set_fault_hook(nullptr); }

    void commitPublishesTheFinalNameOnly() {
        const std::string p = path("a.bin");
        const std::string big(3 << 20, 'z');  // exercises the unbuffered path too
        {
            DurableWriter w(p, 5 + big.size());
            w.write("hello", 5);
            QVERIFY(!file_exists(p));
            QVERIFY(file_exists(w.temp_path()));
            QCOMPARE(q(w.temp_path()), q(p + ".tmp"));
            w.write(big.data(), big.size());
            QVERIFY(!file_exists(p));
            w.commit();
            QCOMPARE(w.bytes_written(), std::uint64_t(5 + big.size()));
        }
        QVERIFY(file_exists(p));
        QVERIFY(!file_exists(p + ".tmp"));
        QCOMPARE(testsupport::readAll(q(p)), QByteArray("hello") + QByteArray::fromStdString(big));
        QCOMPARE(file_size(p), std::uint64_t(5 + big.size()));
    }

    void abandonedWriterLeavesNothing() {
        const std::string p = path("b.bin");
        {
            DurableWriter w(p, 10);
            w.write("0123456789", 10);
        }
        QVERIFY(!file_exists(p));
        QVERIFY(!file_exists(p + ".tmp"));
    }

    void existingFileIsNeverReplaced() {
        const std::string p = path("c.bin");
        QVERIFY(testsupport::writeAll(q(p), QByteArray("original")));
        try {
            DurableWriter w(p, 3);
            w.write("new", 3);
            w.commit();
            QFAIL("replaced an existing file");
        } catch (const StorageError& e) {
            QVERIFY2(q(e.what()).startsWith(QLatin1String("cannot rename to ") + q(p)), e.what());
            QCOMPARE(q(e.path()), q(p));
        }
        QCOMPARE(testsupport::readAll(q(p)), QByteArray("original"));
        QVERIFY(!file_exists(p + ".tmp"));
    }

    void staleTempFileFromACrashIsReplaced() {
        const std::string p = path("d.bin");
        QVERIFY(testsupport::writeAll(q(p + ".tmp"), QByteArray("stale half-written bytes")));
        {
            DurableWriter w(p, 4);
            w.write("good", 4);
            w.commit();
        }
        QCOMPARE(testsupport::readAll(q(p)), QByteArray("good"));
        QVERIFY(!file_exists(p + ".tmp"));
    }

    void failureAtEachStepLeavesNoTempFile_data() {
        QTest::addColumn<QString>("op");
        QTest::newRow("open") << "open";
        QTest::newRow("write") << "write";
        QTest::newRow("fsync") << "fsync";
        QTest::newRow("close") << "close";
        QTest::newRow("rename") << "rename";
    }
    void failureAtEachStepLeavesNoTempFile() {
        QFETCH(QString, op);
        const std::string p = path("e.bin");
        const std::string failing = op.toStdString();
        set_fault_hook([failing](const char* o, const std::string&) { return failing == o ? EIO : 0; });
        bool threw = false;
        try {
            DurableWriter w(p, 4);
            w.write("data", 4);
            w.commit();
        } catch (const StorageError& e) {
            threw = true;
            QCOMPARE(e.errnum(), EIO);
            QVERIFY2(q(e.what()).contains(QLatin1String("Input/output error")), e.what());
            QVERIFY(!e.disk_full());
        }
        set_fault_hook(nullptr);
        QVERIFY(threw);
        QVERIFY(!file_exists(p));
        QVERIFY(!file_exists(p + ".tmp"));
    }

    void outOfOrderWritesWithABackgroundSync() {
        // A checkpoint's order: the body first, its flush started on the helper,
        // then the head in front of it.
        const std::string p = path("g.bin");
        BackgroundSync sync;
        QStringList ops;
        set_fault_hook([&](const char* o, const std::string&) {
            ops << QString::fromLatin1(o);
            return 0;
        });
        const QByteArray head(100, 'h'), body = QByteArray(300 << 10, 'b') + QByteArray("tail");
        {
            DurableWriter w(p, std::uint64_t(head.size() + body.size()));
            w.seek(std::uint64_t(head.size()));
            w.write(body.constData(), std::size_t(body.size()));
            w.sync_in_background(sync);
            w.seek(0);
            w.write(head.constData(), std::size_t(head.size()));
            w.commit();
            QCOMPARE(w.bytes_written(), std::uint64_t(head.size() + body.size()));
        }
        set_fault_hook(nullptr);
        QCOMPARE(testsupport::readAll(q(p)), head + body);
        // Two syncs: the body's in the background, then the whole file's before the rename.
        QCOMPARE(ops.count(QStringLiteral("fsync")), 2);
        QVERIFY2(ops.indexOf(QStringLiteral("fsync")) < ops.lastIndexOf(QStringLiteral("write")),
                 qPrintable(ops.join(' ')));
        QVERIFY(!file_exists(p + ".tmp"));
    }

    void failedBackgroundSyncFailsTheCommit_data() {
        QTest::addColumn<int>("failing");  // which fsync fails: 1 the background one, 2 the final one
        QTest::newRow("background") << 1;
        QTest::newRow("final") << 2;
    }
    void failedBackgroundSyncFailsTheCommit() {
        QFETCH(int, failing);
        const std::string p = path("h.bin");
        BackgroundSync sync;
        int seen = 0;
        set_fault_hook([&](const char* o, const std::string&) {
            return std::string(o) == "fsync" && ++seen == failing ? EIO : 0;
        });
        bool threw = false;
        try {
            DurableWriter w(p, 8);
            w.seek(4);
            w.write("body", 4);
            w.sync_in_background(sync);
            w.seek(0);
            w.write("head", 4);
            w.commit();
        } catch (const StorageError& e) {
            threw = true;
            QVERIFY2(q(e.what()).startsWith(QLatin1String("cannot sync ")), e.what());
        }
        set_fault_hook(nullptr);
        QVERIFY(threw);
        QVERIFY(!file_exists(p));
        QVERIFY(!file_exists(p + ".tmp"));
    }

    void backgroundSyncReportsItsErrno() {
        BackgroundSync sync;
        // A descriptor that is not open: fdatasync's own error comes back from wait().
        int fd = ::open(path("i.bin").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        QVERIFY(fd >= 0);
        ::close(fd);
        sync.start(fd);
        QCOMPARE(sync.wait(), EBADF);
        sync.start(-1);
        QCOMPARE(sync.wait(), EBADF);
        // An errno from the fault seam comes back the same way, without a sync.
        sync.start(-1, ENOSPC);
        QCOMPARE(sync.wait(), ENOSPC);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, [&] {
            fd = ::open(path("i.bin").c_str(), O_WRONLY | O_CLOEXEC);
            sync.start(fd);
            sync.start(fd);  // the first was not waited for
        }());
        QCOMPARE(sync.wait(), 0);  // and it still works
        ::close(fd);
    }

    void fullDiskIsRefusedUpFront() {
        const std::string p = path("f.bin");
        set_fault_hook([](const char* o, const std::string&) { return std::string(o) == "statvfs" ? ENOSPC : 0; });
        try {
            DurableWriter w(p, 1000);
            QFAIL("no error");
        } catch (const StorageError& e) {
            QVERIFY(e.disk_full());
            QCOMPARE(e.bytes_needed(), std::uint64_t(1000 + 64 * 1024));
            QCOMPARE(q(e.what()),
                     QStringLiteral("not enough space to write checkpoint %1: needs %2 bytes, 0 bytes free in %3")
                         .arg(q(p))
                         .arg(1000 + 64 * 1024)
                         .arg(dir_->path()));
        }
        QVERIFY(!file_exists(p + ".tmp"));
        // A real filesystem with too little room is refused the same way.
        set_fault_hook(nullptr);
        const std::uint64_t avail = free_bytes(dir_->path().toStdString());
        QVERIFY(avail > 0);
        try {
            DurableWriter w(p, avail + 1);
            QFAIL("no error");
        } catch (const StorageError& e) {
            QVERIFY(e.disk_full());
            QVERIFY(e.bytes_free() > 0);
        }
    }

    void directoriesAndRemoval() {
        const std::string d = path("x/y/z");
        make_directories(d);
        QVERIFY(QFileInfo(q(d)).isDir());
        make_directories(d);  // idempotent
        const std::string f = path("plain");
        QVERIFY(testsupport::writeAll(q(f), QByteArray("x")));
        try {
            make_directories(f + "/sub");
            QFAIL("made a directory under a file");
        } catch (const StorageError& e) {
            QVERIFY(q(e.what()).contains(q(f)));
        }
        remove_durably(f);
        QVERIFY(!file_exists(f));
        remove_durably(f);  // missing is fine
        QCOMPARE(q(parent_directory("/a/b/c.svpt")), QStringLiteral("/a/b"));
        QCOMPARE(q(parent_directory("c.svpt")), QStringLiteral("."));
        QCOMPARE(q(parent_directory("/c")), QStringLiteral("/"));
        QVERIFY_THROWS_EXCEPTION(StorageError, file_size(path("nope")));
    }
};

QTEST_APPLESS_MAIN(TestDurableIo)
#include "test_durable_io.moc"
