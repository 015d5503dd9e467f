// The window and S3-compatible storage, against the real Swift server of
// tests/remote/ (the s3_server fixture; skipped without it):
//  - the New run dialog checks the Remote storage field beside it, without the network;
//  - a run started from the dialog with a remote has every checkpoint uploaded:
//    the checkpoint table's Remote column says so, the status bar shows the backlog;
//  - a store that refuses (a bucket that does not exist) keeps the run from starting
//    and says the server's reason;
//  - "Open runs from remote storage…" in a window on another home brings the run
//    back with every checkpoint, and a resume there continues it (re-attached to its store);
//  - a 2-worker torchrun job started with a remote: rank 0 alone uploads, every checkpoint.
// SAVEPOINT_REMOTE_SHOT=FILE.png saves the first window after its uploads (xvfb-run, -platform xcb).
//
//   ctest --test-dir build -R 's3_server|test_remote_window' --output-on-failure
#include "bridge/data_parallel_job.h"
#include "models/checkpoint_table_model.h"
#include "platform/sanitizer_build.h"
#include "registry/checkpoint_remotes.h"
#include "registry/registry.h"
#include "test_home.h"
#include "train_configs.h"
#include "window/live_run_state.h"
#include "window/new_run_dialog.h"
#include "window/remote_controller.h"
#include "window/status_bar.h"
#include "window/training_controller.h"
#include "window_home.h"
#include "window_support.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace savepoint::ui;

namespace {

// The fixture's AWS_* variables and bucket (tests/remote/s3_server_start.sh writes them).
bool loadServerEnv(QString* bucket) {
    QFile env(qEnvironmentVariable("SAVEPOINT_S3_DIR", QStringLiteral("/tmp/savepoint-s3-0")) + QStringLiteral("/env"));
    if (!env.open(QIODevice::ReadOnly)) return false;
    for (QByteArray line : env.readAll().split('\n')) {
        line = line.trimmed();
        if (line.startsWith("export ")) line = line.mid(7);
        const int eq = line.indexOf('=');
        if (eq <= 0) continue;
        qputenv(line.left(eq).constData(), line.mid(eq + 1));
        if (line.left(eq) == "SAVEPOINT_S3_BUCKET") *bucket = QString::fromUtf8(line.mid(eq + 1));
    }
    return !bucket->isEmpty();
}

// Starts run `name` from the New run dialog, as a user would, with `remote` in its field.
void startFromDialog(MainWindow& w, const QString& name, const savepoint::TrainConfig& c, const QString& remote) {
    w.training()->showNewRunDialog();
    auto* d = w.findChild<NewRunDialog*>();
    QVERIFY(d);
    d->setConfig(c);
    d->setRunName(name);
    d->setRemote(remote);
    QVERIFY2(d->validateAll(), qPrintable(QStringList(d->errors().values()).join(QStringLiteral("; "))));
    d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
}

}  // namespace

class TestRemoteWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        if (!loadServerEnv(&bucket_)) QSKIP("no S3 server (tests/remote/s3_server_start.sh: is Swift installed?)");
        prefix_ = QStringLiteral("s3://%1/gui-%2").arg(bucket_).arg(QCoreApplication::applicationPid());
    }
    void theFieldIsCheckedBesideIt();
    void uploadsAreShownAndARunComesBack();
    void aRefusingStoreKeepsTheRunFromStarting();
    void aJobUploadsThroughRankZero();

private:
    QString bucket_, prefix_;
};

