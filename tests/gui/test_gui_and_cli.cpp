// Two processes, one home: the real window and a real savepoint-cli at once.
//  - While the GUI trains run 'gui', a CLI `resume --run gui` is refused with
//    the lock named, and changes nothing.
//  - A CLI run trains alongside in the same home; the GUI's event loop keeps
//    turning (its longest gap is measured and bounded) and the window follows
//    the CLI's run live from the registry.
//  - The GUI cannot take the CLI's run while the CLI holds it: the banner says
//    why and no session is added.
//  - Both runs end verified; the CLI's run is bit-identical to an
//    uninterrupted reference.
// The CLI is frozen with SIGSTOP at a moment it holds no registry write lock
// (checked with BEGIN IMMEDIATE), so "still running" does not depend on timing.
//
//   ctest --test-dir build -R test_gui_and_cli --output-on-failure
#include "bridge/trainer_worker.h"
#include "plot/metrics_plot.h"
#include "reliability_support.h"
#include "train_configs.h"
#include "window/banner.h"
#include "window/fault_tolerance_panel.h"
#include "window/main_window.h"
#include "window/run_data_view.h"
#include "window/status_bar.h"
#include "window/training_controller.h"
#include "window_home.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QtTest>

#include <sqlite3.h>
#include <csignal>

using namespace savepoint::ui;
using namespace reliability;

