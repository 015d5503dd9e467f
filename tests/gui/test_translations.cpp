// The embedded translations load and translate known strings.
#include "models/run_list_model.h"
#include "window/remedy_words.h"
#include "window/translations_loader.h"

#include <QApplication>
#include <QTranslator>
#include <QtTest>

using namespace savepoint::ui;

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loads_data();
    void loads();
    void installFollowsChoice();
    void remedyInTheWindowsWords();
};

void TestTranslations::loads_data() {
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("expected");
    QTest::addRow("pt_BR crash") << "pt_BR"
                                 << "savepoint::ui::MainWindow"
                                 << "Simulate crash"
                                 << "Simular falha";
    QTest::addRow("fr crash") << "fr"
                              << "savepoint::ui::MainWindow"
                              << "Simulate crash"
                              << "Simuler un plantage";
    QTest::addRow("fr system panel") << "fr"
                                     << "savepoint::ui::SystemPanel"
                                     << "Free disk"
                                     << "Disque libre";
    QTest::addRow("pt_BR GPU marker") << "pt_BR"
                                      << "savepoint::ui::EventMarkers"
                                      << "GPU throttled"
                                      << "GPU limitada";
    QTest::addRow("pt_BR branches") << "pt_BR"
                                    << "savepoint::ui::RunListModel"
                                    << "Branches"
                                    << "Ramos";
    QTest::addRow("fr checkpoints") << "fr"
                                    << "savepoint::ui::FaultTolerancePanel"
                                    << "Checkpoints written"
                                    << "Points de sauvegarde écrits";
    QTest::addRow("fr refused setting") << "fr"
                                        << "savepoint::ui::NewRunDialog"
                                        << "%1: expected %2, found %3."
                                        << "%1 : attendu %2, trouvé %3.";
    QTest::addRow("pt_BR range") << "pt_BR"
                                 << "savepoint::ui::NewRunDialog"
                                 << "a whole number from %1 to %2"
                                 << "um número inteiro de %1 a %2";
    QTest::addRow("en range") << "en"
                              << "savepoint::ui::NewRunDialog"
                              << "a whole number from %1 to %2"
                              << "a whole number from %1 to %2";
    QTest::addRow("fr armed crash") << "fr"
                                    << "savepoint::ui::EventMarkers"
                                    << "crash armed"
                                    << "plantage armé";
    QTest::addRow("pt_BR first launch") << "pt_BR"
                                        << "savepoint::ui::FirstLaunchHint"
                                        << "Run the demo"
                                        << "Executar a demonstração";
    QTest::addRow("fr remedy") << "fr"
                               << "RemedyWords"
                               << "Choose a checkpoint of run '%1' in the Checkpoints table."
                               << "Choisissez un point de sauvegarde de l’exécution « %1 » dans le tableau Points de "
                                  "sauvegarde.";
    QTest::addRow("en identity") << "en"
                                 << "savepoint::ui::MainWindow"
                                 << "Simulate crash"
                                 << "Simulate crash";
}

void TestTranslations::loads() {
    QFETCH(QString, code);
    QFETCH(QString, context);
    QFETCH(QString, source);
    QFETCH(QString, expected);
    QTranslator t;
    QVERIFY2(loadAppTranslator(t, code), qPrintable(code));
    // Empty means the catalogue lacks the string: English is a catalogue too, so a
    // missing English entry fails here rather than passing as the source text.
    const QString got = t.translate(context.toLatin1().constData(), source.toUtf8().constData());
    QCOMPARE(got, expected);
}

void TestTranslations::installFollowsChoice() {
    installTranslations(QStringLiteral("fr"));
    QCOMPARE(RunListModel::statusText(savepoint::RunStatus::Interrupted), QStringLiteral("interrompue"));
    installTranslations(QStringLiteral("pt_BR"));
    QCOMPARE(RunListModel::statusText(savepoint::RunStatus::Interrupted), QStringLiteral("interrompida"));
    installTranslations(QStringLiteral("en"));
    QCOMPARE(RunListModel::statusText(savepoint::RunStatus::Interrupted), QStringLiteral("interrupted"));
}

// The engine's remedy worded by the window's controls, in the chosen language, with its fields.
void TestTranslations::remedyInTheWindowsWords() {
    using K = savepoint::Remedy::Kind;
    installTranslations(QStringLiteral("fr"));
    QCOMPARE(
        remedyText(savepoint::Remedy{K::ListCheckpoints, "a"}),
        QStringLiteral("Choisissez un point de sauvegarde de l’exécution « a » dans le tableau Points de sauvegarde."));
    savepoint::Remedy to{K::RollBackTo, "a", 7, "epoch 2, step 3"};
    QCOMPARE(remedyText(to),
             QStringLiteral("Revenez au point de sauvegarde n° 7 (epoch 2, step 3), le plus récent avant ce point."));
    installTranslations(QStringLiteral("pt_BR"));
    QCOMPARE(remedyText(savepoint::Remedy{K::TrainOnCpu}),
             QStringLiteral("Escolha cpu ou auto como Dispositivo na janela Nova execução."));
    QCOMPARE(remedyActionLabel(savepoint::Remedy{K::TrainOnCpu}), QStringLiteral("Treinar na CPU"));
    installTranslations(QStringLiteral("fr"));
    QCOMPARE(remedyActionLabel(savepoint::Remedy{K::ResumeRun, "a"}), QStringLiteral("Reprendre « a »"));
    installTranslations(QStringLiteral("en"));
    // The banner's button where the window has the control, none where it has not.
    QCOMPARE(remedyActionLabel(savepoint::Remedy{K::ListCheckpoints, "a"}), QStringLiteral("Show its checkpoints"));
    QCOMPARE(remedyActionLabel(savepoint::Remedy{K::DataMoved, "a", 0, {}, {}, true}), QString());
    QCOMPARE(remedyActionLabel(savepoint::Remedy{K::NameTwoRuns}), QString());
    QCOMPARE(withRemedy(QStringLiteral("No run named 'b'."), savepoint::Remedy{K::ListRuns}),
             QStringLiteral("No run named 'b'. The runs of this home are in the Runs list."));
    QCOMPARE(withRemedy(QStringLiteral("x"), savepoint::Remedy{}), QStringLiteral("x"));
    // Every remedy has words, and none of them is a command-line flag.
    for (int k = static_cast<int>(K::ListRuns); k <= static_cast<int>(K::PullElsewhere); ++k) {
        const QString words = remedyText(savepoint::Remedy{static_cast<K>(k), "a", 1, "epoch 1, step 1"});
        QVERIFY2(!words.isEmpty() && !words.contains(QStringLiteral("--")) &&
                     !words.contains(QStringLiteral("savepoint-cli")),
                 qPrintable(QString::number(k) + QStringLiteral(": ") + words));
    }
}

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
