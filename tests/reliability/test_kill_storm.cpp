// Kill storm: trains through the real savepoint-cli (3 epochs x 8 steps,
// a checkpoint every 3 steps, keep 3 so retention deletes run too) and
// SIGKILLs it again and again, resuming after each kill until the run
// completes, then starts another run, until SAVEPOINT_KILLS kills (default
// 200) have been delivered. Kill moments rotate between: a random delay over
// the whole run; the moment a checkpoint temp file appears (a save in
// flight); the moment a "saved checkpoint" line appears (retention and the
// next steps); an early delay around startup and the recovery of the previous
// kill's leftovers. After every kill: registry integrity_check, every
// committed checkpoint verifies (before and after recovery), no row left
// 'writing'/'deleting'; the next resume starts exactly from the head recovery
// chose, which is never older than the last checkpoint reported saved; every
// completed run ends with params_sha256 bit-identical to an uninterrupted run.
// Every other run trains a TorchScript model with BatchNorm and dropout
// (made with define(), tests/support/script_fixtures.h) on a torch.save'd
// tensor file instead of the mlp on the synthetic set.
//
//   ctest --test-dir build -R test_kill_storm --output-on-failure      (label long)
//   SAVEPOINT_KILLS=5000 SAVEPOINT_STORM_SEED=7 build/tests/reliability/test_kill_storm
#include "reliability_support.h"
#include "script_fixtures.h"

#include <QtTest>

#include <random>

using namespace reliability;

