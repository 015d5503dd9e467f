// The CLI and the window keep one rule set (issue 30): each case is done once by
// a real savepoint-cli and once through the window's own methods, each on its
// own copy of one prepared home. Both must give the same verdict, and leave the
// registries the same: changed as asked when allowed, untouched when refused.
//
// The CLI has no delete command; for a delete, the window is compared with the
// engine's delete_checkpoint called as any front end calls it.
//
//   ctest --test-dir build -R test_front_ends_agree --output-on-failure
#include "bridge/trainer_worker.h"
#include "models/checkpoint_table_model.h"
#include "reliability_support.h"
#include "test_home.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window/new_run_dialog.h"
#include "window/run_data_view.h"
#include "window/training_controller.h"
#include "window_home.h"

#include "checkpoint/recovery.h"
#include "registry/checkpoint_actions.h"
#include "registry/registry.h"
#include "registry/run_lock.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>

using namespace savepoint::ui;

namespace {

// The registry as both front ends must leave it: every run's status and head,
// every checkpoint's state and pin (no timestamps).
QString snapshot(const QString& home) {
    savepoint::Registry reg(home.toStdString());
    QStringList lines;
    for (const auto& run : reg.list_runs()) {
        lines << QStringLiteral("run %1 %2 head %3")
                     .arg(QString::fromStdString(run.name), QString::fromLatin1(savepoint::to_string(run.status)))
                     .arg(run.head_checkpoint_id ? *run.head_checkpoint_id : -1);
        for (const auto& c : reg.checkpoints(run.id))
            lines << QStringLiteral("  #%1 %2%3")
                         .arg(c.id)
                         .arg(QString::fromLatin1(savepoint::to_string(c.state)), c.pinned ? " pinned" : "");
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

class TestFrontEndsAgree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void sameVerdict_data();
    void sameVerdict();

private:
    QString cliVerdict(const QString& home, const QString& action, qint64 id, QString* said);
    QString guiVerdict(const QString& home, const QString& action, const QString& role, qint64 id, QString* said);

    QTemporaryDir tmp_;
    QString template_;
    qint64 run_ = 0;
    QMap<QString, qint64> ids_;  // role -> checkpoint id
    int homes_ = 0;
};

void TestFrontEndsAgree::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    registerEngineMetaTypes();
    QVERIFY(tmp_.isValid());
    // One run of six checkpoints, trained by the CLI, then given one of each kind of row.
    template_ = tmp_.filePath(QStringLiteral("template"));
    const auto r = testsupport::runCli(
        testsupport::trainArgs(template_, QStringLiteral("r"), 1, 6, QStringLiteral("1"),
                               {QStringLiteral("--keep"), QStringLiteral("100"), QStringLiteral("--model"),
                                QStringLiteral("mlp"), QStringLiteral("--batch"), QStringLiteral("16")}));
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    savepoint::Registry reg(template_.toStdString());
    savepoint::reconcile_registry(reg);
    const auto run = reg.find_run("r");
    QVERIFY(run && run->head_checkpoint_id);
    run_ = run->id;
    std::vector<qint64> older;
    for (const auto& c : reg.checkpoints(run->id))
        if (c.usable() && c.id != *run->head_checkpoint_id) older.push_back(c.id);
    QVERIFY2(older.size() >= 4, qPrintable(snapshot(template_)));
    ids_ = {{QStringLiteral("free"), older[0]},
            {QStringLiteral("pinned"), older[1]},
            {QStringLiteral("corrupt"), older[2]},
            {QStringLiteral("deleted"), older[3]},
            {QStringLiteral("head"), *run->head_checkpoint_id}};
    savepoint::set_checkpoint_pinned(reg, *run, older[1], true);
    reg.set_checkpoint_state(older[2], savepoint::CheckpointState::Corrupt, "planted by the test");
    savepoint::delete_checkpoint(reg, *run, older[3]);
}

void TestFrontEndsAgree::sameVerdict_data() {
    QTest::addColumn<QString>("action");   // pin | unpin | delete | delete-while-training | bad-lr | bad-save-freq
    QTest::addColumn<QString>("role");     // which checkpoint (initTestCase)
    QTest::addColumn<QString>("verdict");  // ok | refused | damaged
    QTest::addRow("pin a committed checkpoint") << "pin"
                                                << "free"
                                                << "ok";
    QTest::addRow("pin a corrupt checkpoint") << "pin"
                                              << "corrupt"
                                              << "refused";
    QTest::addRow("pin a deleted checkpoint") << "pin"
                                              << "deleted"
                                              << "refused";
    QTest::addRow("unpin a pinned checkpoint") << "unpin"
                                               << "pinned"
                                               << "ok";
    QTest::addRow("delete the head") << "delete"
                                     << "head"
                                     << "refused";
    QTest::addRow("delete a pinned checkpoint") << "delete"
                                                << "pinned"
                                                << "ok";
    QTest::addRow("delete a committed checkpoint") << "delete"
                                                   << "free"
                                                   << "ok";
    QTest::addRow("delete while the run trains") << "delete-while-training"
                                                 << "free"
                                                 << "refused";
    // Verify judges a file the same way in both (checkpoint/checkpoint_check.h) and records the same state.
    QTest::addRow("verify a damaged file") << "verify-damaged"
                                           << "free"
                                           << "damaged";
    QTest::addRow("verify a missing file") << "verify-missing"
                                           << "free"
                                           << "damaged";
    QTest::addRow("verify a good file") << "verify"
                                        << "free"
                                        << "ok";
    QTest::addRow("bad --lr") << "bad-lr" << QString() << "refused";
    QTest::addRow("bad --save-freq") << "bad-save-freq" << QString() << "refused";
}

void TestFrontEndsAgree::sameVerdict() {
    QFETCH(QString, action);
    QFETCH(QString, role);
    QFETCH(QString, verdict);
    const qint64 id = role.isEmpty() ? 0 : ids_.value(role);
    const QString cliHome = tmp_.filePath(QStringLiteral("cli-%1").arg(++homes_));
    const QString guiHome = tmp_.filePath(QStringLiteral("gui-%1").arg(homes_));
    QVERIFY(reliability::copyTree(template_, cliHome));
    QVERIFY(reliability::copyTree(template_, guiHome));
    const QString before = snapshot(template_);
    if (action.startsWith(QLatin1String("verify-"))) {
        // The same damage in both copies: one byte flipped in the middle, or the file gone.
        savepoint::Registry reg(template_.toStdString());
        const std::string rel = reg.checkpoint(id)->path;
        for (const QString& home : {cliHome, guiHome}) {
            const QString path = home + QLatin1Char('/') + QString::fromStdString(rel);
            if (action == QLatin1String("verify-missing")) {
                QVERIFY(QFile::remove(path));
                continue;
            }
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray bytes = f.readAll();
            bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x01);
            QVERIFY(f.seek(0));
            QCOMPARE(f.write(bytes), qint64(bytes.size()));
        }
    }

