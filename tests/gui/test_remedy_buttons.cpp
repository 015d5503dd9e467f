// A refused start offers what to do next as the window's own control: the
// banner's button does the engine's remedy (resume the run that exists, show the
// run's checkpoints, train on the CPU), and no word of it is a command-line flag.
// The real window offscreen, real runs on the synthetic dataset.
#include "bridge/trainer_worker.h"
#include "registry/registry.h"
#include "train_configs.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window/run_data_view.h"
#include "window/training_controller.h"
#include "window_home.h"

#include <torch/cuda.h>

#include <QPushButton>
#include <QTableView>
#include <QtTest>

using namespace savepoint::ui;

class TestRemedyButtons : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { testsupport::WindowHome::prepareTestCase(); }
    void init() {
        QVERIFY(home_.create());
        w_ = &home_.open();
        QVERIFY(home_.show());
    }
    void cleanup() { home_.close(); }

    void existingNameOffersToResumeIt();
    void missingCheckpointShowsTheRunsCheckpoints();
    void noCudaOffersToTrainOnTheCpu();

private:
    // Starts (or resumes, through `start`) and waits for the worker to end; its outcome.
    template <class F>
    WorkerOutcome runToEnd(F start) {
        QSignalSpy finished(w_->worker(), &TrainerWorker::finished);
        if (!start()) return {};
        if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 60000)) return {};
        return finished.at(0).at(0).value<WorkerOutcome>();
    }
    // The banner shows a refusal whose button reads `label`, in words free of the CLI's.
    bool refusalOffers(const QString& label) {
        const QString text = w_->banner()->text();
        const QPushButton* b = w_->banner()->actionButton();
        const bool ok = w_->banner()->isVisible() && w_->banner()->kind() == Banner::Kind::Error && b &&
                        b->isVisible() && b->text() == label && !text.contains(QStringLiteral("--")) &&
                        !text.contains(QStringLiteral("savepoint-cli"));
        if (!ok) qWarning("banner '%s', button '%s'", qPrintable(text), b ? qPrintable(b->text()) : "none");
        return ok;
    }
    std::int64_t runId(const char* name) {
        savepoint::Registry reg(w_->home().toStdString());
        const auto r = reg.find_run(name);
        return r ? r->id : 0;
    }

    testsupport::WindowHome home_;
    MainWindow* w_ = nullptr;
};

// The name is taken by a run that crashed: the button resumes that run, which then ends.
void TestRemedyButtons::existingNameOffersToResumeIt() {
    const auto c = testsupport::syntheticMlp(2, 20, 16, 5);
    w_->training()->armCrashAt(15);
    QCOMPARE(runToEnd([&] { return w_->training()->startRun(QStringLiteral("a"), c); }).outcome,
             savepoint::Outcome::Crashed);
    const WorkerOutcome refused = runToEnd([&] { return w_->training()->startRun(QStringLiteral("a"), c); });
    QVERIFY(refused.threw);
    QCOMPARE(refused.remedy.kind, savepoint::Remedy::Kind::ResumeRun);
    QVERIFY(refusalOffers(QStringLiteral("Resume 'a'")));
    // To look at it: SAVEPOINT_SCREENSHOT_DIR=DIR keeps the window as it offers the button.
    if (const QByteArray dir = qgetenv("SAVEPOINT_SCREENSHOT_DIR"); !dir.isEmpty())
        w_->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/remedy-resume.png"));

    const WorkerOutcome resumed = runToEnd([&] {
        w_->banner()->actionButton()->click();
        return true;
    });
    QCOMPARE(resumed.outcome, savepoint::Outcome::Finished);
    QVERIFY(!resumed.threw);
    savepoint::Registry reg(w_->home().toStdString());
    const auto run = reg.find_run("a");
    QVERIFY(run);
    QCOMPARE(run->status, savepoint::RunStatus::Finished);
    QCOMPARE(reg.sessions(run->id).size(), std::size_t(2));  // the crashed one and the resume: no new run
    QCOMPARE(reg.list_runs().size(), std::size_t(1));
}

// A resume at a checkpoint the run does not have: the button brings that run's
// checkpoints into view (another run was viewed), the table focused to pick one.
void TestRemedyButtons::missingCheckpointShowsTheRunsCheckpoints() {
    const auto c = testsupport::syntheticMlp(1, 10, 16, 5);
    QCOMPARE(runToEnd([&] { return w_->training()->startRun(QStringLiteral("a"), c); }).outcome,
             savepoint::Outcome::Finished);
    QCOMPARE(runToEnd([&] { return w_->training()->startRun(QStringLiteral("b"), c); }).outcome,
             savepoint::Outcome::Finished);
    w_->runData()->selectRun(runId("b"));
    QTRY_COMPARE(w_->runData()->viewedRunId(), runId("b"));

    savepoint::ResumeTarget nowhere;
    nowhere.checkpoint_id = 9999;
    const WorkerOutcome refused = runToEnd([&] { return w_->training()->resumeRun(QStringLiteral("a"), nowhere); });
    QVERIFY(refused.threw);
    QCOMPARE(refused.remedy.kind, savepoint::Remedy::Kind::ListCheckpoints);
    QVERIFY(refusalOffers(QStringLiteral("Show its checkpoints")));
    w_->banner()->actionButton()->click();
    QTRY_COMPARE(w_->runData()->viewedRunId(), runId("a"));
    QVERIFY(!w_->banner()->isVisible());
    QVERIFY(!w_->worker()->isRunning());  // showing is all it does
}

// A run asked for CUDA on a machine without it: the button trains the same run on the CPU.
void TestRemedyButtons::noCudaOffersToTrainOnTheCpu() {
    if (torch::cuda::is_available()) QSKIP("this machine has CUDA: nothing to refuse");
    auto c = testsupport::syntheticMlp(1, 10, 16, 5);
    c.device = "cuda";
    const WorkerOutcome refused = runToEnd([&] { return w_->training()->startRun(QStringLiteral("g"), c); });
    QVERIFY(refused.threw);
    QCOMPARE(refused.remedy.kind, savepoint::Remedy::Kind::TrainOnCpu);
    QVERIFY(!runId("g"));  // refused before anything was created
    QVERIFY(refusalOffers(QStringLiteral("Train on the CPU")));
    const WorkerOutcome trained = runToEnd([&] {
        w_->banner()->actionButton()->click();
        return true;
    });
    QCOMPARE(trained.outcome, savepoint::Outcome::Finished);
    savepoint::Registry reg(w_->home().toStdString());
    const auto run = reg.find_run("g");
    QVERIFY(run);
    QVERIFY2(run->config_json.find("\"cpu\"") != std::string::npos, run->config_json.c_str());
}

QTEST_MAIN(TestRemedyButtons)
#include "test_remedy_buttons.moc"
