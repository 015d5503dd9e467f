// Two processes, one home. While one savepoint-cli trains run 'r':
//  - a second writer on the same run (resume --run r) gets a clear message
//    naming the lock and exits 1, changing nothing;
//  - a second run in the same home trains alongside without interference;
//  - readers (the CLI's `runs --json` / `checkpoints --json`, and in-process
//    registry connections polling as the GUI does) always get valid answers;
//    their latency is measured and must stay bounded;
//  - at the end both runs verify and match their uninterrupted references.
//
//   ctest --test-dir build -R test_two_processes --output-on-failure
#include "reliability_support.h"

#include <QtTest>

#include <atomic>
#include <thread>

using namespace reliability;

class TestTwoProcesses : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void oneWriterManyReaders() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QStringList extra{QStringLiteral("--keep"), QStringLiteral("2")};
        CliResult ref =
            reliability::runCli(tinyTrain(tmp.filePath(QStringLiteral("ref")), QStringLiteral("r"), 16, 40, 5, extra));
        QVERIFY2(ref.exitCode == 0, ref.describe().constData());
        const QString reference = testsupport::paramsShaFromOutput(ref.out);

        const QString home = tmp.filePath(QStringLiteral("home"));
        QProcess writer;
        writer.setProcessEnvironment(envWith());
        writer.start(testsupport::cliPath(), tinyTrain(home, QStringLiteral("r"), 16, 40, 5,
                                                       extra));  // long enough to outlive a second CLI start
        QVERIFY(writer.waitForStarted());
        // Wait until it is training (holds the run lock) and has saved once.
        QString wout;
        QVERIFY2(testsupport::waitUntil(
                     [&] {
                         writer.waitForReadyRead(10);
                         wout += QString::fromUtf8(writer.readAllStandardOutput());
                         return wout.contains(QLatin1String("saved checkpoint"));
                     },
                     120000),
                 qPrintable(wout));

        // In-process readers, polling like the GUI's monitor does.
        std::atomic<bool> stop{false};
        std::atomic<qint64> maxReadUs{0}, reads{0};
        QStringList readerErrors;
        QMutex em;
        std::thread reader([&] {
            while (!stop) {
                QElapsedTimer t;
                t.start();
                try {
                    savepoint::Registry reg(home.toStdString());
                    for (const auto& run : reg.list_runs()) {
                        reg.checkpoints(run.id);
                        reg.events(run.id);
                        reg.metrics(run.id);
                    }
                } catch (const std::exception& e) {
                    QMutexLocker l(&em);
                    readerErrors << QString::fromUtf8(e.what());
                }
                const qint64 us = t.nsecsElapsed() / 1000;
                qint64 prev = maxReadUs.load();
                while (us > prev && !maxReadUs.compare_exchange_weak(prev, us)) {
                }
                ++reads;
                QThread::msleep(5);
            }
        });
        struct Joiner {  // a failed QVERIFY returns early: never leave a joinable thread behind
            std::atomic<bool>& stop;
            std::thread& t;
            ~Joiner() {
                stop = true;
                if (t.joinable()) t.join();
            }
        } joiner{stop, reader};

        // A second writer on the same run: refused, clearly, exit 1.
        CliResult second = reliability::runCli(resumeArgs(home, QStringLiteral("r")));
        QVERIFY2(second.exitCode == 1, second.describe().constData());
        // It names the writer's process too (the lock file holds its pid while it runs).
        QVERIFY2(second.err.contains(QStringLiteral("run 'r' is in use by another Savepoint process (process %1; lock ")
                                         .arg(writer.processId()) +
                                     home + QStringLiteral("/locks/r.lock)")),
                 second.describe().constData());
        // A second run in the same home is fine, concurrently.
        QProcess other;
        other.setProcessEnvironment(envWith());
        other.start(testsupport::cliPath(), tinyTrain(home, QStringLiteral("other"), 1, 6, 3));
        QVERIFY(other.waitForStarted());

        // CLI readers while both train.
        qint64 maxCliMs = 0;
        int cliReads = 0;
        while (writer.state() == QProcess::Running && cliReads < 6) {
            QElapsedTimer t;
            t.start();
            QStringList readArgs{cliReads % 2 ? QStringLiteral("runs") : QStringLiteral("checkpoints"),
                                 QStringLiteral("--home"), home, QStringLiteral("--json")};
            if (cliReads % 2 == 0) readArgs << QStringLiteral("--run") << QStringLiteral("r");
            CliResult rr = reliability::runCli(readArgs);
            maxCliMs = std::max(maxCliMs, t.elapsed());
            ++cliReads;
            bool ok = false;
            testsupport::parseJsonArray(rr.out, &ok);
            QVERIFY2(rr.exitCode == 0 && ok, rr.describe().constData());
        }
        QVERIFY(writer.waitForFinished(300000));
        QVERIFY(other.waitForFinished(300000));
        stop = true;
        reader.join();
        wout += QString::fromUtf8(writer.readAllStandardOutput());
        QCOMPARE(writer.exitCode(), 0);
        QCOMPARE(other.exitCode(), 0);
        QVERIFY2(readerErrors.isEmpty(), qPrintable(readerErrors.join(QLatin1Char('\n'))));
        qInfo("%lld in-process reads, slowest %.1f ms; %d CLI reads, slowest %lld ms (process start included)",
              static_cast<long long>(reads.load()), maxReadUs.load() / 1000.0, cliReads,
              static_cast<long long>(maxCliMs));
        // A reader waits at most for one writer transaction (SQLite WAL: readers never block on writers).
        QVERIFY2(maxReadUs.load() < 2000000, "an in-process registry read took over 2 s");
        QCOMPARE(testsupport::paramsShaFromOutput(wout), reference);
        for (const QString run : {QStringLiteral("r"), QStringLiteral("other")}) {
            HomeState s = checkHome(home, run);
            QVERIFY2(s.ok, qPrintable(s.why));
        }
        // The refused writer left no trace: one session for 'r'.
        savepoint::Registry reg(home.toStdString());
        QCOMPARE(reg.sessions(reg.find_run("r")->id).size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestTwoProcesses)
#include "test_two_processes.moc"
