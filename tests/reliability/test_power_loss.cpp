// Power loss: the home lives on a loop-mounted ext4 image (commit=600, so the
// journal only commits when someone fsyncs), with the kernel's background
// writeback held off (vm.dirty_writeback_centisecs=0, a huge
// dirty_expire_centisecs; both restored afterwards). The CLI is SIGKILLed at a
// random moment (random delay, a save in flight, just after a commit, early)
// and the image file is copied right after: the copy holds only what was
// fsync'd (what reached the loop device), like a disk after a power cut. The
// copy is mounted (journal replay) and becomes the disk the next resume runs
// on. After each loss: integrity_check, every committed checkpoint verifies
// before and after recovery, nothing left 'writing'/'deleting', every
// checkpoint the CLI reported saved is still there (committed, or deleted by
// retention after a newer one), the head is never older than the last one
// reported saved; completed runs end bit-identical to an uninterrupted run.
// Every other run trains a TorchScript model with BatchNorm and dropout on a
// torch.save'd tensor file (tests/support/script_fixtures.h).
//
// Needs root (mount, losetup, /proc/sys/vm); skips with a message otherwise.
//   ctest --test-dir build -R test_power_loss --output-on-failure             (label long)
//   SAVEPOINT_POWER_TRIALS=500 build/tests/reliability/test_power_loss
//   SAVEPOINT_PLANT_BUG=skip-fsync build/tests/reliability/test_power_loss   (negative control: must fail)
#include "reliability_support.h"
#include "script_fixtures.h"

#include <QtTest>

#include <sys/mount.h>
#include <unistd.h>
#include <random>

using namespace reliability;

namespace {

bool sh(const QString& program, const QStringList& args, QString* output = nullptr) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(120000)) return false;
    if (output) *output = QString::fromLocal8Bit(p.readAll());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

QByteArray readSysctl(const char* path) { return testsupport::readAll(QString::fromLatin1(path)).trimmed(); }
bool writeSysctl(const char* path, const QByteArray& v) {
    return testsupport::writeAll(QString::fromLatin1(path), v + "\n");
}

const char* kWriteback = "/proc/sys/vm/dirty_writeback_centisecs";
const char* kExpire = "/proc/sys/vm/dirty_expire_centisecs";

}  // namespace

