// Tests for comparing runs (registry/run_comparison.h and `savepoint-cli
// compare`), on a home made by short real runs: two learning rates, one of
// them rolled back so that its newest validation is not its best, and a third
// run with another batch size. The figures are checked against the registry's
// own metric rows; bad input exits 2 and changes nothing.
// Negative control: SAVEPOINT_PLANT_BUG=compare-best-is-last (docs/RELIABILITY.md).
#include "cli_app.h"
#include "registry/run_comparison.h"
#include "test_home.h"

#include <QtTest>

#include <sstream>

using testsupport::CliResult;

namespace {

CliResult compareInProcess(const QStringList& args) {
    std::vector<std::string> v{"savepoint-cli", "compare"};
    for (const QString& a : args) v.push_back(a.toStdString());
    std::ostringstream out, err;
    CliResult r;
    r.exitCode = savepoint::run_cli(v, out, err, /*install_signals=*/false);
    r.out = QString::fromStdString(out.str());
    r.err = QString::fromStdString(err.str());
    return r;
}

// What the registry's metric rows say: the newest validation and the best ones.
struct Expected {
    savepoint::MetricRow last, lowest_loss, highest_accuracy;
    int count = 0;
};

Expected expectedFigures(const QString& home, const std::string& run) {
    savepoint::Registry reg(home.toStdString(), savepoint::Registry::ReadOnly{});
    Expected e;
    auto rows = reg.metrics(reg.find_run(run)->id);
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return std::tie(a.session_id, a.global_step) < std::tie(b.session_id, b.global_step);
    });
    for (const auto& m : rows) {
        if (m.kind != savepoint::MetricKind::Validation) continue;
        if (e.count == 0 || m.loss < e.lowest_loss.loss) e.lowest_loss = m;
        if (e.count == 0 || m.accuracy > e.highest_accuracy.accuracy) e.highest_accuracy = m;
        e.last = m;
        ++e.count;
    }
    return e;
}

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT

    QTemporaryDir root_;
    QString home_;

    void train(const QString& run, const QStringList& extra) {
        CliResult r = testsupport::runCli(testsupport::trainArgs(home_, run, 3, 10, "epoch", extra));
        QVERIFY2(r.exitCode == 0, r.describe());
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(root_.isValid());
        home_ = root_.filePath("home");
        train("lr3", {"--lr", "0.001"});
        train("lr4", {"--lr", "0.0001"});
        train("b64", {"--lr", "0.0001", "--batch", "64"});
        // A rollback to epoch 1 that crashes after epoch 2's validation: lr3's newest
        // validation is branch 2's epoch 2, its best branch 1's epoch 3.
        CliResult r = testsupport::runCli(
            {"resume", "--home", home_, "--run", "lr3", "--epoch", "1", "--step", "10", "--interrupt-at-step", "25"});
        QVERIFY2(r.exitCode == 3, r.describe());
        const Expected e = expectedFigures(home_, "lr3");
        QCOMPARE(e.count, 4);
        // Without this the negative control (best taken as the last) would pass unseen.
        QVERIFY2(e.lowest_loss.loss < e.last.loss, "the fixture's newest validation must not be its best");
    }

    void labelsNameWhatDiffers() {
        savepoint::Registry reg(home_.toStdString(), savepoint::Registry::ReadOnly{});
        auto two = savepoint::compare_runs(reg, {"lr3", "lr4"});
        QCOMPARE(int(two.differences.size()), 1);
        QCOMPARE(two.differences[0].key, std::string("lr"));
        QCOMPARE(two.runs[0].label, std::string("lr 1e-3"));
        QCOMPARE(two.runs[1].label, std::string("lr 1e-4"));
        auto three = savepoint::compare_runs(reg, {"lr3", "lr4", "b64"});
        QCOMPARE(int(three.differences.size()), 2);
        QCOMPARE(three.differences[0].key, std::string("lr"));  // a label's order: lr before batch
        QCOMPARE(three.differences[1].key, std::string("batch"));
        QCOMPARE(three.runs[0].label, std::string("lr 1e-3 · batch 32"));
        QCOMPARE(three.runs[2].label, std::string("lr 1e-4 · batch 64"));
        // The fingerprints of the data are the same (one synthetic set): not a difference.
        for (const auto& d : three.differences) QVERIFY(!d.bookkeeping);
    }

    void shortNumbers_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("shown");
        QTest::newRow("1e-3") << 0.001 << "1e-3";
        QTest::newRow("2.5e-4") << 0.00025 << "2.5e-4";
        QTest::newRow("integer") << 64.0 << "64";
        QTest::newRow("half") << 0.5 << "0.5";
        QTest::newRow("0.03") << 0.03 << "0.03";
        QTest::newRow("large") << 3e6 << "3000000";
    }
    void shortNumbers() {
        QFETCH(double, value);
        QFETCH(QString, shown);
        QCOMPARE(QString::fromStdString(savepoint::short_number(value)), shown);
    }

    void jsonHasTheFiguresOfTheMetricRows() {
        CliResult r = testsupport::runCli({"compare", "--home", home_, "--run", "lr3", "--run", "lr4", "--json"});
        QVERIFY2(r.exitCode == 0, r.describe());
        QJsonParseError pe{};
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8(), &pe).object();
        QCOMPARE(pe.error, QJsonParseError::NoError);
        const QJsonArray diffs = doc.value("differences").toArray();
        QCOMPARE(diffs.size(), 1);
        QCOMPARE(diffs[0].toObject().value("setting").toString(), QStringLiteral("lr"));
        QCOMPARE(diffs[0].toObject().value("values").toArray()[0].toDouble(), 0.001);
        QCOMPARE(diffs[0].toObject().value("values").toArray()[1].toDouble(), 0.0001);
        QCOMPARE(diffs[0].toObject().value("shown").toArray()[1].toString(), QStringLiteral("1e-4"));
        const QJsonArray runs = doc.value("runs").toArray();
        QCOMPARE(runs.size(), 2);
        const QStringList names{"lr3", "lr4"};
        for (int i = 0; i < 2; ++i) {
            const QJsonObject run = runs[i].toObject();
            QCOMPARE(run.value("name").toString(), names[i]);
            QCOMPARE(run.value("label").toString(), i == 0 ? QStringLiteral("lr 1e-3") : QStringLiteral("lr 1e-4"));
            QVERIFY(run.value("config").isObject());
            QCOMPARE(run.value("total_steps").toInteger(), 30);
            QCOMPARE(run.value("global_step").toInteger(), i == 0 ? 25 : 30);
            QVERIFY(run.value("wall_seconds").toDouble() > 0);
            const Expected e = expectedFigures(home_, names[i].toStdString());
            QCOMPARE(run.value("validations").toInteger(), e.count);
            const QJsonObject fin = run.value("final").toObject(), loss = run.value("best_loss").toObject(),
                              acc = run.value("best_accuracy").toObject();
            QCOMPARE(fin.value("val_loss").toDouble(), e.last.loss);
            QCOMPARE(fin.value("val_accuracy").toDouble(), e.last.accuracy);
            QCOMPARE(fin.value("global_step").toInteger(), e.last.global_step);
            QCOMPARE(loss.value("val_loss").toDouble(), e.lowest_loss.loss);
            QCOMPARE(loss.value("global_step").toInteger(), e.lowest_loss.global_step);
            QCOMPARE(loss.value("epoch").toInteger(), e.lowest_loss.epoch);
            QCOMPARE(acc.value("val_accuracy").toDouble(), e.highest_accuracy.accuracy);
            QCOMPARE(acc.value("global_step").toInteger(), e.highest_accuracy.global_step);
        }
        // lr3's newest validation is on the rollback's branch, its best on the first.
        QCOMPARE(runs[0].toObject().value("final").toObject().value("branch").toInteger(), 2);
        QCOMPARE(runs[0].toObject().value("best_loss").toObject().value("branch").toInteger(), 1);
    }

    void tableShowsTheSameFigures() {
        CliResult r = compareInProcess({"--home", home_, "--run", "lr3", "--run", "lr4"});
        QVERIFY2(r.exitCode == 0, r.describe());
        const Expected e = expectedFigures(home_, "lr3");
        const QStringList lines = r.out.split('\n');
        auto line = [&](const QString& start) {
            for (const QString& l : lines)
                if (l.startsWith(start)) return l;
            return QString();
        };
        QVERIFY2(line("label").contains("lr 1e-3") && line("label").contains("lr 1e-4"), qPrintable(r.out));
        QVERIFY2(line("lr ").contains("1e-3"), qPrintable(r.out));
        QVERIFY2(line("steps").contains("25/30") && line("steps").contains("30/30"), qPrintable(r.out));
        QVERIFY2(line("final val loss").contains(QString::number(e.last.loss, 'f', 4)), qPrintable(r.out));
        const QString best =
            QString::number(e.lowest_loss.loss, 'f', 4) +
            QStringLiteral(" (epoch %1, global step %2)").arg(e.lowest_loss.epoch).arg(e.lowest_loss.global_step);
        QVERIFY2(line("best val loss").contains(best), qPrintable(best + "\n" + r.out));
        QVERIFY2(line("final val acc").contains(QString::number(e.last.accuracy, 'f', 4)), qPrintable(r.out));
    }

    void badInputExits2AndChangesNothing_data() {
        QTest::addColumn<QStringList>("runs");
        QTest::addColumn<QStringList>("mentions");
        QTest::newRow("one run") << QStringList{"lr3"} << QStringList{"--run", "two or more", "only 'lr3'"};
        QTest::newRow("the same run twice")
            << QStringList{"lr3", "lr3"} << QStringList{"--run", "'lr3' is named twice"};
        QTest::newRow("unknown run") << QStringList{"lr3", "nope"}
                                     << QStringList{"--run", "no run named 'nope'", "lr3, lr4, b64"};
        QTest::newRow("bad run name") << QStringList{"lr3", "../x"} << QStringList{"--run", "'../x'"};
    }
    void badInputExits2AndChangesNothing() {
        QFETCH(QStringList, runs);
        QFETCH(QStringList, mentions);
        QStringList args{"--home", home_};
        for (const QString& run : runs) args << "--run" << run;
        const auto before = testsupport::treeFingerprint(home_);
        CliResult r = compareInProcess(args << "--json");
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY2(r.out.isEmpty(), r.describe());
        for (const QString& m : mentions)
            QVERIFY2(r.err.contains(m), qPrintable(QStringLiteral("missing '%1' in:\n").arg(m) + r.err));
        QVERIFY2(before == testsupport::treeFingerprint(home_), "compare changed the home");
    }

    void aHomeWithoutRunsIsABadInputAndStaysAbsent() {
        const QString missing = root_.filePath("missing");
        CliResult r = compareInProcess({"--home", missing, "--run", "a", "--run", "b"});
        QVERIFY2(r.exitCode == 2 && r.err.contains("no run named 'a'"), r.describe());
        QVERIFY(!QFileInfo::exists(missing));
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "test_compare.moc"