    QString cliSaid, guiSaid;
    const bool training = action == QLatin1String("delete-while-training");
    QString cli, gui;
    const QString done = action.startsWith(QLatin1String("verify")) ? QStringLiteral("verify") : action;
    {
        // Another process's training, as far as the lock says: the run's writer lock is held.
        std::optional<savepoint::FileLock> lock;
        if (training) lock.emplace(savepoint::run_lock_path(cliHome.toStdString(), "r"), false, "the test");
        cli = cliVerdict(cliHome, training ? QStringLiteral("delete") : done, id, &cliSaid);
    }
    {
        std::optional<savepoint::FileLock> lock;
        if (training) lock.emplace(savepoint::run_lock_path(guiHome.toStdString(), "r"), false, "the test");
        gui = guiVerdict(guiHome, training ? QStringLiteral("delete") : done, role, id, &guiSaid);
    }
    QCOMPARE(cli, verdict);
    QCOMPARE(gui, verdict);
    const QString afterCli = snapshot(cliHome), afterGui = snapshot(guiHome);
    QCOMPARE(afterGui, afterCli);
    if (verdict == QLatin1String("refused")) {
        QCOMPARE(afterGui, before);  // nothing written
        // Each says which checkpoint, or which setting, it refused.
        const QString what = training ? QStringLiteral("in use") : id ? QStringLiteral("#%1").arg(id) : QString();
        if (id) {
            QVERIFY2(cliSaid.contains(what), qPrintable(cliSaid));
            QVERIFY2(guiSaid.contains(what), qPrintable(guiSaid));
        }
    } else if (action == QLatin1String("verify")) {
        QCOMPARE(afterGui, before);  // a good file: nothing to record
    } else {
        QVERIFY2(afterGui != before, qPrintable(afterGui));  // the action happened (or the damage was recorded)
    }
}

