// The window's words for every way a session ends, in each shipped language:
// every sentence is translated (none falls back to English outside en), keeps
// the reason's numbers in the language's locale, names the window's controls
// and never a command-line flag or a savepoint-cli command.
#include "window/session_outcome_words.h"
#include "window/translations_loader.h"

#include <QtTest>

#include <vector>

using namespace savepoint::ui;

namespace {

savepoint::StepPlace at(std::int64_t gs) { return savepoint::step_place(gs, 10); }

savepoint::DivergedReason diverged(bool good) {
    savepoint::DivergedReason d;
    d.value = savepoint::DivergedReason::Value::Gradient;
    d.tensor = "fc1.bias";
    d.at = at(35);
    if (good) {
        d.good_checkpoint = 3;
        d.good_at = at(30);
    }
    d.learning_rate = 0.5;
    d.run = "nan";
    return d;
}

// One of each reason, in every shape its words take.
std::vector<savepoint::SessionReason> everyReason() {
    std::vector<savepoint::SessionReason> all;
    all.push_back(savepoint::FinishedReason{1234, 0.25, 0.875});
    all.push_back(savepoint::NothingToDoReason{"done", 1234});
    for (auto cause :
         {savepoint::CrashedReason::Cause::Requested, savepoint::CrashedReason::Cause::AtRequestedStep,
          savepoint::CrashedReason::Cause::DuringValidation, savepoint::CrashedReason::Cause::WorkerLost}) {
        savepoint::CrashedReason c;
        c.cause = cause;
        c.at = at(1234);
        c.lost_rank = cause == savepoint::CrashedReason::Cause::WorkerLost ? 1 : -1;
        all.push_back(c);
    }
    for (auto how : {savepoint::PreemptedReason::How::AlreadySaved, savepoint::PreemptedReason::How::Emergency,
                     savepoint::PreemptedReason::How::NotWritten, savepoint::PreemptedReason::How::Follower}) {
        savepoint::PreemptedReason p;
        p.how = how;
        p.at = at(1234);
        p.save_ms = 1500;
        p.grace_seconds = 30;
        p.too_late = true;
        all.push_back(p);
    }
    all.push_back(savepoint::StoppedReason{at(1234)});
    all.push_back(savepoint::FailedReason{});
    all.push_back(savepoint::FailedReason{"the disk is full"});
    all.push_back(diverged(true));
    all.push_back(diverged(false));
    return all;
}

}  // namespace

class TestSessionOutcomeWords : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanupTestCase() { installTranslations(QStringLiteral("en")); }
    void noFlagInAnyLanguage_data();
    void noFlagInAnyLanguage();
    void namesTheWindowsControls();
    void numbersInTheLocale();
};

void TestSessionOutcomeWords::noFlagInAnyLanguage_data() {
    QTest::addColumn<QString>("code");
    QTest::addRow("en") << "en";
    QTest::addRow("fr") << "fr";
    QTest::addRow("pt_BR") << "pt_BR";
}

void TestSessionOutcomeWords::noFlagInAnyLanguage() {
    QFETCH(QString, code);
    QCOMPARE(installTranslations(code), code);
    installTranslations(QStringLiteral("en"));
    std::vector<QString> english;
    for (const auto& r : everyReason())
        for (bool button : {false, true}) english.push_back(SessionOutcomeWords::text(r, button));
    installTranslations(code);
    std::size_t i = 0;
    for (const auto& r : everyReason())
        for (bool button : {false, true}) {
            const QString s = SessionOutcomeWords::text(r, button);
            QVERIFY2(!s.isEmpty(), qPrintable(QString::number(r.index())));
            QVERIFY2(!s.contains(QLatin1String("--")), qPrintable(s));
            QVERIFY2(!s.contains(QLatin1String("savepoint-cli")), qPrintable(s));
            // A sentence left in English outside en is a missing catalogue entry.
            if (code != QLatin1String("en")) QVERIFY2(s != english[i], qPrintable(s));
            ++i;
        }
}

void TestSessionOutcomeWords::namesTheWindowsControls() {
    installTranslations(QStringLiteral("en"));
    // The banner's own button, when it shows one; the New run dialog otherwise.
    QVERIFY(SessionOutcomeWords::text(diverged(true), true)
                .contains(QStringLiteral("“Roll back to the last good checkpoint…”")));
    QVERIFY(SessionOutcomeWords::text(diverged(true), true).contains(QStringLiteral("#3")));
    QVERIFY(SessionOutcomeWords::text(diverged(true), false).contains(QStringLiteral("“New run…”")));
    QVERIFY(SessionOutcomeWords::text(diverged(false), false).contains(QStringLiteral("“New run…”")));
    QVERIFY(SessionOutcomeWords::text(diverged(true), true).contains(QStringLiteral("fc1.bias")));
    QVERIFY(SessionOutcomeWords::text(savepoint::NothingToDoReason{"done", 1234})
                .contains(QStringLiteral("“Resume from here”")));
    installTranslations(QStringLiteral("fr"));
    QVERIFY(SessionOutcomeWords::text(diverged(true), true)
                .contains(QStringLiteral("« Revenir au dernier point de sauvegarde sain… »")));
    installTranslations(QStringLiteral("pt_BR"));
    QVERIFY(SessionOutcomeWords::text(savepoint::NothingToDoReason{"done", 1234})
                .contains(QStringLiteral("“Retomar daqui”")));
}

void TestSessionOutcomeWords::numbersInTheLocale() {
    installTranslations(QStringLiteral("en"));
    QCOMPARE(SessionOutcomeWords::text(savepoint::FinishedReason{1234, 0.25, 0.875}),
             QStringLiteral("1,234 steps, validation loss 0.2500, accuracy 0.8750"));
    QCOMPARE(SessionOutcomeWords::text(savepoint::StoppedReason{at(1234)}),
             QStringLiteral("by request at epoch 124, step 4 (global step 1,234)"));
    installTranslations(QStringLiteral("fr"));
    const QString fr = SessionOutcomeWords::text(savepoint::FinishedReason{1234, 0.25, 0.875});
    QVERIFY2(fr.contains(QStringLiteral("0,2500")), qPrintable(fr));
    QVERIFY2(SessionOutcomeWords::text(diverged(true), true).contains(QStringLiteral("0,5")),
             qPrintable(SessionOutcomeWords::text(diverged(true), true)));
}

QTEST_MAIN(TestSessionOutcomeWords)
#include "test_session_outcome_words.moc"