void TestRemoteWindow::theFieldIsCheckedBesideIt() {
    testsupport::TempSettings settings;
    NewRunDialog d({}, settings.settings);
    auto* field = qobject_cast<QLineEdit*>(d.field(QStringLiteral("remote")));
    QVERIFY(field);
    QVERIFY(d.errors().value(QStringLiteral("remote")).isEmpty());  // optional
    field->setText(QStringLiteral("http://example.com/x"));
    QVERIFY2(d.errors().value(QStringLiteral("remote")).contains(QStringLiteral("Remote storage")),
             qPrintable(d.errors().value(QStringLiteral("remote"))));
    field->setText(QStringLiteral("s3://A_B/x"));  // not a bucket name
    QVERIFY(!d.errors().value(QStringLiteral("remote")).isEmpty());
    field->setText(prefix_);
    QVERIFY2(d.errors().value(QStringLiteral("remote")).isEmpty(), qPrintable(d.errors().value("remote")));
    // No credentials anywhere: said before anything is asked of the store.
    const QByteArray key = qgetenv("AWS_ACCESS_KEY_ID");
    qunsetenv("AWS_ACCESS_KEY_ID");
    qputenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
    field->setText(prefix_ + QStringLiteral("/again"));
    const QString no_key = d.errors().value(QStringLiteral("remote"));
    qputenv("AWS_ACCESS_KEY_ID", key);
    qunsetenv("AWS_SHARED_CREDENTIALS_FILE");
    QVERIFY2(no_key.contains(QStringLiteral("AWS_ACCESS_KEY_ID")), qPrintable(no_key));
    // A job of several workers syncs too (its rank 0 uploads): nothing to say.
    qobject_cast<QSpinBox*>(d.field(QStringLiteral("workers")))->setValue(2);
    QVERIFY2(d.errors().value(QStringLiteral("remote")).isEmpty(), qPrintable(d.errors().value("remote")));
    QCOMPARE(d.parallel().remote, prefix_ + QStringLiteral("/again"));
}

void TestRemoteWindow::aJobUploadsThroughRankZero() {
    if (DataParallelJob::findTorchrun().isEmpty()) QSKIP("torchrun not on PATH (apt install python3-torch)");
#if defined(SAVEPOINT_TSAN_BUILD)
    // As the TSan preset leaves out label distributed: its workers' Gloo threads are not instrumented.
    QSKIP("a torchrun job's workers under ThreadSanitizer report c10d's own teardown (CMakePresets.json, tsan)");
#endif
    qputenv("PATH", QFileInfo(testsupport::cliPath()).absolutePath().toUtf8() + ':' + qgetenv("PATH"));
    QTemporaryDir tmp;
    const QString uri = prefix_ + QStringLiteral("/job");
    savepoint::TrainConfig c = testsupport::syntheticMlp(1, 60, 16, 20);
    c.async_policy = "wait";
    DataParallelJob job;
    QSignalSpy done(&job, &DataParallelJob::finished);
    QStringList lines;
    connect(&job, &DataParallelJob::outputLine, this, [&lines](const QString& l) { lines << l; });
    QString error;
    QVERIFY2(job.start(tmp.path(), QStringLiteral("dpr"), c, {2, 0, uri}, &error), qPrintable(error));
    QVERIFY(done.wait(120000));
    const QString out = lines.join(QLatin1Char('\n'));
    QVERIFY2(done.at(0).at(0).toInt() == 0, qPrintable(out));
    savepoint::Registry reg(tmp.path().toStdString());
    const auto run = reg.find_run("dpr");
    QVERIFY(run);
    std::int64_t committed = 0;
    for (const auto& k : reg.checkpoints(run->id)) committed += k.state == savepoint::CheckpointState::Committed;
    QVERIFY(committed >= 3);
    QCOMPARE(savepoint::remote_backlog(reg, run->id).uploaded, committed);
    QVERIFY2(out.contains(QStringLiteral("[default0]:uploaded checkpoint #")), qPrintable(out));
    QVERIFY2(!out.contains(QStringLiteral("[default1]:uploaded")), qPrintable(out));  // rank 0 alone uploads
}