// ok | refused | what else happened, done the way savepoint-cli does it.
QString TestFrontEndsAgree::cliVerdict(const QString& home, const QString& action, qint64 id, QString* said) {
    testsupport::CliResult r;
    if (action == QLatin1String("pin") || action == QLatin1String("unpin")) {
        r = testsupport::runCli({action, QStringLiteral("--home"), home, QStringLiteral("--run"), QStringLiteral("r"),
                                 QStringLiteral("--checkpoint"), QString::number(id)});
    } else if (action == QLatin1String("delete")) {
        // No CLI command: the engine's, as a front end calls it.
        savepoint::Registry reg(home.toStdString());
        try {
            savepoint::delete_checkpoint(reg, *reg.run_by_id(run_), id);
            return QStringLiteral("ok");
        } catch (const savepoint::CheckpointRefused& e) {
            *said = QString::fromStdString(e.what());
            return QStringLiteral("refused");
        } catch (const savepoint::RunBusy& e) {
            *said = QString::fromStdString(e.what());
            return QStringLiteral("refused");
        }
    } else if (action == QLatin1String("verify")) {
        // verify checks every checkpoint of the run; the others are as the template left them.
        r = testsupport::runCli(
            {QStringLiteral("verify"), QStringLiteral("--home"), home, QStringLiteral("--run"), QStringLiteral("r")});
        *said = r.all();
        const bool named = r.err.contains(QStringLiteral("DAMAGED r #%1 ").arg(id));
        if (r.exitCode == 1 && named) return QStringLiteral("damaged");
        // The template's corrupt row is reported too: exit 1 without this one named is a good file.
        if (r.exitCode == 1 && !named) return QStringLiteral("ok");
        return QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.all());
    } else if (action == QLatin1String("bad-lr")) {
        r = testsupport::runCli(testsupport::trainArgs(home, QStringLiteral("x"), 1, 2, QStringLiteral("1"),
                                                       {QStringLiteral("--lr"), QStringLiteral("0")}));
        if (r.exitCode == 2 &&
            !r.err.contains(QStringLiteral("--lr: expected a number greater than 0 and at most 10, found 0")))
            return QStringLiteral("refused, but said: ") + r.err;
    } else if (action == QLatin1String("bad-save-freq")) {
        r = testsupport::runCli(testsupport::trainArgs(home, QStringLiteral("x"), 1, 2, QStringLiteral("often")));
        if (r.exitCode == 2 && !r.err.contains(QStringLiteral(
                                   "--save-freq: expected 'epoch' or a positive number of steps, found 'often'")))
            return QStringLiteral("refused, but said: ") + r.err;
    }
    *said = r.all();
    if (r.exitCode == 0) return QStringLiteral("ok");
    if (r.exitCode == 2) return QStringLiteral("refused");
    return QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.all());
}

