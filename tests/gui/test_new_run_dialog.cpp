// NewRunDialog validates field by field with clear messages.
#include "window/new_run_dialog.h"
#include "window/translations_loader.h"
#include "window_home.h"

#include "script_fixtures.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSpinBox>
#include <QtTest>

using namespace savepoint::ui;

class TestNewRunDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultsAreValid();
    void badField_data();
    void badField();
    void configRoundTrip();
    void rangeInTheDialogsWords();
    void tabFollowsTheForm();
    void filesMustPassTheDryRun();
    void aJobWaitsForItsCheckpoints();
    void recentFilesStayInTheSettingsGiven();

private:
    testsupport::TempSettings settings_;  // the recent files, not the user's
};

void TestNewRunDialog::defaultsAreValid() {
    NewRunDialog d({QStringLiteral("run-1")}, settings_.settings);
    QVERIFY2(d.validateAll(), qPrintable(QStringList(d.errors().values()).join(QStringLiteral("; "))));
    QCOMPARE(d.runName(), QStringLiteral("run-2"));  // the first free name
}

void TestNewRunDialog::badField_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message_part");
    QTest::addRow("lr not a number") << "lr"
                                     << "fast"
                                     << "number";
    QTest::addRow("lr zero") << "lr"
                             << "0"
                             << "greater than 0";
    QTest::addRow("lr too big") << "lr"
                                << "11"
                                << "at most 10";
    QTest::addRow("run name spaces") << "run"
                                     << "my run"
                                     << "A–Z";
    QTest::addRow("run exists") << "run"
                                << "taken"
                                << "already exists";
    QTest::addRow("seed") << "seed"
                          << "-1"
                          << "whole number";
    QTest::addRow("save freq") << "save_freq"
                               << "often"
                               << "epoch";
    QTest::addRow("dataset missing") << "data"
                                     << "/nonexistent/mnist"
                                     << "/nonexistent/mnist";
    QTest::addRow("dataset without files") << "data"
                                           << "/tmp"
                                           << "train-images-idx3-ubyte";
}

void TestNewRunDialog::badField() {
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, message_part);
    NewRunDialog d({QStringLiteral("taken")}, settings_.settings);
    QWidget* w = d.field(field);
    QVERIFY(w);
    if (auto* e = qobject_cast<QLineEdit*>(w)) e->setText(value);
    if (auto* c = qobject_cast<QComboBox*>(w)) c->setCurrentText(value);
    QVERIFY(!d.validateAll());
    QVERIFY2(d.errors().contains(field), qPrintable(field));
    QVERIFY2(d.errors().value(field).contains(message_part), qPrintable(d.errors().value(field)));
    QCOMPARE(d.errors().size(), 1);  // only that field
}

void TestNewRunDialog::configRoundTrip() {
    NewRunDialog d({}, settings_.settings);
    savepoint::TrainConfig c;
    c.data = "synthetic";
    c.model = "cnn";
    c.epochs = 3;
    c.steps_per_epoch = 20;
    c.lr = 0.005;
    c.seed = 7;
    c.save_every_steps = 5;
    c.keep = 9;
    c.device = "cpu";
    c.async_policy = "defer";  // every policy the engine takes is offered
    d.setConfig(c);
    QVERIFY(d.validateAll());
    QCOMPARE(d.config().to_json(), c.to_json());
}

// The engine's range for a field, in the dialog's language and the locale's
// numbers: not the engine's English ("a number greater than 0 and at most 10").
void TestNewRunDialog::rangeInTheDialogsWords() {
    const QLocale before;
    installTranslations(QStringLiteral("fr"));
    QLocale::setDefault(QLocale(QLocale::French, QLocale::France));
    const auto restore = qScopeGuard([&before] {
        installTranslations(QStringLiteral("en"));
        QLocale::setDefault(before);
    });
    NewRunDialog d({}, settings_.settings);
    qobject_cast<QLineEdit*>(d.field(QStringLiteral("lr")))->setText(QStringLiteral("11"));
    QVERIFY(!d.validateAll());
    QCOMPARE(d.errors().value(QStringLiteral("lr")),
             QStringLiteral("Attendu : un nombre supérieur à 0 et au plus égal à 10 ; trouvé : 11."));
}

