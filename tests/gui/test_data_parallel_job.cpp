// The window's data-parallel job: the real /usr/bin/torchrun starting the real
// savepoint-cli (Debian's python3-torch; skipped without it).
//  - The run the job creates has exactly the dialog's configuration (every
//    field crosses torchrun's command line and comes back from the registry).
//  - The job's workers are found by local rank, and "Kill a worker" kills the
//    one asked for: with no restarts left the job fails.
//  - Without torchrun on PATH the job does not start and says what to install.
//  - In the window: the job's run is shown as soon as it exists, "Kill a
//    worker" takes the crash's place while the job runs, and Stop sends the
//    preemption notice: the run ends preempted with its emergency checkpoint.
//  - Two workers, one killed from the window: torchrun restarts the job from its
//    last checkpoint and it finishes; the run list says "× 2 workers", the plot
//    marks "worker 1 lost → job restarted from checkpoint #N" and shades the lost
//    steps, the fault-tolerance panel counts the restart. SAVEPOINT_JOB_SHOT=FILE.png
//    saves the window then, for a person to look at (xvfb-run, -platform xcb).
//
//   ctest --test-dir build -R test_data_parallel_job --output-on-failure
#include "bridge/data_parallel_job.h"
#include "models/run_list_model.h"
#include "plot/event_markers.h"
#include "plot/metrics_plot.h"
#include "registry/registry.h"
#include "test_home.h"
#include "train_configs.h"
#include "training/train_config.h"
#include "window/fault_tolerance_panel.h"
#include "window/job_controller.h"
#include "window_support.h"

#include <QAction>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace savepoint::ui;

class TestDataParallelJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        if (DataParallelJob::findTorchrun().isEmpty()) QSKIP("torchrun not on PATH (apt install python3-torch)");
        // The test program is not beside savepoint-cli; the one built with it is found on PATH.
        qputenv("PATH", QFileInfo(testsupport::cliPath()).absolutePath().toUtf8() + ':' + qgetenv("PATH"));
    }
    void theRunHasTheDialogsConfiguration();
    void killAWorkerStopsTheJob();
    void withoutTorchrunItSaysWhatToInstall();
    void theWindowFollowsAndStopsTheJob();
    void aLostWorkerRestartsTheJob();
};

void TestDataParallelJob::theRunHasTheDialogsConfiguration() {
    QTemporaryDir tmp;
    savepoint::TrainConfig c = testsupport::syntheticMlp(2, 6, 24, 4);
    c.lr = 0.0123456789012345;
    c.optimizer = "sgd";
    c.seed = 9876543210ULL;
    c.keep = 7;
    c.async_policy = "wait";  // under torchrun the CLI refuses skip and defer
    DataParallelJob job;
    QSignalSpy done(&job, &DataParallelJob::finished);
    QStringList lines;
    connect(&job, &DataParallelJob::outputLine, this, [&lines](const QString& l) { lines << l; });
    QString error;
    QVERIFY2(job.start(tmp.path(), QStringLiteral("dp"), c, {1, 0, {}}, &error), qPrintable(error));
    QVERIFY(done.wait(120000));
    QVERIFY2(done.at(0).at(0).toInt() == 0, qPrintable(lines.join(QLatin1Char('\n'))));
    QVERIFY2(lines.join(QLatin1Char('\n')).contains(QStringLiteral("params_sha256 ")),
             qPrintable(lines.join(QLatin1Char('\n'))));

    savepoint::Registry reg(tmp.path().toStdString());
    const auto run = reg.find_run("dp");
    QVERIFY(run);
    const auto recorded = savepoint::TrainConfig::from_json(nlohmann::json::parse(run->config_json), "registry");
    auto comparable = [](savepoint::TrainConfig x) {
        x.data_sha256.clear();  // filled in by the run
        return x.to_json().dump();
    };
    QCOMPARE(QString::fromStdString(comparable(recorded)), QString::fromStdString(comparable(c)));
}