// ok | refused | what else happened, done through the window's own methods.
QString TestFrontEndsAgree::guiVerdict(const QString& home, const QString& action, const QString& role, qint64 id,
                                       QString* said) {
    if (action == QLatin1String("bad-save-freq")) {
        // The dialog is where the window takes it; nothing reaches the engine unparsed.
        testsupport::TempSettings settings;
        NewRunDialog d({}, settings.settings);
        qobject_cast<QLineEdit*>(d.field(QStringLiteral("save_freq")))->setText(QStringLiteral("often"));
        if (d.validateAll() || !d.errors().contains(QStringLiteral("save_freq"))) return QStringLiteral("ok");
        *said = d.errors().value(QStringLiteral("save_freq"));
        return QStringLiteral("refused");
    }
    MainWindowOptions o;
    o.home = home;
    o.settings_path = home + QStringLiteral(".ini");
    MainWindow w(o);
    w.setConfirmHandler([](const QString&, const QString&) { return true; });
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return QStringLiteral("window not shown");
    const auto refusedNow = [&] {
        *said = w.banner()->text();
        return w.banner()->kind() == Banner::Kind::Error;
    };
    if (action == QLatin1String("bad-lr")) {
        testsupport::TempSettings settings;
        NewRunDialog d({}, settings.settings);
        qobject_cast<QLineEdit*>(d.field(QStringLiteral("lr")))->setText(QStringLiteral("0"));
        if (d.validateAll() || !d.errors().contains(QStringLiteral("lr"))) return QStringLiteral("dialog took lr 0");
        // And a config that reaches the window anyway is refused before anything is written.
        savepoint::TrainConfig c;
        c.data = "synthetic";
        c.epochs = 1;
        c.steps_per_epoch = 2;
        c.lr = 0;
        QSignalSpy finished(w.worker(), &TrainerWorker::finished);
        if (!w.training()->startRun(QStringLiteral("x"), c))
            return refusedNow() ? QStringLiteral("refused") : QStringLiteral("ok");
        if (!finished.wait(120000)) return QStringLiteral("no end of the run");
        const auto out = finished.at(0).at(0).value<WorkerOutcome>();
        *said = QString::fromStdString(out.message);
        return out.threw ? QStringLiteral("refused") : QStringLiteral("ok");
    }
    if (action == QLatin1String("verify")) {
        QSignalSpy verified(w.runData(), &RunDataView::verificationFinished);
        w.runData()->verifyCheckpoint(id);
        if (!verified.count() && !verified.wait(60000)) return QStringLiteral("no verdict");
        *said = w.banner()->text();
        return verified.at(0).at(1).toBool() ? QStringLiteral("ok") : QStringLiteral("damaged");
    }
    if (action == QLatin1String("delete")) {
        if (w.runData()->deleteCheckpoint(id)) return QStringLiteral("ok");
        return refusedNow() ? QStringLiteral("refused") : QStringLiteral("declined without saying why");
    }

    // Pin and unpin are one toggle on the selected row, as the button does it.
    QSignalSpy loaded(w.runData(), &RunDataView::runLoaded);
    w.runData()->selectRun(run_);
    if (!loaded.count() && !loaded.wait(30000)) return QStringLiteral("run not loaded");
    if (role == QLatin1String("deleted"))
        for (auto* b : w.findChildren<QCheckBox*>())
            if (b->text() == QLatin1String("Show deleted")) b->setChecked(true);
    const int row = w.checkpointModel()->rowOf(id);
    if (row < 0) return QStringLiteral("row not shown");
    w.runData()->selectCheckpoint(id);
    if ((action == QLatin1String("unpin")) != w.checkpointModel()->rowAt(row)->pinned)
        return QStringLiteral("the toggle would do the opposite");
    if (refusedNow()) return QStringLiteral("an error before the action: ") + *said;
    w.runData()->togglePinSelected();
    return refusedNow() ? QStringLiteral("refused") : QStringLiteral("ok");
}

QTEST_MAIN(TestFrontEndsAgree)
#include "test_front_ends_agree.moc"
