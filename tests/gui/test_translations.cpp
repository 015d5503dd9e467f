// The embedded translations load and translate known strings.
#include "models/run_list_model.h"
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

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