void TestDataParallelJob::killAWorkerStopsTheJob() {
    QTemporaryDir tmp;
    DataParallelJob job;
    QSignalSpy done(&job, &DataParallelJob::finished);
    QString error;
    // Long enough that the worker is still training when it is killed.
    QVERIFY2(
        job.start(tmp.path(), QStringLiteral("dp"), testsupport::syntheticMlp(50, 1000, 32, 0), {1, 0, {}}, &error),
        qPrintable(error));
    QVERIFY(QTest::qWaitFor([&] { return !job.workers().empty(); }, 60000));
    const std::vector<JobWorker> w = job.workers();
    QCOMPARE(int(w.size()), 1);
    QCOMPARE(w[0].local_rank, 0);
    QVERIFY(!job.killWorker(1));  // no such worker
    QVERIFY(job.killWorker(0));
    QVERIFY(done.wait(60000));
    QVERIFY(done.at(0).at(0).toInt() != 0);  // torchrun: a worker failed and no restart was left
    QVERIFY(!job.isRunning());
    QVERIFY(job.workers().empty());
}

void TestDataParallelJob::withoutTorchrunItSaysWhatToInstall() {
    QTemporaryDir empty;
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", empty.path().toUtf8());
    DataParallelJob job;
    QString error;
    const bool started =
        job.start(empty.path(), QStringLiteral("dp"), testsupport::syntheticMlp(1, 2, 8, 0), {}, &error);
    qputenv("PATH", path);
    QVERIFY(!started);
    QVERIFY2(error.contains(QStringLiteral("torchrun was not found on PATH")) &&
                 error.contains(QStringLiteral("python3-torch")),
             qPrintable(error));
    QVERIFY(QDir(empty.path()).isEmpty());  // nothing created
}

