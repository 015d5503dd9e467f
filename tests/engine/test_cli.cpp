// Tests for savepoint-cli (app/cli/cli_app.cpp), always through the real
// binary: bad input exits 2 with a message naming the flag and the value and
// changes nothing on disk (recursive listing + hashes before and after, and a
// home that did not exist is not created); --help everywhere; the JSON that
// scripts depend on; verify naming a damaged checkpoint; and two writers on
// one run.
#include "cli_app.h"
#include "idx_files.h"
#include "platform/sanitizer_build.h"
#include "storage/durable_io.h"
#include "test_home.h"

#include <QtTest>

#include <unistd.h>
#include <csignal>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>

using testsupport::CliResult;
using testsupport::idxImages;
using testsupport::idxLabels;

namespace {

// run_cli() is all of savepoint-cli's main(); calling it in-process gives the
// same exit code and messages without paying LibTorch's ~1 s load per call.
// Rows marked "binary" also go through the real executable.
CliResult runInProcess(const QStringList& args, const QString& envHome = QString()) {
    std::vector<std::string> v{"savepoint-cli"};
    for (const QString& a : args) v.push_back(a.toStdString());
    if (envHome.isEmpty())
        qunsetenv("SAVEPOINT_HOME");
    else
        qputenv("SAVEPOINT_HOME", envHome.toUtf8());
    std::ostringstream out, err;
    CliResult r;
    r.exitCode = savepoint::run_cli(v, out, err, /*install_signals=*/false);
    qunsetenv("SAVEPOINT_HOME");
    r.out = QString::fromStdString(out.str());
    r.err = QString::fromStdString(err.str());
    return r;
}

CliResult runEither(bool binary, const QStringList& args, const QString& envHome = QString()) {
    if (!binary) return runInProcess(args, envHome);
    QProcessEnvironment env = testsupport::cliEnvironment();
    if (!envHome.isEmpty()) env.insert("SAVEPOINT_HOME", envHome);
    return testsupport::runCli(args, 240000, env);
}

// Whether process `pid` has a handler for `sig` (its SigCgt mask in /proc).
bool catches(qint64 pid, int sig) {
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return false;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("SigCgt:")) return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> (sig - 1)) & 1;
    return false;
}