// Tab walks the form top to bottom (and left to right within a row), each
// field named for screen readers by its label.
void TestNewRunDialog::tabFollowsTheForm() {
    NewRunDialog d({}, settings_.settings);
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    QWidget* first = d.field(QStringLiteral("run"));
    QVector<QWidget*> order;
    QWidget* w = first;
    do {
        if ((w->focusPolicy() & Qt::TabFocus) && w->isVisibleTo(&d) && w->isEnabled() && w->window() == &d &&
            !w->focusProxy())
            order << w;
        w = w->nextInFocusChain();
    } while (w != first && order.size() < 100);
    QVERIFY(order.size() >= 14);
    auto at = [&d](QWidget* x) { return x->mapTo(&d, QPoint(0, 0)); };
    for (int i = 1; i < order.size(); ++i) {
        const QPoint a = at(order[i - 1]), b = at(order[i]);
        const bool forward = b.y() > a.y() + 2 || (std::abs(b.y() - a.y()) <= 2 && b.x() > a.x());
        QVERIFY2(forward, qPrintable(QStringLiteral("%1 (%2,%3) before %4 (%5,%6)")
                                         .arg(QString::fromLatin1(order[i - 1]->metaObject()->className()))
                                         .arg(a.x())
                                         .arg(a.y())
                                         .arg(QString::fromLatin1(order[i]->metaObject()->className()))
                                         .arg(b.x())
                                         .arg(b.y())));
    }
    // The optimizer comes right after the learning rate, as in the form (it used to come after the model).
    QCOMPARE(order.indexOf(d.field(QStringLiteral("optimizer"))), order.indexOf(d.field(QStringLiteral("lr"))) + 1);
    for (const char* name : {"run", "model", "epochs", "lr", "optimizer", "keep", "threads"})
        QVERIFY2(!d.field(QLatin1String(name))->accessibleName().isEmpty(), name);
}

// A TorchScript model and a tensor file: Start waits for a dry run that
// passed for exactly these settings; a failed one says why under the form.
void TestNewRunDialog::filesMustPassTheDryRun() {
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("bn_mlp.pt")), data = dir.filePath(QStringLiteral("quad.pt"));
    testsupport::bnMlp(64, 16, 4).save(model.toStdString());
    testsupport::writeTensorFile(data.toStdString(), testsupport::quadrantData(256, 64));
    NewRunDialog d({}, settings_.settings);
    auto* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    auto* result = d.findChild<QLabel*>(QStringLiteral("dryRunResult"));
    qobject_cast<QComboBox*>(d.field(QStringLiteral("model")))->setCurrentText(model);
    qobject_cast<QComboBox*>(d.field(QStringLiteral("data")))->setCurrentText(data);
    qobject_cast<QSpinBox*>(d.field(QStringLiteral("batch")))->setValue(16);
    QVERIFY(!ok->isEnabled());
    QVERIFY(d.errors().value(QStringLiteral("model")).contains(QStringLiteral("Check model and data")));
    d.findChild<QPushButton*>(QStringLiteral("dryRunButton"))->click();
    QVERIFY2(result->text().contains(QStringLiteral("Dry run passed")), qPrintable(result->text()));
    QVERIFY(result->text().contains(QStringLiteral("BnMlp (bn_mlp.pt), 1140 parameters")));
    QVERIFY(result->text().contains(QStringLiteral("[16, 4]")));
    QVERIFY2(ok->isEnabled(), qPrintable(QStringList(d.errors().values()).join(QStringLiteral("; "))));
    QCOMPARE(QString::fromStdString(d.config().model), model);
    // For a person to look at (run under xvfb-run with QT_QPA_PLATFORM=xcb): the dialog as it is now.
    const QString shot = qEnvironmentVariable("SAVEPOINT_DIALOG_SHOT");
    if (!shot.isEmpty()) {
        qobject_cast<QSpinBox*>(d.field(QStringLiteral("workers")))->setValue(2);
        d.show();
        QTest::qWait(300);
        QVERIFY(d.grab().save(shot));
        qobject_cast<QSpinBox*>(d.field(QStringLiteral("workers")))->setValue(1);
    }
    // Another batch size is another dry run.
    qobject_cast<QSpinBox*>(d.field(QStringLiteral("batch")))->setValue(300);
    QVERIFY(!ok->isEnabled());
    QVERIFY(!d.runDryRun());
    QVERIFY2(result->text().contains(QStringLiteral("Dry run failed")) &&
                 result->text().contains(QStringLiteral("Batch size: Expected")) &&
                 result->text().contains(QStringLiteral("256")),
             qPrintable(result->text()));
    QVERIFY(!ok->isEnabled());
}

