// An InputError carries what the user can do next (its remedy) as data, the
// engine's own words name no flag, and savepoint-cli words the remedy as the
// command to type (cli_error_text).
#include "cli_errors.h"
#include "platform/errors.h"
#include "registry/run_comparison.h"
#include "registry/run_refusals.h"

#include <QtTest>

using namespace savepoint;
using K = Remedy::Kind;

class TestRemedy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void refusalsCarryTheirRemedy();
    void cliWordsTheRemedy_data();
    void cliWordsTheRemedy();
};

// what() names the setting once ("--run: ") and no command to type.
static void engineWordsNameNoFlag(const InputError& e) {
    const QString what = QString::fromUtf8(e.what());
    QVERIFY2(!what.contains(QStringLiteral("savepoint-cli")), qPrintable(what));
    QVERIFY2(what.count(QStringLiteral("--")) == (e.field().empty() ? 0 : 1), qPrintable(what));
}

void TestRemedy::refusalsCarryTheirRemedy() {
    const InputError none = no_run_named("x", "/h");
    QCOMPARE(none.remedy().kind, K::ListRuns);
    engineWordsNameNoFlag(none);
    QCOMPARE(QString::fromStdString(cli_error_text(none)),
             QStringLiteral("--run: no run named 'x' in /h (see: savepoint-cli runs)"));

    const InputError twice = run_already_exists("a", "/h");
    QCOMPARE(twice.remedy().kind, K::ResumeRun);
    QCOMPARE(twice.remedy().run, std::string("a"));
    engineWordsNameNoFlag(twice);
    QCOMPARE(
        QString::fromStdString(cli_error_text(twice)),
        QStringLiteral("--run: a run named 'a' already exists in /h (resume it with: savepoint-cli resume --run a)"));

    try {
        check_comparison_names({"a"});
        QFAIL("one run compared");
    } catch (const InputError& e) {
        QCOMPARE(e.remedy().kind, K::NameTwoRuns);
        engineWordsNameNoFlag(e);
        QCOMPARE(QString::fromStdString(cli_error_text(e)),
                 QStringLiteral("--run: expected two or more runs (--run A --run B), found only 'a'"));
    }
}

void TestRemedy::cliWordsTheRemedy_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<qint64>("checkpoint");
    QTest::addColumn<bool>("file");
    QTest::addColumn<QString>("tail");
    auto row = [](const char* name, K k, qint64 id, bool file, const char* tail) {
        QTest::newRow(name) << static_cast<int>(k) << id << file << QString::fromUtf8(tail);
    };
    row("checkpoints", K::ListCheckpoints, 0, false, "says (see: savepoint-cli checkpoints --run r)");
    row("model moved", K::ModelMoved, 0, false,
        "says (if it moved, say where: savepoint-cli resume --run r --model NEW_FILE)");
    row("model back", K::PutModelBack, 0, false,
        "says (for training, savepoint-cli resume --model NEW follows a moved file)");
    row("data dir", K::DataMoved, 0, false,
        "says (if it moved, say where: savepoint-cli resume --run r --data NEW_DIR)");
    row("data file", K::DataMoved, 0, true,
        "says (if it moved, say where: savepoint-cli resume --run r --data NEW_FILE)");
    row("leave data out", K::LeaveDataOut, 0, false, "says (leave --data out)");
    row("leave model out", K::LeaveModelOut, 0, false, "says (leave --model out)");
    row("cpu", K::TrainOnCpu, 0, false, "says; use --device cpu or auto");
    row("roll back first", K::RollBackFirst, 0, false,
        "says: add --checkpoint ID (or --epoch E --step S) naming the last good one (savepoint-cli checkpoints --run "
        "r)");
    row("roll back to #4", K::RollBackTo, 4, false,
        "says; use --checkpoint 4 (epoch 1, step 2), the newest one before it");
    row("roll back to start", K::RollBackTo, 0, false, "says; use --epoch 1 --step 0, the newest one before it");
    row("pull elsewhere", K::PullElsewhere, 0, false, "says (pull into another --home, or resume it here)");
}

// The words the CLI prints today, built from the remedy's fields.
void TestRemedy::cliWordsTheRemedy() {
    QFETCH(int, kind);
    QFETCH(qint64, checkpoint);
    QFETCH(bool, file);
    QFETCH(QString, tail);
    InputError e("x", "e", "f", InputError::Says{"says"});
    e.with(Remedy{static_cast<K>(kind), "r", checkpoint, "epoch 1, step 2", {}, file});
    QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("--x: says"));
    QCOMPARE(QString::fromStdString(cli_error_text(e)), QStringLiteral("--x: ") + tail);
    InputError plain("a.pt: says");  // about a file: the hint follows the engine's sentence the same way
    plain.with(e.remedy());
    QCOMPARE(QString::fromStdString(cli_error_text(plain)), QStringLiteral("a.pt: ") + tail);

    // Epoch without step: said as the two flags are typed.
    InputError half("epoch", "both epoch and step (the last completed step to resume after)", "only epoch");
    half.with(Remedy{K::NameBothEpochAndStep, "r", 0, {}, "epoch"});
    QCOMPARE(
        QString::fromStdString(cli_error_text(half)),
        QStringLiteral("--epoch/--step: expected both (the last completed step to resume after), found only --epoch"));
}

QTEST_GUILESS_MAIN(TestRemedy)
#include "test_remedy.moc"