class TestKillStorm : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    QString reference_, scriptReference_;
    QString modelFile_, dataFile_;
    qint64 fullMs_ = 2000;  // an uninterrupted run, wall clock
    qint64 loadMs_ = 800;   // until a resume prints "loading dataset" (after its recovery)
    const QString run_ = QStringLiteral("r");

    QStringList train(const QString& home, bool script = false) const {
        QStringList a = tinyTrain(home, run_, 3, 8, 3, {QStringLiteral("--keep"), QStringLiteral("3")});
        if (script) {
            a[a.indexOf(QStringLiteral("mlp"))] = modelFile_;
            a[a.indexOf(QStringLiteral("synthetic"))] = dataFile_;
        }
        return a;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        QElapsedTimer t;
        t.start();
        CliResult r = reliability::runCli(train(tmp_.filePath(QStringLiteral("ref"))));
        fullMs_ = t.elapsed();
        QVERIFY2(r.exitCode == 0, r.describe().constData());
        reference_ = testsupport::paramsShaFromOutput(r.out);
        modelFile_ = tmp_.filePath(QStringLiteral("bn_mlp.pt"));
        dataFile_ = tmp_.filePath(QStringLiteral("quadrants.pt"));
        testsupport::bnMlp(64, 16, 4).save(modelFile_.toStdString());
        testsupport::writeTensorFile(dataFile_.toStdString(), testsupport::quadrantData(256, 64));
        CliResult s = reliability::runCli(train(tmp_.filePath(QStringLiteral("ref-script")), true));
        QVERIFY2(s.exitCode == 0, s.describe().constData());
        scriptReference_ = testsupport::paramsShaFromOutput(s.out);
        QVERIFY(!scriptReference_.isEmpty() && scriptReference_ != reference_);
        // When does a resume get past its recovery?
        const QString h = tmp_.filePath(QStringLiteral("probe"));
        QVERIFY(reliability::runCli(train(h) + QStringList{QStringLiteral("--interrupt-at-step"), QStringLiteral("5")})
                    .exitCode == 3);
        qint64 seen = -1;
        QElapsedTimer t2;
        t2.start();
        auto k = runAndKill(resumeArgs(h, run_), envWith(), -1, [&](const QString& out) {
            if (seen < 0 && out.contains(QLatin1String("loading dataset"))) seen = t2.elapsed();
            return false;
        });
        QVERIFY2(k.result.exitCode == 0, k.result.describe().constData());
        if (seen > 0) loadMs_ = seen;
        qInfo("uninterrupted run %lld ms; a resume is past recovery after ~%lld ms", static_cast<long long>(fullMs_),
              static_cast<long long>(loadMs_));
    }

    void storm() {
        const int target = envInt("SAVEPOINT_KILLS", 200);
        std::mt19937_64 rng(static_cast<quint64>(envInt("SAVEPOINT_STORM_SEED", 20240601)));
        int kills = 0, runs = 0, completed = 0, sessions = 0, scriptKills = 0;
        int byMode[4] = {0, 0, 0, 0};
        QElapsedTimer total;
        total.start();
        while (kills < target) {
            const bool script = runs % 2 == 1;
            const QString home = tmp_.filePath(QStringLiteral("storm-%1").arg(runs++));
            std::optional<Saved> lastReported;
            std::optional<qint64> expectFrom;  // head id chosen by recovery (0: the beginning)
            bool exists = false;
            int nextMode = -1;
            for (int attempt = 0;; ++attempt) {
                QVERIFY2(attempt < 400, "a run did not complete after 400 resumes");
                const QStringList args = exists ? resumeArgs(home, run_) : train(home, script);
                int mode = nextMode >= 0 ? nextMode : static_cast<int>(rng() % 100);
                mode = nextMode >= 0 ? nextMode : mode < 40 ? 0 : mode < 65 ? 1 : mode < 80 ? 2 : 3;
                nextMode = -1;
                const int lastDone = kills >= target ? -1 : 0;  // once the target is reached, let it finish
                int delay = -1;
                std::function<bool(const QString&)> when;
                const int savedBefore = 0;
                if (lastDone == 0) {
                    switch (mode) {
                        case 0:
                            delay = static_cast<int>(rng() % static_cast<quint64>(fullMs_ + 1));
                            break;
                        case 1:
                            when = [&](const QString&) { return tempFilePresent(home, run_); };
                            break;
                        case 2: {
                            const int nth = 1 + static_cast<int>(rng() % 3);
                            when = [nth](const QString& out) { return savedLines(out).size() >= nth; };
                            break;
                        }
                        case 3:
                            delay = static_cast<int>(loadMs_ * (50 + rng() % 60) / 100);
                            break;
                    }
                }
                Q_UNUSED(savedBefore);
                KilledRun k = runAndKill(args, envWith(), delay, when);
                ++sessions;
                const QByteArray ctx = QStringLiteral("run %1 attempt %2 mode %3 delay %4 ms, %5 kills so far\n")
                                           .arg(runs - 1)
                                           .arg(attempt)
                                           .arg(mode)
                                           .arg(delay)
                                           .arg(kills)
                                           .toLocal8Bit() +
                                       k.result.describe();
                QVERIFY2(!k.result.timedOut, ctx.constData());
                // Where it resumed from: exactly what recovery left as the head.
                if (exists && expectFrom) {
                    if (auto from = resumedFrom(k.result.out)) {
                        QVERIFY2(from->id == *expectFrom, ctx.constData());
                        if (lastReported) QVERIFY2(from->globalStep >= lastReported->globalStep, ctx.constData());
                    }
                }
                const auto saved = savedLines(k.result.out);
                if (!saved.isEmpty()) lastReported = saved.last();

                if (!k.killed) {
                    // It got to the end by itself.
                    QVERIFY2(k.result.exitCode == 0, ctx.constData());
                    QVERIFY2(testsupport::paramsShaFromOutput(k.result.out) == (script ? scriptReference_ : reference_),
                             ctx.constData());
                    HomeState s = checkHome(home, run_);
                    QVERIFY2(s.ok, (s.why + QLatin1Char('\n')).toLocal8Bit() + ctx);
                    ++completed;
                    break;
                }
                ++kills;
                ++byMode[mode];
                scriptKills += script;
                HomeState s = checkHome(home, run_);
                QVERIFY2(s.ok, (s.why + QLatin1Char('\n')).toLocal8Bit() + ctx);
                exists = s.runExists;
                expectFrom = s.head ? s.head->id : 0;
                if (lastReported) {
                    QVERIFY2(s.head && s.head->global_step >= lastReported->globalStep,
                             (QStringLiteral("last reported saved #%1 (global step %2) but head after recovery is %3\n")
                                  .arg(lastReported->id)
                                  .arg(lastReported->globalStep)
                                  .arg(s.head ? QString::number(s.head->id) : QStringLiteral("none"))
                                  .toLocal8Bit() +
                              ctx)
                                 .constData());
                    QVERIFY2(hasCommitted(s, lastReported->id) || s.head->global_step > lastReported->globalStep,
                             ctx.constData());
                }
                // A kill during a save leaves work for recovery: kill that recovery next, half the time.
                if (mode == 1 && rng() % 2 == 0) nextMode = 3;
            }
        }
        qInfo(
            "%d kills (random %d, during a save %d, after a commit %d, early/recovery %d; %d of them in TorchScript "
            "runs) over %d runs (%d completed), %d CLI sessions, %.1f s",
            kills, byMode[0], byMode[1], byMode[2], byMode[3], scriptKills, runs, completed, sessions,
            total.elapsed() / 1000.0);
    }
};

RELIABILITY_TEST_MAIN(TestKillStorm)
#include "test_kill_storm.moc"