// The CLI refuses skip and defer under torchrun; the dialog says so beside the field, before Start.
void TestNewRunDialog::aJobWaitsForItsCheckpoints() {
    NewRunDialog d({}, settings_.settings);
    auto* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    auto* policy = qobject_cast<QComboBox*>(d.field(QStringLiteral("async_policy")));
    auto* workers = qobject_cast<QSpinBox*>(d.field(QStringLiteral("workers")));
    policy->setCurrentText(QStringLiteral("defer"));
    QVERIFY(d.errors().value(QStringLiteral("async_policy")).isEmpty());  // in this window, any policy
    workers->setValue(2);
    QVERIFY2(d.errors().value(QStringLiteral("async_policy")).contains(QStringLiteral("“wait”")),
             qPrintable(d.errors().value(QStringLiteral("async_policy"))));
    QVERIFY(!ok->isEnabled());
    policy->setCurrentText(QStringLiteral("wait"));
    QVERIFY(d.errors().value(QStringLiteral("async_policy")).isEmpty());
    QCOMPARE(ok->isEnabled(), d.errors().isEmpty());  // torchrun may be missing here: that error is its own
}

// The files a run started with are offered again from the settings the dialog
// was given (the window's, which --settings chooses), and from no others.
void TestNewRunDialog::recentFilesStayInTheSettingsGiven() {
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("bn_mlp.pt")), data = dir.filePath(QStringLiteral("quad.pt"));
    testsupport::bnMlp(64, 16, 4).save(model.toStdString());
    testsupport::writeTensorFile(data.toStdString(), testsupport::quadrantData(256, 64));
    testsupport::TempSettings window;
    {
        NewRunDialog d({}, window.settings);
        qobject_cast<QComboBox*>(d.field(QStringLiteral("model")))->setCurrentText(model);
        qobject_cast<QComboBox*>(d.field(QStringLiteral("data")))->setCurrentText(data);
        qobject_cast<QSpinBox*>(d.field(QStringLiteral("batch")))->setValue(16);
        QVERIFY(d.runDryRun());
        auto* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY2(ok->isEnabled(), qPrintable(QStringList(d.errors().values()).join(QStringLiteral("; "))));
        ok->click();
        QCOMPARE(d.result(), int(QDialog::Accepted));
    }
    QCOMPARE(window.settings.value(QStringLiteral("newRun/recentModels")).toStringList(), QStringList{model});
    QCOMPARE(window.settings.value(QStringLiteral("newRun/recentData")).toStringList(), QStringList{data});
    NewRunDialog again({}, window.settings);
    QVERIFY(qobject_cast<QComboBox*>(again.field(QStringLiteral("model")))->findText(model) >= 0);
    QVERIFY(qobject_cast<QComboBox*>(again.field(QStringLiteral("data")))->findText(data) >= 0);
    NewRunDialog elsewhere({}, settings_.settings);
    QCOMPARE(qobject_cast<QComboBox*>(elsewhere.field(QStringLiteral("model")))->findText(model), -1);
}

QTEST_MAIN(TestNewRunDialog)
#include "test_new_run_dialog.moc"
