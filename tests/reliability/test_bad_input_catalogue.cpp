// Bad input catalogue: a data-driven table of bad inputs across CLI flags,
// dataset files (IDX variants), checkpoint files and registry files, each with
// the exact error text expected (a substring of stderr) and the exit code.
// Every row runs in-process through savepoint::run_cli (the code the binary's
// main() calls); every 4th row also through the real savepoint-cli binary.
// A second table checks TrainConfig::validate(), whose messages the GUI's
// new-run dialog shows for its fields.
//
//   ctest --test-dir build -R test_bad_input_catalogue --output-on-failure
#include "idx_files.h"
#include "reliability_support.h"

#include "cli_app.h"
#include "platform/errors.h"
#include "training/train_config.h"

#include <QtTest>

#include <sqlite3.h>
#include <sstream>

using namespace reliability;

using testsupport::be32;
using testsupport::gzip;

namespace {

QByteArray images(quint32 n, quint32 rows = 28, quint32 cols = 28) {
    return be32(0x803) + be32(n) + be32(rows) + be32(cols) + QByteArray(int(n * rows * cols), char(7));
}
QByteArray labels(quint32 n, char value = 3) { return be32(0x801) + be32(n) + QByteArray(int(n), value); }

}  // namespace

class TestBadInputCatalogue : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    QString finished_;  // a home with run 'r' finished: 1 epoch x 4 steps, checkpoints #1 (step 2) and #2 (step 4)
    int row_ = 0;

    QString ckpt(const QString& home, int id) const {
        return home + QStringLiteral("/checkpoints/r/ckpt-%1.svpt").arg(id, 8, 10, QLatin1Char('0'));
    }

    // Builds what a row needs; returns the home to use and sets %DATA.
    QString prepare(const QString& setup, QString* data) {
        const QString dir = tmp_.filePath(QStringLiteral("row%1").arg(++row_));
        QDir().mkpath(dir);
        QString home = dir + QStringLiteral("/home");
        *data = dir + QStringLiteral("/data");
        if (setup.startsWith(QLatin1String("idx:"))) {
            QDir().mkpath(*data);
            QMap<QString, QByteArray> files{{QStringLiteral("train-images-idx3-ubyte"), images(20)},
                                            {QStringLiteral("train-labels-idx1-ubyte"), labels(20)},
                                            {QStringLiteral("t10k-images-idx3-ubyte"), images(8)},
                                            {QStringLiteral("t10k-labels-idx1-ubyte"), labels(8)}};
            const QString v = setup.mid(4);
            const QString ti = QStringLiteral("train-images-idx3-ubyte"),
                          tl = QStringLiteral("train-labels-idx1-ubyte");
            if (v == QLatin1String("missing-train-labels"))
                files.remove(tl);
            else if (v == QLatin1String("missing-test-images"))
                files.remove(QStringLiteral("t10k-images-idx3-ubyte"));
            else if (v == QLatin1String("labels-as-images"))
                files[ti] = labels(20);
            else if (v == QLatin1String("gzipped-twice")) {
                files.remove(ti);
                files[ti + QStringLiteral(".gz")] = gzip(gzip(images(20)));
            } else if (v == QLatin1String("truncated-images"))
                files[ti].chop(100);
            else if (v == QLatin1String("trailing-bytes"))
                files[ti] += QByteArray(5, 0);
            else if (v == QLatin1String("label-out-of-range")) {
                files[tl] = labels(20);
                files[tl][8 + 3] = char(10);
            } else if (v == QLatin1String("label-count-mismatch"))
                files[tl] = labels(19);
            else if (v == QLatin1String("wrong-size"))
                files[ti] = images(20, 27, 28);
            else if (v == QLatin1String("zero-count"))
                files[ti] = images(0);
            else if (v == QLatin1String("empty-file"))
                files[ti] = QByteArray();
            else if (v == QLatin1String("header-truncated"))
                files[ti] = be32(0x803) + QByteArray(2, 0);
            else if (v == QLatin1String("wrong-type")) {
                files[ti] = images(20);
                files[ti][2] = char(0x0d);
            } else if (v == QLatin1String("truncated-gzip")) {
                files.remove(ti);
                QByteArray g = gzip(images(20));
                g.chop(g.size() / 2);
                files[ti + QStringLiteral(".gz")] = g;
            } else if (v == QLatin1String("images-is-a-directory")) {
                files.remove(ti);
                QDir().mkpath(*data + QLatin1Char('/') + ti);
            } else if (v == QLatin1String("not-gzip-despite-name")) {
                files.remove(ti);
                files[ti + QStringLiteral(".gz")] = QByteArray("\x1f\x8b\x08\x00garbage", 12);
            }
            for (auto it = files.begin(); it != files.end(); ++it)
                testsupport::writeAll(*data + QLatin1Char('/') + it.key(), it.value());
        } else if (setup.startsWith(QLatin1String("finished"))) {
            copyTree(finished_, home);
            const QString v = setup.section(QLatin1Char(':'), 1);
            if (v == QLatin1String("truncate-1"))
                testsupport::truncateFile(ckpt(home, 1), 100);
            else if (v == QLatin1String("flip-1"))
                testsupport::flipByte(ckpt(home, 1), 5000, 0x04);
            else if (v == QLatin1String("delete-1"))
                QFile::remove(ckpt(home, 1));
            else if (v == QLatin1String("swap-1")) {
                QFile::remove(ckpt(home, 1));
                QFile::copy(ckpt(home, 2), ckpt(home, 1));
            } else if (v == QLatin1String("zero-2"))
                testsupport::truncateFile(ckpt(home, 2), 0);
            else if (v == QLatin1String("foreign-file"))
                testsupport::writeAll(home + QStringLiteral("/checkpoints/r/ckpt-00000099.svpt"), "not a checkpoint");
        } else if (setup == QLatin1String("registry:garbage")) {
            QDir().mkpath(home);
            testsupport::writeAll(home + QStringLiteral("/registry.sqlite"),
                                  QByteArray("this is not a database, it is a text file\n").repeated(200));
        } else if (setup == QLatin1String("registry:directory")) {
            QDir().mkpath(home + QStringLiteral("/registry.sqlite"));
        } else if (setup == QLatin1String("registry:v99")) {
            {
                savepoint::Registry reg(home.toStdString());
                sqlite3_exec(reg.db(), "PRAGMA user_version=99", nullptr, nullptr, nullptr);
            }
        } else if (setup == QLatin1String("home:file")) {
            testsupport::writeAll(home, "a file, not a directory");
        }
        return home;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        finished_ = tmp_.filePath(QStringLiteral("finished"));
        CliResult r = reliability::runCli(tinyTrain(finished_, QStringLiteral("r"), 1, 4, 2));
        QVERIFY2(r.exitCode == 0 && savedLines(r.out).size() == 2, r.describe().constData());
    }

    void cli_data() {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("expected");
        const QString S = QStringLiteral("synthetic");
        auto train = [&](const QStringList& extra) {
            return QStringList{QStringLiteral("train"),
                               QStringLiteral("--home"),
                               QStringLiteral("%HOME"),
                               QStringLiteral("--run"),
                               QStringLiteral("x"),
                               QStringLiteral("--data"),
                               S} +
                   extra;
        };
        auto resume = [&](const QStringList& extra) {
            return QStringList{QStringLiteral("resume"), QStringLiteral("--home"), QStringLiteral("%HOME"),
                               QStringLiteral("--run"), QStringLiteral("r")} +
                   extra;
        };
        auto idx = [&](const QString& v, const QString& expected, int code = 2) {
            QTest::addRow("idx: %s", qPrintable(v))
                << QStringLiteral("idx:") + v
                << QStringList{QStringLiteral("train"), QStringLiteral("--home"), QStringLiteral("%HOME"),
                               QStringLiteral("--run"), QStringLiteral("x"),      QStringLiteral("--data"),
                               QStringLiteral("%DATA")}
                << code << expected;
        };
        auto flag = [&](const char* name, const QStringList& args, int code, const QString& expected) {
            QTest::addRow("flag: %s", name) << QStringLiteral("none") << args << code << expected;
        };

        // --- CLI flags ---
        flag("no arguments", {}, 2, QStringLiteral("error: A subcommand is required"));
        flag("unknown subcommand", {QStringLiteral("frobnicate")}, 2,
             QStringLiteral(
                 "error: unknown subcommand 'frobnicate' (expected train, resume, runs, checkpoints, telemetry, "
                 "verify, pin, unpin, compare, export or pull)"));
        flag("train without --run", {QStringLiteral("train"), QStringLiteral("--home"), QStringLiteral("%HOME")}, 2,
             QStringLiteral("error: --run is required"));
        flag("unknown option", train({QStringLiteral("--bogus")}), 2, QStringLiteral("--bogus"));
        flag("run name with a slash",
             {QStringLiteral("train"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
              QStringLiteral("../evil")},
             2,
             QStringLiteral("error: --run: expected 1 to 64 characters from A-Z a-z 0-9 . _ - (not starting with '.'), "
                            "found '../evil'"));
        flag("run name starting with a dot",
             {QStringLiteral("train"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
              QStringLiteral(".hidden")},
             2, QStringLiteral("found '.hidden'"));
        flag("run name of 65 characters",
             {QStringLiteral("train"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
              QString(65, QLatin1Char('a'))},
             2, QStringLiteral("error: --run: expected 1 to 64 characters"));
        flag("empty run name",
             {QStringLiteral("train"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
              QString()},
             2, QStringLiteral("error: --run: expected 1 to 64 characters"));
        flag("--model resnet", train({QStringLiteral("--model"), QStringLiteral("resnet")}), 2,
             QStringLiteral("error: --model: expected mlp, dnn, cnn or a TorchScript file (FILE.pt), found 'resnet'"));
        flag("--optimizer rmsprop", train({QStringLiteral("--optimizer"), QStringLiteral("rmsprop")}), 2,
             QStringLiteral("error: --optimizer: expected adam|sgd, found 'rmsprop'"));
        flag("--device tpu", train({QStringLiteral("--device"), QStringLiteral("tpu")}), 2,
             QStringLiteral("error: --device: expected auto|cpu|cuda, found 'tpu'"));
        flag("--async-policy maybe", train({QStringLiteral("--async-policy"), QStringLiteral("maybe")}), 2,
             QStringLiteral("error: --async-policy: expected wait|skip|defer, found 'maybe'"));
        flag("--epochs 0", train({QStringLiteral("--epochs"), QStringLiteral("0")}), 2,
             QStringLiteral("error: --epochs: expected an integer from 1 to 1000000, found 0"));
        flag("--epochs abc", train({QStringLiteral("--epochs"), QStringLiteral("abc")}), 2,
             QStringLiteral("error: --epochs: expected an integer from 1 to 1000000, found 'abc'"));
        flag("--batch 0", train({QStringLiteral("--batch"), QStringLiteral("0")}), 2,
             QStringLiteral("error: --batch: expected an integer from 1 to 65536, found 0"));
        flag("--batch 100000", train({QStringLiteral("--batch"), QStringLiteral("100000")}), 2,
             QStringLiteral("error: --batch: expected an integer from 1 to 65536, found 100000"));
        flag("--lr 0", train({QStringLiteral("--lr"), QStringLiteral("0")}), 2,
             QStringLiteral("error: --lr: expected a number greater than 0 and at most 10, found 0"));
        flag("--lr nan", train({QStringLiteral("--lr"), QStringLiteral("nan")}), 2,
             QStringLiteral("error: --lr: expected a number greater than 0 and at most 10, found nan"));
        flag("--lr 11", train({QStringLiteral("--lr"), QStringLiteral("11")}), 2,
             QStringLiteral("error: --lr: expected a number greater than 0 and at most 10, found 11"));
        flag("--save-freq 0", train({QStringLiteral("--save-freq"), QStringLiteral("0")}), 2,
             QStringLiteral("error: --save-freq: expected 'epoch' or a positive number of steps, found '0'"));
        flag("--save-freq often", train({QStringLiteral("--save-freq"), QStringLiteral("often")}), 2,
             QStringLiteral("error: --save-freq: expected 'epoch' or a positive number of steps, found 'often'"));
        flag("--save-freq 3x", train({QStringLiteral("--save-freq"), QStringLiteral("3x")}), 2,
             QStringLiteral("found '3x'"));
        flag("--keep 0", train({QStringLiteral("--keep"), QStringLiteral("0")}), 2,
             QStringLiteral("error: --keep: expected an integer from 1 to 100000, found 0"));
        flag("--threads 2000", train({QStringLiteral("--threads"), QStringLiteral("2000")}), 2,
             QStringLiteral("error: --threads: expected an integer from 1 to 1024, found 2000"));
        flag("--threads 0", train({QStringLiteral("--threads"), QStringLiteral("0")}), 2,
             QStringLiteral("error: --threads: expected an integer from 1 to 1024, found 0"));
        flag("--seed 2^64", train({QStringLiteral("--seed"), QStringLiteral("18446744073709551616")}), 2,
             QStringLiteral(
                 "error: --seed: expected an integer from 0 to 18446744073709551615, found 18446744073709551616"));
        flag("--seed -1", train({QStringLiteral("--seed"), QStringLiteral("-1")}), 2,
             QStringLiteral("error: --seed: expected an integer from 0 to 18446744073709551615, found -1"));
        flag("--epochs 2.5", train({QStringLiteral("--epochs"), QStringLiteral("2.5")}), 2,
             QStringLiteral("error: --epochs: expected an integer from 1 to 1000000, found 2.5"));
        flag("--epochs 10^20", train({QStringLiteral("--epochs"), QStringLiteral("99999999999999999999")}), 2,
             QStringLiteral("error: --epochs: expected an integer from 1 to 1000000, found 99999999999999999999"));
        flag("--disk-retry-seconds nan", train({QStringLiteral("--disk-retry-seconds"), QStringLiteral("nan")}), 2,
             QStringLiteral("error: --disk-retry-seconds: expected a number from 0 to 86400, found nan"));
        flag("--lr abc", train({QStringLiteral("--lr"), QStringLiteral("abc")}), 2,
             QStringLiteral("error: --lr: expected a number, found 'abc'"));
        flag("--home ''", {QStringLiteral("runs"), QStringLiteral("--home"), QString()}, 2,
             QStringLiteral("error: --home: expected a directory, found '' (leave --home out to use $SAVEPOINT_HOME or "
                            "the default)"));
        flag("--batch larger than the data", train({QStringLiteral("--batch"), QStringLiteral("5000")}), 2,
             QStringLiteral(
                 "error: --batch: expected at most 4096 (the samples in the training split of synthetic), found 5000"));
        flag("--steps-per-epoch -1", train({QStringLiteral("--steps-per-epoch"), QStringLiteral("-1")}), 2,
             QStringLiteral("error: --steps-per-epoch: expected an integer from 1 to 1000000000, found -1"));
        flag("--interrupt-at-step -5", train({QStringLiteral("--interrupt-at-step"), QStringLiteral("-5")}), 2,
             QStringLiteral("error: --interrupt-at-step: expected a positive global step, found -5"));
        flag("--preempt-at-step -1", train({QStringLiteral("--preempt-at-step"), QStringLiteral("-1")}), 2,
             QStringLiteral("error: --preempt-at-step: expected a positive global step, found -1"));
        flag("--disk-retries -1", train({QStringLiteral("--disk-retries"), QStringLiteral("-1")}), 2,
             QStringLiteral("error: --disk-retries: expected an integer from 0 to 1000000, found -1"));
        flag("--disk-retry-seconds -2", train({QStringLiteral("--disk-retry-seconds"), QStringLiteral("-2")}), 2,
             QStringLiteral("error: --disk-retry-seconds: expected a number from 0 to 86400, found -2"));
        flag("--data nowhere",
             {QStringLiteral("train"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
              QStringLiteral("x"), QStringLiteral("--data"), QStringLiteral("/nonexistent/mnist")},
             2,
             QStringLiteral("error: --data: expected fashion-mnist, synthetic or a directory holding the MNIST files, "
                            "found '/nonexistent/mnist'"));
        flag("resume --epoch without --step", resume({QStringLiteral("--epoch"), QStringLiteral("1")}), 2,
             QStringLiteral("error: --epoch requires --step"));
        flag("resume --checkpoint with --epoch",
             resume({QStringLiteral("--checkpoint"), QStringLiteral("1"), QStringLiteral("--epoch"),
                     QStringLiteral("1"), QStringLiteral("--step"), QStringLiteral("0")}),
             2, QStringLiteral("excludes"));
        flag("resume an unknown run",
             {QStringLiteral("resume"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
              QStringLiteral("nope")},
             2, QStringLiteral("error: --run: no run named 'nope' in"));
        flag("checkpoints of an unknown run",
             {QStringLiteral("checkpoints"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
              QStringLiteral("nope")},
             2, QStringLiteral("error: --run: no run named 'nope' in"));
        flag("verify with a bad run name",
             {QStringLiteral("verify"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
              QStringLiteral("bad name!")},
             2, QStringLiteral("error: --run: expected 1 to 64 characters"));
        flag("pin without --checkpoint",
             {QStringLiteral("pin"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
              QStringLiteral("r")},
             2, QStringLiteral("error: --checkpoint is required"));

        // --- runs and checkpoints that do not fit ---
        auto fin = [&](const char* name, const QString& setup, const QStringList& args, int code,
                       const QString& expected) {
            QTest::addRow("checkpoint: %s", name) << setup << args << code << expected;
        };
        fin("train a run that exists", QStringLiteral("finished"),
            QStringList{QStringLiteral("train"), QStringLiteral("--home"), QStringLiteral("%HOME"),
                        QStringLiteral("--run"), QStringLiteral("r"), QStringLiteral("--data"), S},
            2, QStringLiteral("error: --run: a run named 'r' already exists"));
        fin("a train setting given to resume", QStringLiteral("finished"),
            resume({QStringLiteral("--batch"), QStringLiteral("5")}), 2,
            QStringLiteral(
                "error: resume does not take: --batch 5 (a resume continues with the settings the run was created "
                "with"));
        // --lr is resume's too, but only with a rollback (after a divergence: test_divergence).
        fin("--lr without a rollback", QStringLiteral("finished"),
            resume({QStringLiteral("--lr"), QStringLiteral("5")}), 2,
            QStringLiteral("error: --lr: a new learning rate starts a new branch from a checkpoint: add --checkpoint "
                           "ID (or --epoch E --step S)"));
        fin("a crash step on a finished run", QStringLiteral("finished"),
            resume({QStringLiteral("--interrupt-at-step"), QStringLiteral("3")}), 2,
            QStringLiteral("error: --interrupt-at-step: run 'r' already finished at global step 4, so this resume "
                           "computes no step; found 3"));
        fin("--data for a built-in dataset", QStringLiteral("finished"),
            resume({QStringLiteral("--data"), QStringLiteral("/tmp")}), 2,
            QStringLiteral("error: --data: run 'r' was trained on the built-in dataset 'synthetic', which does not "
                           "move; found '/tmp' (leave --data out)"));
        fin("--checkpoint 999", QStringLiteral("finished"),
            resume({QStringLiteral("--checkpoint"), QStringLiteral("999")}), 2,
            QStringLiteral("error: --checkpoint: no checkpoint #999 in run 'r'"));
        fin("--checkpoint 0", QStringLiteral("finished"), resume({QStringLiteral("--checkpoint"), QStringLiteral("0")}),
            2, QStringLiteral("error: --checkpoint: expected a checkpoint id (a positive integer), found 0"));
        fin("--epoch past the run", QStringLiteral("finished"),
            resume({QStringLiteral("--epoch"), QStringLiteral("5"), QStringLiteral("--step"), QStringLiteral("0")}), 2,
            QStringLiteral("error: --epoch: expected 1 to 1, found 5"));
        fin("--step past the epoch", QStringLiteral("finished"),
            resume({QStringLiteral("--epoch"), QStringLiteral("1"), QStringLiteral("--step"), QStringLiteral("9")}), 2,
            QStringLiteral("error: --step: expected 0 to 4 (steps per epoch), found 9"));
        fin("pin a checkpoint that does not exist", QStringLiteral("finished"),
            {QStringLiteral("pin"), QStringLiteral("--home"), QStringLiteral("%HOME"), QStringLiteral("--run"),
             QStringLiteral("r"), QStringLiteral("--checkpoint"), QStringLiteral("42")},
            2, QStringLiteral("error: --checkpoint: no checkpoint #42 in run 'r'"));
        fin("resume from a truncated file", QStringLiteral("finished:truncate-1"),
            resume({QStringLiteral("--checkpoint"), QStringLiteral("1")}), 2,
            QStringLiteral("error: --checkpoint: checkpoint #1 is corrupt ("));
        fin("resume from a bit-flipped file", QStringLiteral("finished:flip-1"),
            resume({QStringLiteral("--checkpoint"), QStringLiteral("1")}), 2,
            QStringLiteral("error: --checkpoint: checkpoint #1 (epoch 1, step 2) is damaged and was skipped: "));
        fin("resume from a deleted file", QStringLiteral("finished:delete-1"),
            resume({QStringLiteral("--checkpoint"), QStringLiteral("1")}), 2,
            QStringLiteral("error: --checkpoint: checkpoint #1 is missing ("));
        fin("resume from a swapped file", QStringLiteral("finished:swap-1"),
            resume({QStringLiteral("--checkpoint"), QStringLiteral("1")}), 2,
            QStringLiteral("error: --checkpoint: checkpoint #1 is corrupt ("));
        fin("verify a zero-length file", QStringLiteral("finished:zero-2"),
            {QStringLiteral("verify"), QStringLiteral("--home"), QStringLiteral("%HOME")}, 1,
            QStringLiteral("DAMAGED r #2 "));
        fin("verify after a foreign file appeared", QStringLiteral("finished:foreign-file"),
            {QStringLiteral("verify"), QStringLiteral("--home"), QStringLiteral("%HOME")}, 0,
            QStringLiteral("2 verified, 0 damaged"));

        // --- dataset files (IDX) ---
        idx(QStringLiteral("missing-train-labels"),
            QStringLiteral("train-labels-idx1-ubyte: expected a file named train-labels-idx1-ubyte or "
                           "train-labels-idx1-ubyte.gz, found neither"));
        idx(QStringLiteral("missing-test-images"),
            QStringLiteral("t10k-images-idx3-ubyte: expected a file named t10k-images-idx3-ubyte or "
                           "t10k-images-idx3-ubyte.gz, found neither"));
        idx(QStringLiteral("labels-as-images"),
            QStringLiteral("train-images-idx3-ubyte: rank: expected 3, found 1 (magic 0x00000801, expected 0x00000803; "
                           "is this a labels file instead of an images file?)"));
        idx(QStringLiteral("gzipped-twice"), QStringLiteral("train-images-idx3-ubyte.gz: magic: expected 0x00000803, "
                                                            "found 0x1f8b0800 (is the file gzipped twice?)"));
        idx(QStringLiteral("truncated-images"),
            QStringLiteral("train-images-idx3-ubyte: payload: expected 15680 bytes (20 * 28 * 28) after the 16-byte "
                           "header, found 15580 bytes (file truncated)"));
        idx(QStringLiteral("trailing-bytes"), QStringLiteral("found 15685 bytes (trailing bytes after the data)"));
        idx(QStringLiteral("label-out-of-range"),
            QStringLiteral("train-labels-idx1-ubyte: label 3: expected a value < 10, found 10"));
        idx(QStringLiteral("label-count-mismatch"),
            QStringLiteral("train-labels-idx1-ubyte: label count: expected 20 (the image count in "
                           "train-images-idx3-ubyte), found 19"));
        idx(QStringLiteral("wrong-size"),
            QStringLiteral("train-images-idx3-ubyte: rows x cols: expected 28x28, found 27x28"));
        idx(QStringLiteral("zero-count"),
            QStringLiteral("train-images-idx3-ubyte: image count: expected > 0, found 0"));
        idx(QStringLiteral("empty-file"),
            QStringLiteral("train-images-idx3-ubyte: magic: expected 4 bytes, found 0 bytes (header truncated)"));
        idx(QStringLiteral("header-truncated"), QStringLiteral("train-images-idx3-ubyte: image count: expected 4 bytes "
                                                               "at offset 4, found 2 bytes (header truncated)"));
        idx(QStringLiteral("wrong-type"),
            QStringLiteral("train-images-idx3-ubyte: type: expected 8 (unsigned byte), found 13"));
        idx(QStringLiteral("truncated-gzip"),
            QStringLiteral("train-images-idx3-ubyte.gz: gzip stream: expected the end of the compressed data"));
        idx(QStringLiteral("images-is-a-directory"),
            QStringLiteral("train-images-idx3-ubyte: expected a file named train-images-idx3-ubyte or "
                           "train-images-idx3-ubyte.gz, found neither"));
        idx(QStringLiteral("not-gzip-despite-name"), QStringLiteral("train-images-idx3-ubyte.gz: gzip"));

        // --- registry files and homes ---
        QTest::addRow("registry: not a database")
            << QStringLiteral("registry:garbage")
            << QStringList{QStringLiteral("runs"), QStringLiteral("--home"), QStringLiteral("%HOME")} << 1
            << QStringLiteral("registry.sqlite: registry: file is not a database");
        QTest::addRow("registry: a directory")
            << QStringLiteral("registry:directory")
            << QStringList{QStringLiteral("runs"), QStringLiteral("--home"), QStringLiteral("%HOME")} << 1
            << QStringLiteral("registry.sqlite: cannot open registry: unable to open database file (Is a directory)");
        QTest::addRow("registry: newer schema")
            << QStringLiteral("registry:v99")
            << QStringList{QStringLiteral("runs"), QStringLiteral("--home"), QStringLiteral("%HOME")} << 2
            << QStringLiteral(
                   "registry.sqlite: registry schema version: expected at most 7, found 99 (made by a newer Savepoint; "
                   "nothing was changed)");
        QTest::addRow("home: a regular file")
            << QStringLiteral("home:file")
            << QStringList{QStringLiteral("train"),    QStringLiteral("--home"), QStringLiteral("%HOME"),
                           QStringLiteral("--run"),    QStringLiteral("x"),      QStringLiteral("--data"),
                           QStringLiteral("synthetic")}
            << 2
            << QStringLiteral("error: --home: expected a directory for the registry and checkpoints, found a file at ");
    }

    void cli() {
        QFETCH(QString, setup);
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, expected);
        QString data;
        const QString home = prepare(setup, &data);
        for (QString& a : args) a.replace(QLatin1String("%HOME"), home).replace(QLatin1String("%DATA"), data);

        std::vector<std::string> argv{"savepoint-cli"};
        for (const auto& a : args) argv.push_back(a.toStdString());
        std::ostringstream out, err;
        const int got = savepoint::run_cli(argv, out, err, false);
        const QString e = QString::fromStdString(err.str()), o = QString::fromStdString(out.str());
        const QByteArray ctx =
            ("args: " + args.join(QLatin1Char(' ')) + "\n--- stdout ---\n" + o.left(2000) + "\n--- stderr ---\n" + e)
                .toLocal8Bit();
        QVERIFY2(got == code, ctx.constData());
        QVERIFY2(code == 0 ? o.contains(expected) : e.contains(expected), ctx.constData());
        if (code == 2) QVERIFY2(e.startsWith(QLatin1String("error: ")), ctx.constData());
        if (row_ % 4 == 0) {
            // The binary says the same (a fresh copy of the setup: the in-process run may have marked things).
            const QString home2 = prepare(setup, &data);
            QStringList a2 = args;
            for (QString& a : a2) a.replace(home, home2);
            CliResult r = reliability::runCli(a2);
            QVERIFY2(r.exitCode == code && (code == 0 ? r.out : r.err).contains(expected), r.describe().constData());
        }
    }

    void trainConfigValidate_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("data empty") << "data"
                                    << ""
                                    << "--data: expected fashion-mnist, synthetic or a directory, found ''";
        QTest::newRow("model") << "model"
                               << "vgg"
                               << "--model: expected mlp, dnn, cnn or a TorchScript file (FILE.pt), found 'vgg'";
        QTest::newRow("optimizer") << "optimizer"
                                   << "lamb"
                                   << "--optimizer: expected adam|sgd, found 'lamb'";
        QTest::newRow("device") << "device"
                                << "gpu"
                                << "--device: expected auto|cpu|cuda, found 'gpu'";
        QTest::newRow("async policy") << "async_policy"
                                      << "later"
                                      << "--async-policy: expected wait|skip|defer, found 'later'";
        QTest::newRow("epochs") << "epochs"
                                << "0"
                                << "--epochs: expected an integer from 1 to 1000000, found 0";
        QTest::newRow("steps per epoch") << "steps_per_epoch"
                                         << "-3"
                                         << "--steps-per-epoch: expected an integer from 0 to 1000000000, found -3";
        QTest::newRow("batch") << "batch"
                               << "70000"
                               << "--batch: expected an integer from 1 to 65536, found 70000";
        QTest::newRow("save every") << "save_every_steps"
                                    << "-1"
                                    << "--save-freq: expected an integer from 0 to 1000000000, found -1";
        QTest::newRow("keep") << "keep"
                              << "0"
                              << "--keep: expected an integer from 1 to 100000, found 0";
        QTest::newRow("threads") << "threads"
                                 << "-1"
                                 << "--threads: expected an integer from 0 to 1024, found -1";
        QTest::newRow("lr negative") << "lr"
                                     << "-0.1"
                                     << "--lr: expected a number greater than 0 and at most 10, found -0.1";
        QTest::newRow("lr infinite") << "lr"
                                     << "inf"
                                     << "--lr: expected a number greater than 0 and at most 10, found inf";
    }

    void trainConfigValidate() {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        savepoint::TrainConfig c;
        c.data = "synthetic";
        const std::string v = value.toStdString();
        if (field == QLatin1String("data"))
            c.data = v;
        else if (field == QLatin1String("model"))
            c.model = v;
        else if (field == QLatin1String("optimizer"))
            c.optimizer = v;
        else if (field == QLatin1String("device"))
            c.device = v;
        else if (field == QLatin1String("async_policy"))
            c.async_policy = v;
        else if (field == QLatin1String("epochs"))
            c.epochs = value.toLongLong();
        else if (field == QLatin1String("steps_per_epoch"))
            c.steps_per_epoch = value.toLongLong();
        else if (field == QLatin1String("batch"))
            c.batch = value.toLongLong();
        else if (field == QLatin1String("save_every_steps"))
            c.save_every_steps = value.toLongLong();
        else if (field == QLatin1String("keep"))
            c.keep = value.toLongLong();
        else if (field == QLatin1String("threads"))
            c.threads = value.toLongLong();
        else if (field == QLatin1String("lr"))
            c.lr = value == QLatin1String("inf") ? INFINITY : value.toDouble();
        try {
            c.validate();
            QFAIL("validate() accepted a bad value");
        } catch (const savepoint::InputError& e) {
            QCOMPARE(QString::fromUtf8(e.what()), expected);
        }
        savepoint::TrainConfig good;
        good.data = "synthetic";
        good.validate();  // the defaults are valid
    }
};

QTEST_GUILESS_MAIN(TestBadInputCatalogue)
#include "test_bad_input_catalogue.moc"