namespace {

// True when nobody holds the registry's write lock right now.
bool registryWriteLockFree(const QString& home) {
    sqlite3* db = nullptr;
    const QByteArray path = (home + QStringLiteral("/registry.sqlite")).toUtf8();
    if (sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return false;
    }
    const bool free = sqlite3_exec(db, "BEGIN IMMEDIATE; ROLLBACK;", nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return free;
}

// Records the longest gap between 5 ms timer ticks on the GUI thread.
class GapMeter : public QObject {
public:
    GapMeter() {
        timer_.setInterval(5);
        QObject::connect(&timer_, &QTimer::timeout, this, [this] { max_ = std::max(max_, clock_.restart()); });
        clock_.start();
        timer_.start();
    }
    qint64 maxGapMs() const { return max_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 max_ = 0;
};

}  // namespace

class TestGuiAndCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { testsupport::WindowHome::prepareTestCase(); }
    void oneHomeTwoWriters();
};

void TestGuiAndCli::oneHomeTwoWriters() {
    testsupport::WindowHome tmp;
    QVERIFY(tmp.create());
    const int cliEpochs = 10, cliSpe = 40, cliSave = 10;
    CliResult ref = reliability::runCli(
        tinyTrain(tmp.filePath(QStringLiteral("ref")), QStringLiteral("cli"), cliEpochs, cliSpe, cliSave));
    QVERIFY2(ref.exitCode == 0, ref.describe().constData());
    const QString reference = testsupport::paramsShaFromOutput(ref.out);
    QVERIFY(!reference.isEmpty());

    const QString home = tmp.filePath(QStringLiteral("home"));
    MainWindow& w = tmp.open();
    QVERIFY(tmp.show());

    // The GUI trains 'gui' until told to stop.
    QSignalSpy finished(w.worker(), &TrainerWorker::finished);
    const savepoint::TrainConfig c = testsupport::syntheticMlp(1000, 20, 16, 5);
    QVERIFY(w.training()->startRun(QStringLiteral("gui"), c));
    QTRY_VERIFY_WITH_TIMEOUT(w.plot()->store().pointCount() > 10, 120000);

    // 1. A CLI writer on the GUI's run is refused, naming the lock, and changes nothing.
    CliResult second = reliability::runCli(resumeArgs(home, QStringLiteral("gui")));
    QVERIFY2(second.exitCode == 1, second.describe().constData());
    QVERIFY2(second.err.contains(QStringLiteral("run 'gui' is in use by another Savepoint process (process %1; lock ")
                                     .arg(QCoreApplication::applicationPid()) +
                                 home + QStringLiteral("/locks/gui.lock)")),
             second.describe().constData());

    // 2. A CLI run trains alongside; the GUI keeps painting.
    GapMeter gaps;
    QProcess cli;
    cli.setProcessEnvironment(envWith());
    cli.start(testsupport::cliPath(), tinyTrain(home, QStringLiteral("cli"), cliEpochs, cliSpe, cliSave));
    QVERIFY(cli.waitForStarted());
    struct Reaper {  // never leave a stopped CLI behind a failed check
        QProcess& p;
        ~Reaper() {
            if (p.state() != QProcess::NotRunning) {
                ::kill(pid_t(p.processId()), SIGCONT);
                p.kill();
                p.waitForFinished(10000);
            }
        }
    } reaper{cli};
    QString cliOut;
    QVERIFY2(testsupport::waitUntil(
                 [&] {
                     QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
                     cliOut += QString::fromUtf8(cli.readAllStandardOutput());
                     return cliOut.contains(QLatin1String("saved checkpoint")) || cli.state() == QProcess::NotRunning;
                 },
                 120000),
             qPrintable(cliOut));
    QVERIFY2(cli.state() == QProcess::Running, "the CLI run ended before the test could pause it; lengthen it");

    // 3. The GUI stops its own run; then the CLI is frozen at a moment it holds no write lock.
    w.training()->stopTraining();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QCOMPARE(finished.at(0).at(0).value<WorkerOutcome>().outcome, savepoint::Outcome::Stopped);
    const pid_t pid = pid_t(cli.processId());
    std::int64_t cliRun = 0;
    std::size_t cliSteps = 0;  // training rows of 'cli' in the registry while it is frozen
    auto trainingRows = [&] {
        savepoint::Registry reg(home.toStdString());
        auto run = reg.find_run("cli");
        if (!run) return std::size_t(0);
        cliRun = run->id;
        std::size_t n = 0;
        for (const auto& m : reg.metrics(run->id)) n += m.kind == savepoint::MetricKind::TrainingStep;
        return n;
    };
    bool frozen = false;
    for (int attempt = 0; attempt < 200 && cli.state() == QProcess::Running; ++attempt) {
        ::kill(pid, SIGSTOP);
        QTest::qWait(20);  // let the stop land
        if (registryWriteLockFree(home) && (cliSteps = trainingRows()) > 0) {
            frozen = true;
            break;
        }
        ::kill(pid, SIGCONT);
        QTest::qWait(3);
    }
    QVERIFY2(frozen, "could not pause the CLI between registry transactions");

    // The window shows exactly what the CLI has committed so far.
    {
        savepoint::Registry reg(home.toStdString());
        QCOMPARE(std::string(savepoint::to_string(reg.run_by_id(cliRun)->status)), std::string("running"));
    }
    w.runData()->selectRun(cliRun);
    QTRY_COMPARE_WITH_TIMEOUT(w.plot()->store().pointCount(), std::int64_t(cliSteps), 10000);
    {
        // Its figures come from the registry: every step it reached was computed by
        // its one session (which writes its counters only when it ends), and the
        // status bar shows its progress, not the window's own last run.
        savepoint::Registry reg(home.toStdString());
        const std::int64_t reached = reg.run_by_id(cliRun)->global_step;
        QVERIFY(reached > 0);
        QTRY_COMPARE_WITH_TIMEOUT(w.faultPanel()->stats().steps_computed, reached, 10000);
        QCOMPARE(w.faultPanel()->stats().useful_steps, reached);
        QCOMPARE(w.faultPanel()->stats().goodput, 1.0);
        QTRY_COMPARE_WITH_TIMEOUT(w.statusFields()->progressBar()->value(), int(reached), 10000);
        QVERIFY2(w.statusFields()->phaseLabel()->text().contains(QStringLiteral("cli — training in another process")),
                 qPrintable(w.statusFields()->phaseLabel()->text()));
    }

    // 4. The GUI cannot take the CLI's run: a clear message, nothing added.
    QVERIFY(w.training()->resumeRun(QStringLiteral("cli"), {}));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
    QVERIFY(finished.at(1).at(0).value<WorkerOutcome>().threw);
    QVERIFY(w.banner()->isVisible());
    QCOMPARE(w.banner()->kind(), Banner::Kind::Error);
    QVERIFY2(w.banner()->text().contains(QStringLiteral("is in use by another Savepoint process")),
             qPrintable(w.banner()->text()));
    {
        savepoint::Registry reg(home.toStdString());
        QCOMPARE(reg.sessions(cliRun).size(), std::size_t(1));
    }

    // 5. The CLI carries on to the end; the window sees it finish.
    ::kill(pid, SIGCONT);
    QVERIFY(testsupport::waitUntil(
        [&] {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
            return cli.state() == QProcess::NotRunning;
        },
        300000));
    cliOut += QString::fromUtf8(cli.readAllStandardOutput());
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QCOMPARE(cli.exitCode(), 0);
    QCOMPARE(testsupport::paramsShaFromOutput(cliOut), reference);
    const double lastStep = cliEpochs * cliSpe;
    QTRY_VERIFY_WITH_TIMEOUT(
        w.plot()->store().pointCount() > 0 && w.plot()->store().segments().back().gs.back() == lastStep, 10000);
    qInfo("longest GUI event-loop gap while both trained: %lld ms", static_cast<long long>(gaps.maxGapMs()));
    // The GUI only reads the CLI's rows (WAL: readers do not wait for writers) and
    // trains on its own thread; a gap this long would be a blocked UI thread.
    QVERIFY2(gaps.maxGapMs() < 2000, qPrintable(QString::number(gaps.maxGapMs())));

    for (const QString run : {QStringLiteral("gui"), QStringLiteral("cli")}) {
        HomeState s = checkHome(home, run);
        QVERIFY2(s.ok, qPrintable(run + QStringLiteral(": ") + s.why));
    }
}

QTEST_MAIN(TestGuiAndCli)
#include "test_gui_and_cli.moc"