void TestDataParallelJob::theWindowFollowsAndStopsTheJob() {
    QTemporaryDir tmp;
    auto w = testsupport::windowIn(tmp);
    w->setConfirmHandler([](const QString&, const QString&) { return true; });
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(w->action(QStringLiteral("crash"))->isVisible());
    QVERIFY(!w->action(QStringLiteral("killWorker"))->isVisible());
    QVERIFY(w->jobs()->start(QStringLiteral("dp"), testsupport::syntheticMlp(50, 1000, 32, 0), {1, 0, {}}));
    QVERIFY(w->action(QStringLiteral("killWorker"))->isVisible());
    QVERIFY(!w->action(QStringLiteral("crash"))->isVisible());
    QVERIFY(!w->action(QStringLiteral("newRun"))->isEnabled());
    QVERIFY(w->action(QStringLiteral("stop"))->isEnabled());
    // The run is shown once its worker has created it, and fills in from the registry.
    QTRY_VERIFY_WITH_TIMEOUT(w->selectedRunId() != 0, 60000);
    savepoint::Registry reg(w->home().toStdString());
    QCOMPARE(w->selectedRunId(), reg.find_run("dp")->id);
    QTRY_VERIFY_WITH_TIMEOUT(!w->jobs()->job().workers().empty(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(reg.find_run("dp")->global_step > 0, 60000);

    QSignalSpy done(w->jobs(), &JobController::finished);
    w->jobs()->stop();
    QVERIFY(done.wait(60000));
    QCOMPARE(std::string(savepoint::to_string(reg.find_run("dp")->status)), std::string("preempted"));
    const auto ckpts = reg.checkpoints(reg.find_run("dp")->id);
    QVERIFY(std::any_of(ckpts.begin(), ckpts.end(),
                        [](const auto& c) { return c.kind == savepoint::CheckpointKind::Emergency; }));
    auto* log = w->findChild<QPlainTextEdit*>(QStringLiteral("eventLog"));
    QVERIFY2(log->toPlainText().contains(QStringLiteral("stopped with a checkpoint; Resume continues it")),
             qPrintable(log->toPlainText().right(2000)));
    QVERIFY(!w->action(QStringLiteral("killWorker"))->isVisible());
    QVERIFY(w->action(QStringLiteral("newRun"))->isEnabled());
}

void TestDataParallelJob::aLostWorkerRestartsTheJob() {
    QTemporaryDir tmp;
    auto w = testsupport::windowIn(tmp);
    w->setConfirmHandler([](const QString&, const QString&) { return true; });
    QStringList offered;
    w->jobs()->setWorkerChooser([&offered](const QStringList& labels) {
        offered = labels;
        return 1;  // worker 1: rank 0 carries on the registry, as a user would see it
    });
    w->resize(1500, 950);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(w->jobs()->start(QStringLiteral("dp2"), testsupport::syntheticMlp(2, 2000, 16, 100), {2, 1, {}}));
    QSignalSpy done(w->jobs(), &JobController::finished);
    QTRY_VERIFY_WITH_TIMEOUT(w->selectedRunId() != 0, 60000);
    savepoint::Registry reg(w->home().toStdString());
    const std::int64_t id = reg.find_run("dp2")->id;
    // Killed once a checkpoint is committed and the run has gone on past it.
    QTRY_VERIFY_WITH_TIMEOUT(reg.find_run("dp2")->head_checkpoint_id.has_value() &&
                                 reg.find_run("dp2")->global_step >
                                     reg.checkpoint(*reg.find_run("dp2")->head_checkpoint_id)->global_step + 10,
                             90000);
    QCOMPARE(int(w->jobs()->job().workers().size()), 2);
    w->action(QStringLiteral("killWorker"))->trigger();
    QCOMPARE(offered.size(), 2);
    QVERIFY(done.wait(180000));
    QCOMPARE(done.at(0).at(0).toInt(), 0);
    QCOMPARE(std::string(savepoint::to_string(reg.find_run("dp2")->status)), std::string("finished"));
    const auto sessions = reg.sessions(id);
    QCOMPARE(int(sessions.size()), 2);
    QCOMPARE(sessions.back().restart_count, std::int64_t(1));
    QCOMPARE(sessions.back().world_size, std::int64_t(2));

    // The run list: the job's workers beside its status, and its restart in the tooltip.
    // (English plurals come from the translation, which this test does not load: "worker(s)".)
    QTRY_VERIFY_WITH_TIMEOUT(w->runModel()
                                 ->index(0, RunListModel::Status)
                                 .data()
                                 .toString()
                                 .startsWith(QStringLiteral("finished · 2 worker")),
                             10000);
    QVERIFY(w->runModel()
                ->index(0, RunListModel::Status)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("restarted it 1 time")));
    // ...and what worker 1 reported to rank 0 at the end of the session that finished.
    QVERIFY(w->runModel()
                ->index(0, RunListModel::Status)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QRegularExpression(QStringLiteral("worker 1 on .*: [0-9,]+ steps, .* in the all-reduce"))));
    // The plot: the restart's line names the checkpoint the job went back to, and the lost steps are shaded.
    const std::int64_t from = *sessions.back().from_checkpoint_id;
    const QString want = QStringLiteral("worker 1 lost → job restarted from checkpoint #%1").arg(from);
    QTRY_VERIFY_WITH_TIMEOUT(
        std::any_of(w->plot()->lossMarkers().events().begin(), w->plot()->lossMarkers().events().end(),
                    [&](const MarkerEvent& e) { return EventMarkers::label(e) == want; }),
        10000);
    // Where it was lost: rank 0's session ended there, naming the worker (not "crash").
    QVERIFY(
        std::any_of(w->plot()->lossMarkers().events().begin(), w->plot()->lossMarkers().events().end(),
                    [&](const MarkerEvent& e) { return EventMarkers::label(e) == QStringLiteral("worker 1 lost"); }));
    QTRY_VERIFY_WITH_TIMEOUT(w->plot()->lossMarkers().shadedSpans() >= 1, 10000);
    // The fault-tolerance panel: one restart, and the job's goodput per worker-hour.
    QTRY_COMPARE_WITH_TIMEOUT(w->faultPanel()->findChild<QLabel*>(QStringLiteral("jobRestartsValue"))->text(),
                              QStringLiteral("1"), 10000);
    QVERIFY(!w->faultPanel()->findChild<QLabel*>(QStringLiteral("perWorkerHourValue"))->isHidden());
    const QString shot = qEnvironmentVariable("SAVEPOINT_JOB_SHOT");
    if (!shot.isEmpty()) {
        QTest::qWait(1500);
        QVERIFY(w->grab().save(shot));
    }
}

QTEST_MAIN(TestDataParallelJob)
#include "test_data_parallel_job.moc"