// Starts savepoint-cli with `args` and sends it SIGTERM as soon as it has a
// handler for it: the .preinit_array's, ~0.1 s after exec, long before main()
// and the trainer's own (early_signals.h). Returns once it has ended.
void terminateWhileStarting(QProcess& p, const QStringList& args) {
    p.setProcessEnvironment(testsupport::cliEnvironment());
    p.start(testsupport::cliPath(), args);
    QVERIFY(p.waitForStarted(30000));
    const qint64 pid = p.processId();
    QElapsedTimer t;
    t.start();
    while (!catches(pid, SIGTERM) && t.elapsed() < 60000) std::this_thread::sleep_for(std::chrono::microseconds(200));
    QVERIFY2(catches(pid, SIGTERM), "savepoint-cli never installed a SIGTERM handler");
    QCOMPARE(::kill(static_cast<pid_t>(pid), SIGTERM), 0);
    QVERIFY(p.waitForFinished(120000));
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir root_;
    QString home_;        // holds the run "existing" (2 epochs x 20 steps, save every 10)
    QString brokenData_;  // a directory of MNIST files with one broken IDX header

    QString fresh(const QString& name) const { return root_.filePath(name); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(root_.isValid());
        qunsetenv("SAVEPOINT_HOME");
        qputenv("OMP_NUM_THREADS", "1");
        home_ = root_.filePath("home");
        CliResult r = testsupport::runCli(testsupport::trainArgs(home_, "existing", 2, 20, "10"));
        QVERIFY2(r.exitCode == 0, r.describe());
        // A dataset directory whose training images have the wrong magic number.
        brokenData_ = root_.filePath("broken-mnist");
        QVERIFY(QDir().mkpath(brokenData_));
        QVERIFY(testsupport::writeAll(brokenData_ + "/train-images-idx3-ubyte", idxImages(10, 0x00000804)));
        QVERIFY(testsupport::writeAll(brokenData_ + "/train-labels-idx1-ubyte", idxLabels(10)));
        QVERIFY(testsupport::writeAll(brokenData_ + "/t10k-images-idx3-ubyte", idxImages(5)));
        QVERIFY(testsupport::writeAll(brokenData_ + "/t10k-labels-idx1-ubyte", idxLabels(5)));
    }

    void helpOnEverySubcommand_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("mentions");
        QTest::addColumn<bool>("binary");
        QTest::newRow("top") << QStringList{"--help"} << QStringList{"train", "resume", "runs", "checkpoints", "verify"}
                             << false;
        QTest::newRow("train") << QStringList{"train", "--help"}
                               << QStringList{"--run",
                                              "--home",
                                              "--data",
                                              "--model",
                                              "--epochs",
                                              "--steps-per-epoch",
                                              "--batch",
                                              "--lr",
                                              "--optimizer",
                                              "--seed",
                                              "--save-freq",
                                              "--keep",
                                              "--device",
                                              "--threads",
                                              "--interrupt-at-step",
                                              "--preempt-at-step"}
                               << true;
        QTest::newRow("resume") << QStringList{"resume", "--help"}
                                << QStringList{"--run",   "--home", "--checkpoint",
                                               "--epoch", "--step", "--interrupt-at-step"}
                                << false;
        QTest::newRow("runs") << QStringList{"runs", "--help"} << QStringList{"--home", "--json"} << false;
        QTest::newRow("checkpoints") << QStringList{"checkpoints", "--help"} << QStringList{"--run", "--home", "--json"}
                                     << false;
        QTest::newRow("verify") << QStringList{"verify", "--help"} << QStringList{"--home", "--run"} << false;
        QTest::newRow("pin") << QStringList{"pin", "--help"} << QStringList{"--run", "--checkpoint"} << false;
        QTest::newRow("unpin") << QStringList{"unpin", "--help"} << QStringList{"--run", "--checkpoint"} << false;
        QTest::newRow("train -h with other flags")
            << QStringList{"train", "--run", "x", "-h"} << QStringList{"--save-freq"} << false;
    }
    void helpOnEverySubcommand() {
        QFETCH(QStringList, args);
        QFETCH(QStringList, mentions);
        QFETCH(bool, binary);
        const QString home = fresh("help-home");
        const bool top = args.first() == "--help";
        CliResult r = runEither(binary, top ? args : args + QStringList{"--home", home});
        QVERIFY2(r.exitCode == 0, r.describe());
        for (const QString& m : mentions) QVERIFY2(r.out.contains(m), qPrintable(m + "\n" + r.out));
        QVERIFY(!QFileInfo::exists(home));
        if (args.first() == "resume") QVERIFY2(!r.out.contains("--save-freq"), "resume --help shows train's options");
    }

    void badInputExits2AndChangesNothing_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("mentions");  // all must appear in stderr
        QTest::addColumn<bool>("needsRun");         // the message depends on the run "existing"
        // A valid small training command, with `extra` added or overriding its options.
        auto train = [](const QStringList& extra) {
            QStringList a{"train", "--run", "fresh-run"};
            const QList<QPair<QString, QString>> defaults{
                {"--data", "synthetic"}, {"--epochs", "1"}, {"--steps-per-epoch", "2"}};
            for (const auto& d : defaults)
                if (!extra.contains(d.first)) a << d.first << d.second;
            return a + extra;
        };
        QTest::newRow("no subcommand") << QStringList{} << QStringList{"subcommand"} << false;
        QTest::newRow("unknown subcommand") << QStringList{"frobnicate"} << QStringList{"frobnicate"} << false;
        QTest::newRow("unknown flag") << train({"--bogus-flag", "1"}) << QStringList{"--bogus-flag"} << false;
        QTest::newRow("missing --run") << QStringList{"train", "--data", "synthetic"}
                                       << QStringList{"--run", "required"} << false;
        QTest::newRow("bad run name") << QStringList{"train", "--run", "../escape", "--data", "synthetic"}
                                      << QStringList{"--run:", "'../escape'"} << false;
        QTest::newRow("run name too long")
            << QStringList{"train", "--run", QString(65, 'a')} << QStringList{"--run:", QString(65, 'a')} << false;
        QTest::newRow("--model xyz") << train({"--model", "xyz"})
                                     << QStringList{"--model", "'xyz'", "mlp, dnn, cnn or a TorchScript file"} << false;
        QTest::newRow("--optimizer") << train({"--optimizer", "rmsprop"}) << QStringList{"--optimizer", "'rmsprop'"}
                                     << false;
        QTest::newRow("--epochs 0") << train({"--epochs", "0"}) << QStringList{"--epochs", "found 0"} << false;
        QTest::newRow("--epochs abc") << train({"--epochs", "abc"}) << QStringList{"--epochs", "abc"} << false;
        QTest::newRow("--batch -1") << train({"--batch", "-1"}) << QStringList{"--batch", "-1"} << false;
        QTest::newRow("--steps-per-epoch -5")
            << train({"--steps-per-epoch", "-5"}) << QStringList{"--steps-per-epoch", "-5"} << false;
        QTest::newRow("--lr 0") << train({"--lr", "0"}) << QStringList{"--lr", "found 0"} << false;
        QTest::newRow("--lr nan") << train({"--lr", "nan"}) << QStringList{"--lr", "nan"} << false;
        QTest::newRow("--lr -0.1") << train({"--lr", "-0.1"}) << QStringList{"--lr", "-0.1"} << false;
        QTest::newRow("--save-freq 0") << train({"--save-freq", "0"}) << QStringList{"--save-freq", "'0'"} << false;
        QTest::newRow("--save-freq abc") << train({"--save-freq", "abc"}) << QStringList{"--save-freq", "'abc'"}
                                         << false;
        QTest::newRow("--keep 0") << train({"--keep", "0"}) << QStringList{"--keep", "found 0"} << false;
        QTest::newRow("--threads -2") << train({"--threads", "-2"}) << QStringList{"--threads", "-2"} << false;
        QTest::newRow("--device tpu") << train({"--device", "tpu"}) << QStringList{"--device", "'tpu'", "auto|cpu|cuda"}
                                      << false;
        QTest::newRow("--interrupt-at-step -1")
            << train({"--interrupt-at-step", "-1"}) << QStringList{"--interrupt-at-step", "-1"} << false;
        QTest::newRow("--data /nonexistent")
            << train({"--data", "/nonexistent"}) << QStringList{"--data", "/nonexistent"} << false;
        QTest::newRow("--data broken IDX")
            << train({"--data", "BROKEN"}) << QStringList{"BROKEN/train-images-idx3-ubyte", "magic"} << false;
        QTest::newRow("resume unknown run")
            << QStringList{"resume", "--run", "ghost"} << QStringList{"--run", "'ghost'"} << false;
        QTest::newRow("resume bad run name")
            << QStringList{"resume", "--run", "a/b"} << QStringList{"--run:", "'a/b'"} << false;
        QTest::newRow("resume --checkpoint 9999") << QStringList{"resume", "--run", "existing", "--checkpoint", "9999"}
                                                  << QStringList{"--checkpoint", "#9999", "'existing'"} << true;
        QTest::newRow("resume --checkpoint 0") << QStringList{"resume", "--run", "existing", "--checkpoint", "0"}
                                               << QStringList{"--checkpoint", "found 0"} << false;
        QTest::newRow("resume --epoch 99 --step 1")
            << QStringList{"resume", "--run", "existing", "--epoch", "99", "--step", "1"}
            << QStringList{"--epoch: expected 1 to 2, found 99"} << true;
        QTest::newRow("resume --step 999")
            << QStringList{"resume", "--run", "existing", "--epoch", "1", "--step", "999"}
            << QStringList{"--step: expected 0 to 20", "found 999"} << true;
        QTest::newRow("resume --epoch without --step")
            << QStringList{"resume", "--run", "existing", "--epoch", "1"} << QStringList{"--epoch", "--step"} << false;
        QTest::newRow("resume --checkpoint with --epoch")
            << QStringList{"resume", "--run", "existing", "--checkpoint", "1", "--epoch", "1", "--step", "1"}
            << QStringList{"--checkpoint excludes"} << false;
        QTest::newRow("train existing run")
            << QStringList{"train",    "--run", "existing",          "--data", "synthetic",
                           "--epochs", "1",     "--steps-per-epoch", "2"}
            << QStringList{"--run", "'existing' already exists"} << true;
        QTest::newRow("checkpoints unknown run")
            << QStringList{"checkpoints", "--run", "ghost", "--json"} << QStringList{"--run", "'ghost'"} << false;
        QTest::newRow("pin unknown checkpoint") << QStringList{"pin", "--run", "existing", "--checkpoint", "9999"}
                                                << QStringList{"--checkpoint", "#9999"} << true;
        QTest::newRow("--device cuda without a GPU")
            << train({"--device", "cuda"}) << QStringList{"--device", "CUDA"} << false;
        // 0 and negatives are not "none" or "default": leaving the flag out is.
        QTest::newRow("--steps-per-epoch 0")
            << train({"--steps-per-epoch", "0"}) << QStringList{"--steps-per-epoch", "found 0"} << false;
        QTest::newRow("--interrupt-at-step 0")
            << train({"--interrupt-at-step", "0"}) << QStringList{"--interrupt-at-step", "found 0"} << false;
        QTest::newRow("--preempt-at-step 0")
            << train({"--preempt-at-step", "0"}) << QStringList{"--preempt-at-step", "found 0"} << false;
        QTest::newRow("--interrupt-at-step past the end")
            << train({"--interrupt-at-step", "3"}) << QStringList{"--interrupt-at-step", "from 1 to 2", "found 3"}
            << false;
        QTest::newRow("resume --preempt-at-step already done")
            << QStringList{"resume", "--run", "existing", "--epoch", "2", "--step", "10", "--preempt-at-step", "5"}
            << QStringList{"--preempt-at-step", "from 31 to 40", "found 5"} << true;
        QTest::newRow("--seed -1") << train({"--seed", "-1"}) << QStringList{"--seed", "-1"} << false;
        QTest::newRow("resume --interrupt-at-step 0")
            << QStringList{"resume", "--run", "existing", "--interrupt-at-step", "0"}
            << QStringList{"--interrupt-at-step", "found 0"} << false;
    }
    void badInputExits2AndChangesNothing() {
        QFETCH(QStringList, args);
        QFETCH(QStringList, mentions);
        QFETCH(bool, needsRun);
        // These go through the real executable too; the rest call the same run_cli() in-process.
        static const QSet<QString> viaBinary{
            "no subcommand",      "unknown subcommand",       "missing --run",
            "--lr nan",           "--save-freq abc",          "--data broken IDX",
            "resume unknown run", "resume --checkpoint 9999", "resume --epoch 99 --step 1",
            "train existing run"};
        const bool binary = viaBinary.contains(QString::fromLatin1(QTest::currentDataTag()));
        for (QString& a : args) a.replace("BROKEN", brokenData_);
        for (QString& m : mentions) m.replace("BROKEN", brokenData_);

        // 1. Against a home holding a run: every byte of it stays as it was.
        bool existed = false;
        const auto before = testsupport::treeFingerprint(home_, &existed);
        QVERIFY(existed);
        QVERIFY(before.contains("registry.sqlite"));
        CliResult r = runEither(binary, args + QStringList{"--home", home_});
        if (QTest::currentDataTag() == QLatin1String("--device cuda without a GPU") && r.exitCode != 2)
            QSKIP("this machine has a usable CUDA device");
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY2(r.err.startsWith("error: "), r.describe());
        for (const QString& m : mentions)
            QVERIFY2(r.err.contains(m), qPrintable(QStringLiteral("missing '%1' in:\n").arg(m) + r.err));
        QVERIFY2(r.out.isEmpty() || !r.out.contains("saved checkpoint"), r.describe());
        // A mistyped resume target is refused before the dataset is loaded (a second or more).
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        if (tag.startsWith("resume --checkpoint") || tag.startsWith("resume --epoch") ||
            tag.startsWith("resume --step"))
            QVERIFY2(!r.out.contains("loading dataset"), r.describe());
        const auto after = testsupport::treeFingerprint(home_);
        QVERIFY2(before == after, qPrintable(testsupport::diffFingerprints(before, after)));

        // 2. Against a home that does not exist: it must not be created. (Training a run
        // named "existing" there is valid input, so that row has nothing more to check.)
        if (!args.isEmpty() && args.first() == "train" && needsRun) return;
        const QString missing = fresh("never-created");
        CliResult m = runEither(binary, args + QStringList{"--home", missing});
        QVERIFY2(m.exitCode == 2, m.describe());
        QVERIFY2(m.err.startsWith("error: "), m.describe());
        if (!needsRun)
            for (const QString& t : mentions)
                QVERIFY2(m.err.contains(t), qPrintable(QStringLiteral("missing '%1' in:\n").arg(t) + m.err));
        else
            QVERIFY2(m.err.contains("--run") && m.err.contains("'existing'"), m.describe());
        QVERIFY2(!QFileInfo::exists(missing), qPrintable(missing + " was created by: " + args.join(' ')));

        // 3. The same through $SAVEPOINT_HOME instead of --home.
        CliResult e = runEither(binary, args, missing);
        QVERIFY2(e.exitCode == 2, e.describe());
        QVERIFY(!QFileInfo::exists(missing));
    }

    void readOnlyCommandsOnAMissingHomeCreateNothing() {
        const QString missing = fresh("not-here");
        CliResult runs = testsupport::runCli({"runs", "--home", missing, "--json"});
        QVERIFY2(runs.exitCode == 0, runs.describe());
        bool ok = false;
        QCOMPARE(testsupport::parseJsonArray(runs.out, &ok).size(), 0);
        QVERIFY(ok);
        CliResult table = testsupport::runCli({"runs", "--home", missing});
        QVERIFY2(table.exitCode == 0 && table.out.contains("no runs"), table.describe());
        CliResult verify = testsupport::runCli({"verify", "--home", missing});
        QVERIFY2(verify.exitCode == 0, verify.describe());
        QVERIFY(!QFileInfo::exists(missing));
    }

    void runsJsonHasTheDocumentedFields() {
        CliResult raw;
        QJsonArray runs = testsupport::runsJson(home_, &raw);
        QVERIFY2(raw.exitCode == 0, raw.describe());
        QCOMPARE(runs.size(), 1);
        QJsonObject r = runs.at(0).toObject();
        QCOMPARE(r.value("name").toString(), QStringLiteral("existing"));
        QCOMPARE(r.value("status").toString(), QStringLiteral("finished"));
        QVERIFY(r.value("config").isObject());
        QJsonObject cfg = r.value("config").toObject();
        QCOMPARE(cfg.value("data").toString(), QStringLiteral("synthetic"));
        QCOMPARE(cfg.value("model").toString(), QStringLiteral("mlp"));
        QCOMPARE(cfg.value("epochs").toInteger(), 2);
        QCOMPARE(cfg.value("steps_per_epoch").toInteger(), 20);
        QCOMPARE(cfg.value("save_every_steps").toInteger(), 10);
        QCOMPARE(cfg.value("batch").toInteger(), 32);
        QCOMPARE(r.value("global_step").toInteger(), 40);
        QVERIFY(r.value("head").isDouble());
        QJsonObject head = testsupport::headOf(testsupport::checkpointsJson(home_, "existing"));
        QCOMPARE(r.value("head").toInteger(), head.value("id").toInteger());
    }

    void checkpointsJsonHasEveryField() {
        CliResult raw;
        QJsonArray cks = testsupport::checkpointsJson(home_, "existing", &raw);
        QVERIFY2(raw.exitCode == 0, raw.describe());
        QCOMPARE(cks.size(), 4);  // 10, 20, 30, final 40
        QSet<qint64> ids;
        int heads = 0;
        for (int i = 0; i < cks.size(); ++i) {
            QJsonObject c = cks.at(i).toObject();
            for (const char* k :
                 {"id", "run", "epoch", "step", "global_step", "parent_id", "state", "head", "path", "bytes", "sha256",
                  "created_at", "train_loss", "train_accuracy", "val_loss", "val_accuracy", "params_sha256"})
                QVERIFY2(c.contains(k), k);
            ids.insert(c.value("id").toInteger());
            QCOMPARE(c.value("run").toString(), QStringLiteral("existing"));
            const qint64 gs = c.value("global_step").toInteger();
            QCOMPARE(gs, qint64(10 * (i + 1)));
            QCOMPARE(c.value("epoch").toInteger(), (gs - 1) / 20 + 1);
            QCOMPARE(c.value("step").toInteger(), (gs - 1) % 20 + 1);
            QCOMPARE(c.value("state").toString(), QStringLiteral("committed"));
            if (i == 0)
                QVERIFY(c.value("parent_id").isNull());
            else
                QCOMPARE(c.value("parent_id").toInteger(), cks.at(i - 1).toObject().value("id").toInteger());
            heads += c.value("head").toBool();
            QCOMPARE(c.value("head").toBool(), i == 3);
            // The path is absolute and the file is there, with the recorded size.
            const QString path = c.value("path").toString();
            QVERIFY2(QFileInfo(path).isAbsolute() && QFileInfo(path).isFile(), qPrintable(path));
            QVERIFY(path.startsWith(home_ + "/"));
            QCOMPARE(QFileInfo(path).size(), c.value("bytes").toInteger());
            // sha256 is the checksum in the footer (format 2), recomputed from the file.
            QCOMPARE(testsupport::checkpointChecksum(path), c.value("sha256").toString());
            QCOMPARE(QString::fromLatin1(testsupport::readAll(path).toHex().mid(2 * (QFileInfo(path).size() - 40), 64)),
                     c.value("sha256").toString());
            QVERIFY(QRegularExpression("^[0-9a-f]{64}$").match(c.value("params_sha256").toString()).hasMatch());
            QVERIFY(QRegularExpression("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$")
                        .match(c.value("created_at").toString())
                        .hasMatch());
            QVERIFY(c.value("train_loss").isDouble());
            QVERIFY(c.value("train_accuracy").toDouble() >= 0 && c.value("train_accuracy").toDouble() <= 1);
            // Validation metrics exist from the first epoch end (global step 20) on; before that: null.
            QCOMPARE(c.value("val_loss").isNull(), gs < 20);
            QCOMPARE(c.value("val_accuracy").isNull(), gs < 20);
        }
        QCOMPARE(heads, 1);
        QCOMPARE(ids.size(), 4);
        // Params differ from one checkpoint to the next (training happened in between).
        QVERIFY(cks.at(0).toObject().value("params_sha256") != cks.at(1).toObject().value("params_sha256"));
        // The table form lists the same checkpoints.
        CliResult table = testsupport::runCli({"checkpoints", "--home", home_, "--run", "existing"});
        QVERIFY2(table.exitCode == 0, table.describe());
        QVERIFY(table.out.contains("head"));
        QCOMPARE(table.out.count('\n'), 5);
    }

    void progressLineAndExitCodes() {
        const QString home = fresh("progress");
        CliResult r = testsupport::runCli(testsupport::trainArgs(home, "p", 1, 5, "epoch"));
        QVERIFY2(r.exitCode == 0, r.describe());
        static const QRegularExpression line(
            "epoch \\d+/1  step \\d+/5  global \\d+/5  loss \\d+\\.\\d+  acc \\d\\.\\d+  \\d+\\.\\d steps/s  ETA \\S+");
        QVERIFY2(line.match(r.out).hasMatch(), r.describe());
        QVERIFY(r.out.contains("epoch 1: validation loss"));
        QVERIFY(r.out.contains("saved checkpoint #1 at epoch 1, step 5 (global step 5)"));
        QVERIFY(r.out.contains("finished: 5 steps"));
        QVERIFY2(r.out.contains("checkpoints: 1 taken; they held training up "), r.describe());
        QVERIFY2(!r.out.contains("did not keep up"), r.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(r.out).size(), 64);
        QVERIFY2(r.out.contains("[done]"), r.describe());
        // The last progress line says how a session ended.
        CliResult crashed = runInProcess(
            testsupport::trainArgs(fresh("progress-crash"), "c", 1, 5, "epoch", {"--interrupt-at-step", "3"}));
        QVERIFY2(crashed.exitCode == 3 && crashed.out.contains("global 3/5") && crashed.out.contains("[interrupted]") &&
                     !crashed.out.contains("[done]"),
                 crashed.describe());
        // runs: how far it got, and where a resume starts (no checkpoint yet: the beginning).
        CliResult listed = runInProcess({"runs", "--home", fresh("progress-crash")});
        static const QRegularExpression row("\\nc +interrupted +3/5 +- +0 +1  mlp on synthetic\\n");
        QVERIFY2(listed.exitCode == 0 && row.match(listed.out).hasMatch(), listed.describe());
        // resume of a finished run: nothing to do, exit 0.
        CliResult again = testsupport::runCli({"resume", "--home", home, "--run", "p"});
        QVERIFY2(again.exitCode == 0 && again.out.contains("nothing to resume"), again.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(again.out), testsupport::paramsShaFromOutput(r.out));
    }

    // A checkpoint every step takes longer to write (hashing 5 MB alone) than a step
    // takes: the summary counts the waits and says what to do about them.
    void slowDiskAdviceAfterTraining() {
        // A disk slower than any step here: each save's free-space check takes
        // 100 ms (through the fault seam, in this process), so the disk falls
        // behind a save every step however fast the steps run (~1 ms in a
        // release build, ~30 ms under TSan beside another test).
        savepoint::set_fault_hook([](const char* op, const std::string&) {
            if (std::string(op) == "statvfs") std::this_thread::sleep_for(std::chrono::milliseconds(100));
            return 0;
        });
        CliResult r = runInProcess(testsupport::trainArgs(fresh("every-step"), "s", 1, 40, "1"));
        savepoint::set_fault_hook(nullptr);
        QVERIFY2(r.exitCode == 0, r.describe());
        static const QRegularExpression summary(
            "checkpoints: 40 taken; .* of which \\d+\\.\\d ms waiting for the previous save to be written \\((\\d+) "
            "times\\)");
        const auto m = summary.match(r.out);
        QVERIFY2(m.hasMatch() && m.captured(1).toInt() >= 4, r.describe());
        QVERIFY2(r.out.contains("the disk did not keep up with a checkpoint every step: "), r.describe());
        QVERIFY2(r.out.contains("--async-policy defer"), r.describe());
        // 'skip' never waits for a regular save, so there is nothing to advise.
        CliResult skip =
            runInProcess(testsupport::trainArgs(fresh("every-step-skip"), "s", 1, 40, "1", {"--async-policy", "skip"}));
        QVERIFY2(skip.exitCode == 0 && !skip.out.contains("did not keep up"), skip.describe());
    }

    void homeFromEnvironment() {
        // $SAVEPOINT_HOME, else $XDG_DATA_HOME/savepoint.
        QProcessEnvironment env = testsupport::cliEnvironment();
        env.insert("SAVEPOINT_HOME", home_);
        CliResult r = testsupport::runCli({"runs", "--json"}, 60000, env);
        QVERIFY2(r.exitCode == 0, r.describe());
        QCOMPARE(testsupport::parseJsonArray(r.out).at(0).toObject().value("name").toString(),
                 QStringLiteral("existing"));
        QProcessEnvironment xdg = testsupport::cliEnvironment();
        const QString data = fresh("xdg");
        xdg.insert("XDG_DATA_HOME", data);
        CliResult t = testsupport::runCli(
            {"train", "--run", "x", "--data", "synthetic", "--epochs", "1", "--steps-per-epoch", "2", "--threads", "1"},
            240000, xdg);
        QVERIFY2(t.exitCode == 0, t.describe());
        QVERIFY(QFileInfo::exists(data + "/savepoint/registry.sqlite"));
        QVERIFY(QFileInfo::exists(data + "/savepoint/checkpoints/x/ckpt-00000001.svpt"));
    }

    void verifyNamesADamagedCheckpoint() {
        const QString home = fresh("verify");
        CliResult t = testsupport::runCli(testsupport::trainArgs(home, "v", 2, 20, "10"));
        QVERIFY2(t.exitCode == 0, t.describe());
        CliResult clean = testsupport::runCli({"verify", "--home", home});
        QVERIFY2(clean.exitCode == 0, clean.describe());
        QVERIFY(clean.out.contains("4 verified, 0 damaged"));
        QJsonArray cks = testsupport::checkpointsJson(home, "v");
        const QJsonObject victim = cks.at(1).toObject();  // global step 20, not the head
        const QString path = victim.value("path").toString();
        QVERIFY(testsupport::flipByte(path, victim.value("bytes").toInteger() / 2));
        CliResult bad = testsupport::runCli({"verify", "--home", home, "--run", "v"});
        QVERIFY2(bad.exitCode != 0, bad.describe());
        QVERIFY2(
            bad.err.contains(QStringLiteral("DAMAGED v #%1 ").arg(victim.value("id").toInteger()) + path + ": SHA-256"),
            bad.describe());
        QVERIFY(bad.out.contains("3 verified, 1 damaged"));
        // It is now recorded as corrupt and is never offered again...
        QJsonArray after = testsupport::checkpointsJson(home, "v");
        QCOMPARE(after.at(1).toObject().value("state").toString(), QStringLiteral("corrupt"));
        QVERIFY(!after.at(1).toObject().value("state_detail").toString().isEmpty());
        QCOMPARE(after.at(3).toObject().value("state").toString(), QStringLiteral("committed"));
        // ...and verify keeps reporting it.
        CliResult still = testsupport::runCli({"verify", "--home", home});
        QVERIFY2(still.exitCode != 0 && still.err.contains(path), still.describe());
        // A checkpoint swapped for another valid one, and a deleted one, are named too.
        const QString p0 = cks.at(0).toObject().value("path").toString();
        const QString p2 = cks.at(2).toObject().value("path").toString();
        QVERIFY(QFile::remove(p0) && QFile::copy(cks.at(3).toObject().value("path").toString(), p0));
        QVERIFY(QFile::remove(p2));
        CliResult worse = testsupport::runCli({"verify", "--home", home});
        QVERIFY2(worse.exitCode != 0, worse.describe());
        QVERIFY2(worse.err.contains(QStringLiteral("#%1 ").arg(cks.at(0).toObject().value("id").toInteger()) + p0),
                 worse.describe());
        QVERIFY2(worse.err.contains(QStringLiteral("#%1 ").arg(cks.at(2).toObject().value("id").toInteger()) + p2) &&
                     worse.err.contains("missing"),
                 worse.describe());
    }

    // A home whose registry was deleted (or emptied) still holds the old run's
    // files. Training a run of the same name again is handed ids 1, 2... again:
    // the old files must end up in quarantine/, byte for byte, never removed.
    void lostRegistryKeepsTheOldCheckpoints_data() {
        QTest::addColumn<bool>("emptied");
        QTest::newRow("deleted") << false;
        QTest::newRow("emptied") << true;
    }
    void lostRegistryKeepsTheOldCheckpoints() {
        QFETCH(bool, emptied);
        const QString home = fresh(emptied ? "lost-emptied" : "lost-deleted");
        QCOMPARE(runInProcess(testsupport::trainArgs(home, "p", 1, 20, "10")).exitCode, 0);
        const QString dir = home + "/checkpoints/p/";
        QMap<QString, QByteArray> before;
        for (const QString& f : QDir(dir).entryList(QDir::Files)) before[f] = testsupport::fileSha256(dir + f);
        QCOMPARE(before.size(), 2);
        for (const QString& f : QDir(home).entryList({"registry.sqlite*"}, QDir::Files))
            QVERIFY(QFile::remove(home + "/" + f));
        if (emptied) QVERIFY(testsupport::writeAll(home + "/registry.sqlite", QByteArray()));
        if (!emptied) {
            // The commands that only read create no registry, but say what the files are
            // and what the next writer will do; verify does not call that a clean home.
            const auto untouched = testsupport::treeFingerprint(home);
            const QString note =
                "note: " + home + "/checkpoints/p/ holds 2 files but " + home + "/registry.sqlite is missing";
            CliResult v = runInProcess({"verify", "--home", home});
            QVERIFY2(v.exitCode == 1 && v.err.contains(note) && v.out.contains("0 verified, 0 damaged (no registry in"),
                     v.describe());
            CliResult runs = runInProcess({"runs", "--home", home});
            QVERIFY2(runs.exitCode == 0 && runs.err.contains(note), runs.describe());
            CliResult cks = runInProcess({"checkpoints", "--home", home, "--run", "p"});
            QVERIFY2(cks.exitCode == 2 && cks.err.contains(note) && cks.err.contains("no run named 'p'"),
                     cks.describe());
            QVERIFY(untouched == testsupport::treeFingerprint(home));
        }

        CliResult again = runInProcess(testsupport::trainArgs(home, "p", 1, 20, "10", {"--seed", "7"}));
        QVERIFY2(again.exitCode == 0, again.describe());
        QVERIFY2(again.out.contains("saved checkpoint #1 ") && again.out.contains("saved checkpoint #2 "),
                 again.describe());
        QVERIFY2(!again.err.contains("error"), again.describe());
        QVERIFY2(again.out.contains("recovery: checkpoint directory " + dir + " belongs to no run in the registry") &&
                     again.out.contains("moved 2 files to"),
                 again.describe());
        for (auto it = before.begin(); it != before.end(); ++it)
            QCOMPARE(testsupport::fileSha256(home + "/quarantine/p-" + it.key()), it.value());
        // The new run's own checkpoints are there and verify.
        CliResult v = runInProcess({"verify", "--home", home});
        QVERIFY2(v.exitCode == 0 && v.out.contains("2 verified, 0 damaged"), v.describe());
    }

    // A home that is a file, or under one, is a mistyped flag: exit 2, named, nothing touched.
    void homeThatIsAFileIsABadInput() {
        const QString file = fresh("not-a-dir");
        QVERIFY(testsupport::writeAll(file, QByteArray("keep me")));
        for (const QStringList& args :
             {QStringList{"runs", "--home", file}, QStringList{"verify", "--home", file + "/sub"},
              QStringList{"train", "--run", "x", "--data", "synthetic", "--home", file + "/sub/deeper"}}) {
            CliResult r = runInProcess(args);
            QVERIFY2(r.exitCode == 2 &&
                         r.err.contains(
                             "--home: expected a directory for the registry and checkpoints, found a file at " + file),
                     r.describe());
        }
        CliResult env = runInProcess({"runs"}, file);
        QVERIFY2(env.exitCode == 2 && env.err.contains("SAVEPOINT_HOME: expected a directory"), env.describe());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep me"));
    }

    // A registry with damaged pages is reported by verify (exit 1) and left as it is.
    void verifyReportsADamagedRegistry() {
        const QString home = fresh("damaged-registry");
        QCOMPARE(runInProcess(testsupport::trainArgs(home, "d", 2, 20, "10")).exitCode, 0);
        const QString db = home + "/registry.sqlite";
        QFile f(db);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 pages = f.size() / 4096;
        QVERIFY(pages >= 4);
        QVERIFY(f.seek((pages - 1) * 4096));  // the last page: a table's, never the schema's
        QVERIFY(f.write(QByteArray(4096, '\x55')) == 4096);
        f.close();
        const QByteArray sha = testsupport::fileSha256(db);
        CliResult v = runInProcess({"verify", "--home", home});
        QVERIFY2(v.exitCode == 1 && v.err.contains("DAMAGED registry " + db + ": ") && v.err.contains("left as it is"),
                 v.describe());
        QCOMPARE(testsupport::fileSha256(db), sha);
    }

    // Data order is a function of (seed, epoch), so a resume reproduces the run
    // only on the same data. A dataset directory is recorded as an absolute path
    // (a relative one used to fail, or find other files, from another working
    // directory), with the SHA-256 of each file's decoded bytes: a moved
    // directory is followed with resume --data, and changed files are refused
    // before anything is written.
    void resumeChecksTheDatasetAndFollowsItWhenMoved() {
        const QString root = fresh("dataset-moves");
        QVERIFY(QDir().mkpath(root + "/ds"));
        QByteArray labels = idxLabels(64);
        for (int i = 0; i < 64; ++i) labels[8 + i] = char((i * 7) % 10);
        QVERIFY(testsupport::writeAll(root + "/ds/train-images-idx3-ubyte", idxImages(64)));
        QVERIFY(testsupport::writeAll(root + "/ds/train-labels-idx1-ubyte", labels));
        QVERIFY(testsupport::writeAll(root + "/ds/t10k-images-idx3-ubyte", idxImages(16)));
        QVERIFY(testsupport::writeAll(root + "/ds/t10k-labels-idx1-ubyte", idxLabels(16)));
        const QString home = root + "/home";
        auto train = [&](const QString& run, const QStringList& extra) {
            return QStringList{"train", "--home",  home, "--run",       run, "--data",    "ds", "--epochs",
                               "2",     "--batch", "8",  "--save-freq", "2", "--threads", "1"} +
                   extra;
        };
        const QString cwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(root));  // the relative --data "ds"
        CliResult full = runInProcess(train("full", {}));
        CliResult cut = runInProcess(train("cut", {"--interrupt-at-step", "5"}));
        CliResult cut2 = runInProcess(train("cut2", {"--interrupt-at-step", "5"}));
        QVERIFY(QDir::setCurrent(cwd));
        QVERIFY2(full.exitCode == 0, full.describe());
        QVERIFY2(cut.exitCode == 3 && cut2.exitCode == 3, (cut.describe() + cut2.describe()).constData());
        const QJsonObject config = testsupport::runsJson(home).at(0).toObject().value("config").toObject();
        QCOMPARE(config.value("data").toString(), root + "/ds");
        const QJsonObject sha = config.value("data_sha256").toObject();
        QCOMPARE(sha.keys(), (QStringList{"t10k-images", "t10k-labels", "train-images", "train-labels"}));
        QCOMPARE(sha.value("train-labels").toString(),
                 QString::fromLatin1(QCryptographicHash::hash(labels.mid(8), QCryptographicHash::Sha256).toHex()));

        // Moved: the recorded path is gone, and the error says how to go on.
        QVERIFY(QDir().rename(root + "/ds", root + "/moved"));
        auto before = testsupport::treeFingerprint(home);
        CliResult lost = runInProcess({"resume", "--home", home, "--run", "cut"});
        QVERIFY2(lost.exitCode == 2 && lost.err.contains("run 'cut' was trained on the dataset in " + root + "/ds") &&
                     lost.err.contains("savepoint-cli resume --run cut --data NEW_DIR"),
                 lost.describe());
        QVERIFY(before == testsupport::treeFingerprint(home));
        CliResult followed = runInProcess({"resume", "--home", home, "--run", "cut", "--data", root + "/moved"});
        QVERIFY2(followed.exitCode == 0, followed.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(followed.out), testsupport::paramsShaFromOutput(full.out));

        // Changed in place: one label differs, and the resume is refused, naming the file.
        labels[8 + 3] = char((labels[8 + 3] + 1) % 10);
        QVERIFY(testsupport::writeAll(root + "/moved/train-labels-idx1-ubyte", labels));
        before = testsupport::treeFingerprint(home);
        CliResult changed = runInProcess({"resume", "--home", home, "--run", "cut2", "--data", root + "/moved"});
        QVERIFY2(changed.exitCode == 2 &&
                     changed.err.contains("--data: train-labels in " + root +
                                          "/moved is not what run 'cut2' was trained on") &&
                     changed.err.contains("recorded " + sha.value("train-labels").toString()),
                 changed.describe());
        QVERIFY(before == testsupport::treeFingerprint(home));
    }

    // Recovery moves and marks files by what the registry says. A registry with
    // damaged pages must stop every command before it changes anything: with
    // page headers scrambled a run row came back with an empty name, whose
    // directory "checkpoints//" made every run's files look like orphans, and
    // `runs` moved them all to quarantine/. "pages": every page but the schema's
    // scrambled as in that report; "last page": only the last page overwritten,
    // run names intact, with a temp file left for recovery to remove (its first
    // change), so the page check before that change is what stops it.
    void damagedRegistryStopsCommandsBeforeTheyChangeAnything_data() {
        QTest::addColumn<bool>("everyPage");
        QTest::newRow("pages") << true;
        QTest::newRow("last page") << false;
    }
    void damagedRegistryStopsCommandsBeforeTheyChangeAnything() {
        QFETCH(bool, everyPage);
        const QString home = fresh(everyPage ? "damaged-pages" : "damaged-last-page");
        QCOMPARE(runInProcess(testsupport::trainArgs(home, "d", 2, 20, "10")).exitCode, 0);
        QCOMPARE(runInProcess(testsupport::trainArgs(home, "e", 1, 20, "10")).exitCode, 0);
        if (!everyPage)
            QVERIFY(testsupport::writeAll(home + "/checkpoints/d/ckpt-00000099.svpt.tmp", QByteArray("half")));
        const QString db = home + "/registry.sqlite";
        QFile f(db);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        const int pages = int(bytes.size() / 4096);
        QVERIFY(pages >= 4);
        if (everyPage) {
            // The schema outgrew page 1 at version 5: its other pages are the ones holding "CREATE ".
            for (int page = 1; page < pages; ++page)
                if (!bytes.mid(page * 4096, 4096).contains("CREATE "))
                    for (int i = 8; i < 40; ++i) bytes[page * 4096 + i] = char(bytes[page * 4096 + i] ^ 0x5a);
        } else {
            bytes.replace((pages - 1) * 4096, 4096, QByteArray(4096, '\x55'));
        }
        QVERIFY(f.seek(0) && f.write(bytes) == bytes.size());
        f.close();
        const auto before = testsupport::treeFingerprint(home);
        const QList<QStringList> commands{{"runs"},
                                          {"checkpoints", "--run", "d"},
                                          {"resume", "--run", "d"},
                                          {"train", "--run", "z", "--data", "synthetic", "--epochs", "1"},
                                          {"pin", "--run", "e", "--checkpoint", "3"}};
        for (const QStringList& c : commands) {
            CliResult r = runInProcess(c + QStringList{"--home", home});
            QVERIFY2(r.exitCode == 1 && r.err.contains(db + ": the registry is damaged (") &&
                         r.err.contains("recovery stopped before changing anything"),
                     r.describe());
            QVERIFY2(before == testsupport::treeFingerprint(home), qPrintable(c.join(' ')));
        }
        CliResult v = runInProcess({"verify", "--home", home});
        QVERIFY2(v.exitCode == 1 && v.err.contains("DAMAGED registry " + db + ": "), v.describe());
        QVERIFY(before == testsupport::treeFingerprint(home));
    }

    // A home that cannot be written (a backup, a snapshot, a read-only mount) can
    // still be listed and verified; nothing in it changes, damage is reported.
    // As root (which may write anything) the commands run as nobody.
    void readOnlyHomeCanBeInspected() {
        const QString home = fresh("read-only");
        QCOMPARE(runInProcess(testsupport::trainArgs(home, "r", 1, 20, "10")).exitCode, 0);
        QJsonArray cks = testsupport::checkpointsJson(home, "r");
        QCOMPARE(cks.size(), 2);
        const QString victim = cks.at(0).toObject().value("path").toString();
        QVERIFY(testsupport::flipByte(victim, cks.at(0).toObject().value("bytes").toInteger() / 2));
        const auto before = testsupport::treeFingerprint(home);
        const bool root = ::geteuid() == 0;
        if (root && QStandardPaths::findExecutable("setpriv").isEmpty())
            QSKIP("running as root without setpriv to drop it");
        // Read and search for everyone along the way; write for no one in the home.
        for (QString d = home; d.startsWith(QDir::tempPath() + "/"); d = QFileInfo(d).path())
            QFile::setPermissions(d, QFile::permissions(d) | QFileDevice::ReadOther | QFileDevice::ExeOther |
                                         QFileDevice::ReadGroup | QFileDevice::ExeGroup);
        QDirIterator it(home, QDir::AllEntries | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        QStringList all{home};
        while (it.hasNext()) all << it.next();
        for (const QString& f : all)
            QFile::setPermissions(f, (QFile::permissions(f) | QFileDevice::ReadOther | QFileDevice::ReadGroup) &
                                         ~(QFileDevice::WriteOwner | QFileDevice::WriteUser | QFileDevice::WriteGroup |
                                           QFileDevice::WriteOther));
        auto run = [&](const QStringList& args) {
            if (!root) return runInProcess(args);
            QProcess p;
            p.setProcessEnvironment(testsupport::cliEnvironment());
            p.start("setpriv",
                    QStringList{"--reuid=65534", "--regid=65534", "--clear-groups", testsupport::cliPath()} + args);
            CliResult r;
            if (!p.waitForFinished(120000)) return r;
            r.exitCode = p.exitCode();
            r.out = QString::fromUtf8(p.readAllStandardOutput());
            r.err = QString::fromUtf8(p.readAllStandardError());
            return r;
        };
        if (root) {
            // The build tree must be readable by nobody (a clone under /root is not).
            CliResult probe = run({"--version"});
            if (probe.exitCode != 0)
                QSKIP(
                    qPrintable("cannot run the CLI as nobody here (is the build directory readable by other users?): " +
                               probe.err));
        }
        CliResult runs = run({"runs", "--home", home});
        QVERIFY2(runs.exitCode == 0 && runs.out.contains(QRegularExpression("\\nr +finished +20/20")) &&
                     runs.err.contains("cannot be written: showing the registry as it is"),
                 runs.describe());
        CliResult list = run({"checkpoints", "--home", home, "--run", "r"});
        QVERIFY2(list.exitCode == 0 && list.out.contains("committed"), list.describe());
        CliResult v = run({"verify", "--home", home});
        QVERIFY2(v.exitCode == 1 && v.err.contains("DAMAGED r #") && v.err.contains(victim) &&
                     v.out.contains("1 verified, 1 damaged"),
                 v.describe());
        for (const QString& f : all)
            QFile::setPermissions(f, QFile::permissions(f) | QFileDevice::WriteOwner | QFileDevice::WriteUser);
        QVERIFY2(before == testsupport::treeFingerprint(home), "a read-only inspection changed the home");
    }

    void pinAndUnpin() {
        const QString home = fresh("pin");
        QCOMPARE(testsupport::runCli(testsupport::trainArgs(home, "p", 1, 10, "2", {"--keep", "1"})).exitCode, 0);
        QJsonArray cks = testsupport::checkpointsJson(home, "p");
        QCOMPARE(cks.size(), 5);  // 2, 4, 6, 8, final 10; keep 1
        const qint64 head = testsupport::headOf(cks).value("id").toInteger();
        CliResult pin =
            testsupport::runCli({"pin", "--home", home, "--run", "p", "--checkpoint", QString::number(head)});
        QVERIFY2(pin.exitCode == 0 && pin.out.contains(QStringLiteral("pinned checkpoint #%1").arg(head)),
                 pin.describe());
        QVERIFY(testsupport::headOf(testsupport::checkpointsJson(home, "p")).value("pinned").toBool());
        // Asked twice, the second says nothing changed instead of claiming it did.
        CliResult again = runInProcess({"pin", "--home", home, "--run", "p", "--checkpoint", QString::number(head)});
        QVERIFY2(
            again.exitCode == 0 && again.out.contains(QStringLiteral("checkpoint #%1 was already pinned").arg(head)),
            again.describe());
        CliResult unpin =
            testsupport::runCli({"unpin", "--home", home, "--run", "p", "--checkpoint", QString::number(head)});
        QVERIFY2(unpin.exitCode == 0 && unpin.out.contains(QStringLiteral("unpinned checkpoint #%1").arg(head)),
                 unpin.describe());
        QVERIFY(!testsupport::headOf(testsupport::checkpointsJson(home, "p")).value("pinned").toBool());
        CliResult unpinAgain =
            runInProcess({"unpin", "--home", home, "--run", "p", "--checkpoint", QString::number(head)});
        QVERIFY2(unpinAgain.exitCode == 0 &&
                     unpinAgain.out.contains(QStringLiteral("checkpoint #%1 was not pinned").arg(head)),
                 unpinAgain.describe());
        // A checkpoint retention removed has no file left to keep: refused, and nothing changes.
        const QJsonObject gone = cks.at(0).toObject();
        QCOMPARE(gone.value("state").toString(), QStringLiteral("deleted"));
        const auto before = testsupport::treeFingerprint(home);
        CliResult dead = runInProcess(
            {"pin", "--home", home, "--run", "p", "--checkpoint", QString::number(gone.value("id").toInteger())});
        QVERIFY2(dead.exitCode == 2 &&
                     dead.err.contains(
                         QStringLiteral("--checkpoint: checkpoint #%1 is deleted").arg(gone.value("id").toInteger())) &&
                     dead.err.contains("only a committed checkpoint can be pinned"),
                 dead.describe());
        QVERIFY(before == testsupport::treeFingerprint(home));
    }

    void twoWritersOnOneRun() {
        const QString home = fresh("busy");
        const QStringList args = testsupport::trainArgs(home, "busy", 500, 100, "25");  // stopped long before the end
        QProcess first;
        first.setProcessEnvironment(testsupport::cliEnvironment());
        first.start(testsupport::cliPath(), args);
        QVERIFY(first.waitForStarted(30000));
        QByteArray out;
        const bool training = testsupport::waitUntil(
            [&] {
                first.waitForReadyRead(20);
                out += first.readAllStandardOutput();
                return out.contains("saved checkpoint #1 ");
            },
            120000);
        QVERIFY2(training, out.constData());
        const QJsonObject configBefore = testsupport::runsJson(home).at(0).toObject().value("config").toObject();

        // A second train and a resume of the same run: refused with exit 1 and a clear message.
        CliResult second = testsupport::runCli(args);
        QVERIFY2(second.exitCode == 1, second.describe());
        QVERIFY2(second.err.contains("run 'busy' is in use by another Savepoint process (process " +
                                     QString::number(first.processId()) + "; lock "),
                 second.describe());
        CliResult resume = testsupport::runCli({"resume", "--home", home, "--run", "busy"});
        QVERIFY2(resume.exitCode == 1, resume.describe());
        QVERIFY2(resume.err.contains("run 'busy' is in use by another Savepoint process"), resume.describe());
        CliResult rollback = testsupport::runCli({"resume", "--home", home, "--run", "busy", "--checkpoint", "1"});
        QVERIFY2(rollback.exitCode == 1, rollback.describe());
        // Readers still work while it trains, and see it running.
        CliResult runs;
        QJsonArray list = testsupport::runsJson(home, &runs);
        QVERIFY2(runs.exitCode == 0, runs.describe());
        QCOMPARE(list.at(0).toObject().value("status").toString(), QStringLiteral("running"));
        QCOMPARE(list.at(0).toObject().value("config").toObject(), configBefore);
        QVERIFY(first.state() == QProcess::Running);

        // The first writer is unharmed: stop it with a preemption notice, then everything verifies.
        first.terminate();
        QVERIFY(first.waitForFinished(120000));
        out += first.readAllStandardOutput();
        QVERIFY2(first.exitCode() == 3, out.constData());
        CliResult verify = testsupport::runCli({"verify", "--home", home});
        QVERIFY2(verify.exitCode == 0, verify.describe());
        QVERIFY(!verify.err.contains("DAMAGED"));
        QJsonArray cks = testsupport::checkpointsJson(home, "busy");
        for (const auto& v : cks) {
            const QString st = v.toObject().value("state").toString();
            QVERIFY2(st == "committed" || st == "deleted", qPrintable(st));
        }
        QCOMPARE(testsupport::runsJson(home).at(0).toObject().value("status").toString(), QStringLiteral("preempted"));
        // Only the first process's sessions exist.
        // And now that the lock is free, resume is accepted (stopped again right away).
        const qint64 at = testsupport::runsJson(home).at(0).toObject().value("global_step").toInteger();
        CliResult later = testsupport::runCli(
            {"resume", "--home", home, "--run", "busy", "--interrupt-at-step", QString::number(at + 3)});
        QVERIFY2(later.exitCode == 3, later.describe());
    }

    // A preemption notice can come while a resume is still starting (LibTorch
    // alone takes ~0.3 s to load): it must stop the run as a notice, not kill
    // it unannounced (exit 143), and the run must then finish with the bits of
    // one never interrupted.
    void sigtermWhileStartingIsAPreemptionNotice() {
        const QString home = fresh("early-term");
        CliResult crashed =
            testsupport::runCli(testsupport::trainArgs(home, "early", 2, 20, "10") << "--interrupt-at-step"
                                                                                   << "15");
        QVERIFY2(crashed.exitCode == 3, crashed.describe());
        QProcess p;
        terminateWhileStarting(p, {"resume", "--home", home, "--run", "early"});
        if (QTest::currentTestFailed()) return;
        const QString out = QString::fromUtf8(p.readAllStandardOutput()) + QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 3, qPrintable(out));
#ifndef SAVEPOINT_SANITIZED_BUILD
        // Sanitizer builds install the early handler in main(), close to the trainer's.
        QVERIFY2(out.contains("a preemption notice (SIGTERM) came while savepoint-cli was starting: stopping at the "
                              "first step boundary"),
                 qPrintable(out));
#endif
        QVERIFY2(out.contains("preemption_notice: preemption notice at epoch 1, step 10"), qPrintable(out));
        // Nothing new to write: the checkpoint it resumed from holds that very step.
        QVERIFY2(out.contains("preempted: preempted at epoch 1, step 10, which a checkpoint already holds; stopped"),
                 qPrintable(out));
        QCOMPARE(testsupport::runsJson(home).at(0).toObject().value("status").toString(), QStringLiteral("preempted"));
        QCOMPARE(testsupport::headOf(testsupport::checkpointsJson(home, "early")).value("global_step").toInteger(), 10);

        CliResult finished = testsupport::runCli({"resume", "--home", home, "--run", "early"});
        QVERIFY2(finished.exitCode == 0, finished.describe());
        CliResult reference =
            testsupport::runCli(testsupport::trainArgs(fresh("early-reference"), "early", 2, 20, "10"));
        QVERIFY2(reference.exitCode == 0, reference.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(finished.out), testsupport::paramsShaFromOutput(reference.out));
    }

    // The early handler must not swallow the signal for the other commands:
    // they end as SIGTERM's default action has it.
    void sigtermWhileStartingEndsOtherCommands() {
        QProcess p;
        terminateWhileStarting(p, {"runs", "--home", home_});
        if (QTest::currentTestFailed()) return;
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