class TestPowerLoss : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    QString reference_, scriptReference_, modelFile_, dataFile_, mnt_, cur_, copy_;
    QByteArray savedWriteback_, savedExpire_;
    bool mounted_ = false;
    qint64 fullMs_ = 2000;
    const QString run_ = QStringLiteral("r");

    QStringList train(const QString& home, bool script = false) const {
        QStringList a = tinyTrain(home, run_, 3, 8, 3, {QStringLiteral("--keep"), QStringLiteral("3")});
        if (script) {
            a[a.indexOf(QStringLiteral("mlp"))] = modelFile_;
            a[a.indexOf(QStringLiteral("synthetic"))] = dataFile_;
        }
        return a;
    }
    bool mountImage() {
        QString out;
        mounted_ =
            sh(QStringLiteral("mount"), {QStringLiteral("-o"), QStringLiteral("loop,commit=600"), cur_, mnt_}, &out);
        if (!mounted_) qWarning("mount failed: %s", qPrintable(out));
        return mounted_;
    }
    bool unmountImage() {
        if (!mounted_) return true;
        mounted_ = !sh(QStringLiteral("umount"), {mnt_});
        return !mounted_;
    }
    bool freshImage() {
        QFile::remove(cur_);
        return sh(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("128M"), cur_}) &&
               sh(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), QStringLiteral("-F"), cur_});
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        if (::geteuid() != 0) QSKIP("the power-loss harness needs root (mount -o loop, /proc/sys/vm)");
        mnt_ = tmp_.filePath(QStringLiteral("mnt"));
        cur_ = tmp_.filePath(QStringLiteral("disk.img"));
        copy_ = tmp_.filePath(QStringLiteral("after-power-loss.img"));
        QDir().mkpath(mnt_);
        if (!freshImage() || !mountImage()) QSKIP("mkfs.ext4 + mount -o loop not available here");
        QVERIFY(unmountImage());
        savedWriteback_ = readSysctl(kWriteback);
        savedExpire_ = readSysctl(kExpire);
        if (!writeSysctl(kWriteback, "0") || !writeSysctl(kExpire, "360000"))
            QSKIP("cannot hold off writeback (/proc/sys/vm is read-only here)");
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
    }

    void cleanupTestCase() {
        unmountImage();
        if (!savedWriteback_.isEmpty()) writeSysctl(kWriteback, savedWriteback_);
        if (!savedExpire_.isEmpty()) writeSysctl(kExpire, savedExpire_);
    }

    void trials() {
        const int target = envInt("SAVEPOINT_POWER_TRIALS", 50);
        std::mt19937_64 rng(static_cast<quint64>(envInt("SAVEPOINT_POWER_SEED", 77)));
        int trials = 0, runs = 0, completed = 0;
        QElapsedTimer total;
        total.start();
        const QString home = mnt_ + QStringLiteral("/home");
        while (trials < target) {
            QVERIFY(freshImage());
            const bool script = runs++ % 2 == 1;
            const QString& reference = script ? scriptReference_ : reference_;
            bool exists = false, done = false;
            QMap<qint64, qint64> reported;  // id -> global step, every checkpoint reported saved in this run
            std::optional<Saved> lastReported;
            for (int attempt = 0; !done; ++attempt) {
                QVERIFY2(attempt < 300, "a run did not complete after 300 power losses");
                QVERIFY(mountImage());
                const int mode = static_cast<int>(rng() % 4);
                int delay = -1;
                std::function<bool(const QString&)> when;
                if (trials < target) {
                    if (mode == 0)
                        delay = static_cast<int>(rng() % static_cast<quint64>(fullMs_ + 1));
                    else if (mode == 1)
                        when = [&](const QString&) { return tempFilePresent(home, run_); };
                    else if (mode == 2)
                        when = [](const QString& out) { return !savedLines(out).isEmpty(); };
                    else
                        delay = static_cast<int>(300 + rng() % 1200);
                }
                // The power goes out right after the process ends (killed, or finished by itself).
                bool copied = false;
                KilledRun k =
                    runAndKill(exists ? resumeArgs(home, run_) : train(home, script), envWith(), delay, when, [&] {
                        QFile::remove(copy_);
                        copied = sh(QStringLiteral("cp"), {QStringLiteral("--sparse=always"), cur_, copy_});
                    });
                ++trials;
                const QByteArray ctx = QStringLiteral("run %1 attempt %2 mode %3 delay %4, trial %5\n")
                                           .arg(runs)
                                           .arg(attempt)
                                           .arg(mode)
                                           .arg(delay)
                                           .arg(trials)
                                           .toLocal8Bit() +
                                       k.result.describe();
                QVERIFY2(copied, ctx.constData());
                QVERIFY(unmountImage());
                QVERIFY(QFile::remove(cur_) && QFile::rename(copy_, cur_));
                for (const auto& s : savedLines(k.result.out)) reported.insert(s.id, s.globalStep);
                if (!savedLines(k.result.out).isEmpty()) lastReported = savedLines(k.result.out).last();
                if (!k.killed) {
                    QVERIFY2(k.result.exitCode == 0, ctx.constData());
                    QVERIFY2(testsupport::paramsShaFromOutput(k.result.out) == reference, ctx.constData());
                    done = true;
                    ++completed;
                }

                // The disk as the power cut left it.
                QVERIFY(mountImage());
                HomeState s = checkHome(home, run_);
                QVERIFY2(s.ok, (s.why + QLatin1Char('\n')).toLocal8Bit() + ctx);
                exists = s.runExists;
                if (lastReported) {
                    QVERIFY2(s.head && s.head->global_step >= lastReported->globalStep,
                             (QStringLiteral(
                                  "reported saved #%1 (global step %2), but after the power loss the head is %3\n")
                                  .arg(lastReported->id)
                                  .arg(lastReported->globalStep)
                                  .arg(s.head ? QString::number(s.head->id) : QStringLiteral("none"))
                                  .toLocal8Bit() +
                              ctx)
                                 .constData());
                }
                {
                    savepoint::Registry reg(home.toStdString());
                    for (auto it = reported.begin(); it != reported.end(); ++it) {
                        auto c = reg.checkpoint(it.key());
                        QVERIFY2(
                            c && (c->state == savepoint::CheckpointState::Committed ||
                                  c->state == savepoint::CheckpointState::Deleted),
                            (QStringLiteral("checkpoint #%1 was reported saved but after the power loss it is %2\n")
                                 .arg(it.key())
                                 .arg(c ? QString::fromStdString(savepoint::to_string(c->state) +
                                                                 (" " + c->state_detail))
                                        : QStringLiteral("absent"))
                                 .toLocal8Bit() +
                             ctx)
                                .constData());
                    }
                }
                if (done) {
                    // Finished and reported: the copy must know it, too.
                    CliResult again = reliability::runCli(resumeArgs(home, run_));
                    QVERIFY2(again.exitCode == 0 && testsupport::paramsShaFromOutput(again.out) == reference,
                             again.describe().constData());
                }
                QVERIFY(unmountImage());
            }
        }
        qInfo("%d power losses over %d runs (%d completed), %.1f s", trials, runs, completed, total.elapsed() / 1000.0);
    }
};

RELIABILITY_TEST_MAIN(TestPowerLoss)
#include "test_power_loss.moc"