void TestRemoteWindow::uploadsAreShownAndARunComesBack() {
    QTemporaryDir tmp;
    const QString uri = prefix_ + QStringLiteral("/a");
    std::int64_t committed = 0;
    {
        auto w = testsupport::windowIn(tmp);
        w->resize(1500, 950);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QSignalSpy finished(w->liveRun(), &LiveRunState::trainingFinished);
        startFromDialog(*w, QStringLiteral("synced"), testsupport::syntheticMlp(1, 60, 16, 20), uri);
        QVERIFY(finished.wait(120000));
        savepoint::Registry reg(w->home().toStdString());
        const auto run = reg.find_run("synced");
        QVERIFY(run);
        for (const auto& c : reg.checkpoints(run->id)) committed += c.state == savepoint::CheckpointState::Committed;
        QVERIFY(committed >= 3);
        // Every committed checkpoint reaches the store, and the window says so.
        QTRY_VERIFY_WITH_TIMEOUT(savepoint::remote_backlog(reg, run->id).uploaded == committed, 60000);
        auto* backlog = w->findChild<QLabel*>(QStringLiteral("remoteBacklog"));
        QTRY_VERIFY_WITH_TIMEOUT(backlog->isVisible() && backlog->text().contains(QString::number(committed)), 10000);
        QVERIFY2(backlog->toolTip().contains(uri), qPrintable(backlog->toolTip()));
        // The sync thread's lines reach the Events pane.
        auto* log = w->findChild<QPlainTextEdit*>(QStringLiteral("eventLog"));
        QTRY_VERIFY_WITH_TIMEOUT(log->toPlainText().contains(QStringLiteral("uploaded checkpoint #")), 10000);
        auto* table = w->findChild<QTableView*>(QStringLiteral("checkpointView"));
        QVERIFY(table);
        QVERIFY(!table->isColumnHidden(CheckpointTableModel::Remote));
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->index(0, CheckpointTableModel::Remote).data().toString(),
                                  CheckpointTableModel::remoteStateText(savepoint::RemoteState::Uploaded), 10000);
        const QString shot = qEnvironmentVariable("SAVEPOINT_REMOTE_SHOT");
        if (!shot.isEmpty()) {
            QTest::qWait(1000);
            QVERIFY(w->grab().save(shot));
        }
    }
    // Another home, as on a fresh machine: the run comes back, every checkpoint with it.
    QTemporaryDir fresh;
    auto w2 = testsupport::windowIn(fresh);
    w2->show();
    QSignalSpy pulled(w2->remote(), &RemoteController::pulled);
    w2->openRemoteRuns(uri);
    QVERIFY(pulled.wait(60000));
    QCOMPARE(pulled.at(0).at(0).toStringList(), QStringList{QStringLiteral("synced")});
    savepoint::Registry reg2(w2->home().toStdString());
    const auto back = reg2.find_run("synced");
    QVERIFY(back);
    QTRY_COMPARE_WITH_TIMEOUT(w2->selectedRunId(), back->id, 10000);
    std::int64_t here = 0;
    for (const auto& c : reg2.checkpoints(back->id)) here += c.state == savepoint::CheckpointState::Committed;
    QCOMPARE(here, committed);
    // A second pull of the same run into this home is refused, naming it; nothing is changed.
    QSignalSpy refused(w2->remote(), &RemoteController::errorMessage);
    w2->openRemoteRuns(uri);
    QVERIFY(refused.wait(60000));
    QVERIFY2(refused.at(0).at(0).toString().contains(QStringLiteral("synced")),
             qPrintable(refused.at(0).at(0).toString()));
}

void TestRemoteWindow::aRefusingStoreKeepsTheRunFromStarting() {
    QTemporaryDir tmp;
    auto w = testsupport::windowIn(tmp);
    w->show();
    QSignalSpy refused(w->remote(), &RemoteController::errorMessage);
    startFromDialog(*w, QStringLiteral("refused"), testsupport::syntheticMlp(1, 10, 16, 5),
                    QStringLiteral("s3://no-such-bucket-%1/x").arg(QCoreApplication::applicationPid()));
    QVERIFY(refused.wait(60000));
    QVERIFY2(refused.at(0).at(0).toString().contains(QStringLiteral("existing bucket")),
             qPrintable(refused.at(0).at(0).toString()));
    QTest::qWait(500);
    QVERIFY(!w->training()->isRunning());
    QVERIFY(!w->registry() || !w->registry()->find_run("refused"));  // nothing created
}

QTEST_MAIN(TestRemoteWindow)
#include "test_remote_window.moc"
