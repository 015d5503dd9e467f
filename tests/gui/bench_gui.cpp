// bench_gui: numbers for the GUI's two promises (not a CTest test; timing
// depends on the machine).
//  1. Replot time of a 1,000,000-point series: MetricsPlot holding 1M steps
//     (raw + smoothed graph on each of the loss and accuracy plots), timed with
//     QElapsedTimer around replot(rpImmediateRefresh) and QCustomPlot::replotTime().
//  2. Longest UI-thread stall while the real window trains with a checkpoint
//     every step: a 5 ms QTimer records the gap between its ticks.
//  3. What one poll of the window costs on the UI thread when the run on screen
//     has a long checkpoint history (--history N rows, all retired but five, as
//     saving every step with keep 5 leaves them) and is trained by another
//     process that commits one more checkpoint between two polls.
// Usage: QT_QPA_PLATFORM=offscreen bench_gui [--points N] [--steps N] [--idle S] [--history N] [--shot PATH]
//   --idle: seconds of the idle-window baseline (default 5; 0 skips it).
//   --shot: also saves the 1M-point plot as an image, to look at what the decimation draws.
#include "bridge/engine_types.h"
#include "bridge/trainer_worker.h"
#include "models/checkpoint_table_model.h"
#include "plot/metrics_plot.h"
#include "plot/qcp.h"
#include "registry/registry.h"
#include "train_configs.h"
#include "window/main_window.h"
#include "window/run_data_view.h"
#include "window/training_controller.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace savepoint::ui;

namespace {

// CPU time used by the calling thread (ms): tells a busy GUI thread from a starved one.
double threadCpuMs() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

// Times every event the GUI thread dispatches, so that a long gap in the stall
// probe can be pinned on what the thread was doing: the receiver's class and
// the event's type (a queued signal arrives as a MetaCall).
class TimedApp : public QApplication {
public:
    using QApplication::QApplication;
    struct Dispatch {
        double ms, cpu_ms;
        int depth;
        QString what;
    };
    bool recording = false;
    std::vector<Dispatch> slow;
    bool notify(QObject* receiver, QEvent* event) override {
        if (!recording) return QApplication::notify(receiver, event);
        const int type = event->type();
        const QString what =
            QString::fromLatin1(receiver->metaObject()->className()) + QLatin1Char('/') +
            (receiver->objectName().isEmpty() ? QString() : receiver->objectName() + QLatin1Char('/')) +
            QString::number(type);
        QElapsedTimer t;
        t.start();
        const double cpu = threadCpuMs();
        ++depth_;
        const bool r = QApplication::notify(receiver, event);
        --depth_;
        const double ms = t.nsecsElapsed() / 1e6;
        if (ms >= 3) slow.push_back({ms, threadCpuMs() - cpu, depth_, what});
        return r;
    }

private:
    int depth_ = 0;
};

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5))];
}

void benchReplot(std::int64_t points, const QString& shot) {
    MetricsPlot plot;
    plot.resize(1400, 800);
    plot.show();
    plot.setRunInfo(1000, 0);
    QElapsedTimer t;
    t.start();
    std::vector<savepoint::MetricRow> batch;
    batch.reserve(10000);
    for (std::int64_t g = 1; g <= points; ++g) {
        savepoint::MetricRow r;
        r.session_id = 1;
        r.branch_id = 1;
        r.global_step = g;
        r.loss = 2.3 * std::exp(-g / 200000.0) + 0.05 + 0.05 * std::sin(g * 0.37);
        r.accuracy = 1 - r.loss / 2.5;
        r.wall_time = g * 0.001;
        batch.push_back(r);
        if (batch.size() == 10000) {
            plot.appendMetrics(batch);
            batch.clear();
        }
    }
    plot.appendMetrics(batch);
    const double ingest_ms = t.nsecsElapsed() / 1e6;
    t.restart();
    plot.flush();  // pushes the points to 4 graphs and replots both plots
    const double first_ms = t.nsecsElapsed() / 1e6;
    std::vector<double> loss_ms, loss_cpu_ms, both_ms, qcp_ms;
    for (int i = 0; i < 15; ++i) {
        t.restart();
        const double cpu0 = threadCpuMs();
        plot.lossPlot()->replot(QCustomPlot::rpImmediateRefresh);
        loss_cpu_ms.push_back(threadCpuMs() - cpu0);
        loss_ms.push_back(t.nsecsElapsed() / 1e6);
        qcp_ms.push_back(plot.lossPlot()->replotTime(false));
        t.restart();
        plot.lossPlot()->replot(QCustomPlot::rpImmediateRefresh);
        plot.accuracyPlot()->replot(QCustomPlot::rpImmediateRefresh);
        both_ms.push_back(t.nsecsElapsed() / 1e6);
    }
    // Zoomed into 1 % of the range (adaptive sampling has less to merge).
    plot.lossPlot()->xAxis->setRange(points * 0.5, points * 0.51);
    std::vector<double> zoom_ms;
    for (int i = 0; i < 15; ++i) {
        t.restart();
        plot.lossPlot()->replot(QCustomPlot::rpImmediateRefresh);
        zoom_ms.push_back(t.nsecsElapsed() / 1e6);
    }
    std::printf("replot: %lld points per series (loss plot: raw + smoothed graph, 1400x800 widget)\n",
                static_cast<long long>(points));
    std::printf("  ingest into store: %.1f ms; first flush (copy to 4 graphs + replot both): %.1f ms\n", ingest_ms,
                first_ms);
    std::printf(
        "  loss plot replot: median %.1f ms, max %.1f ms (QCustomPlot::replotTime median %.1f ms; "
        "GUI-thread CPU median %.1f ms, which a busy machine does not inflate)\n",
        percentile(loss_ms, 0.5), percentile(loss_ms, 1.0), percentile(qcp_ms, 0.5), percentile(loss_cpu_ms, 0.5));
    // Four lines: raw and smoothed on each plot.
    std::printf("  loss + accuracy plots (4 x %lld points): median %.1f ms, max %.1f ms\n",
                static_cast<long long>(points), percentile(both_ms, 0.5), percentile(both_ms, 1.0));
    std::printf("  zoomed to 1%% of x: median %.1f ms\n", percentile(zoom_ms, 0.5));
    if (!shot.isEmpty()) {
        plot.resetView();
        plot.flush();
        plot.exportImage(shot, 1400, 900);
    }
}

// The same probe on an idle window: the machine's own scheduling noise, to
// compare the training numbers with.
void benchIdle(double seconds) {
    QTemporaryDir dir;
    MainWindowOptions o;
    o.home = dir.filePath(QStringLiteral("home"));
    o.settings_path = dir.filePath(QStringLiteral("settings.ini"));
    MainWindow w(o);
    w.resize(1400, 900);
    w.show();
    std::vector<double> gaps;
    QElapsedTimer since;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        if (since.isValid()) gaps.push_back(since.nsecsElapsed() / 1e6);
        since.restart();
    });
    probe.start();
    QEventLoop loop;
    QTimer::singleShot(int(seconds * 1000), &loop, &QEventLoop::quit);
    loop.exec();
    std::printf("idle window baseline (%.0f s): %zu ticks, median %.1f ms, p99 %.1f ms, max %.1f ms\n", seconds,
                gaps.size(), percentile(gaps, 0.5), percentile(gaps, 0.99), percentile(gaps, 1.0));
}

// Returns false when the run did not finish with a checkpoint a step, so that
// the smoke test fails on a window that no longer trains or saves.
bool benchStall(std::int64_t steps) {
    QTemporaryDir dir;
    MainWindowOptions o;
    o.home = dir.filePath(QStringLiteral("home"));
    o.settings_path = dir.filePath(QStringLiteral("settings.ini"));
    MainWindow w(o);
    w.resize(1400, 900);
    w.show();
    // Let the window be exposed and painted first: a user starts training in a
    // window that is already on screen, so its first paint is not the run's.
    {
        QEventLoop settle;
        QTimer::singleShot(300, &settle, &QEventLoop::quit);
        settle.exec();
    }
    savepoint::TrainConfig c = testsupport::syntheticMlp(1, steps, 32, 1);  // a checkpoint every step
    c.keep = 5;
    std::vector<double> gaps;
    QElapsedTimer since_tick, total;
    bool training = false;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    struct Gap {
        double ms, at, cpu_ms;
    };
    std::vector<Gap> worst;
    double cpu_at_tick = threadCpuMs();
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const double cpu = threadCpuMs();
        if (training) {
            const double g = since_tick.nsecsElapsed() / 1e6;
            gaps.push_back(g);
            worst.push_back({g, total.nsecsElapsed() / 1e9, cpu - cpu_at_tick});
        }
        cpu_at_tick = cpu;
        since_tick.restart();
    });
    QEventLoop loop;
    savepoint::ui::WorkerOutcome out;
    std::int64_t saves = 0;
    QObject::connect(w.worker(), &TrainerWorker::checkpointSaved, [&] { ++saves; });
    QObject::connect(w.worker(), &TrainerWorker::progress, [&](const savepoint::Progress& p) {
        if (!training && p.phase == savepoint::Phase::Training) {
            training = true;
            total.start();
            since_tick.restart();
        }
    });
    QObject::connect(w.worker(), &TrainerWorker::finished, [&](const WorkerOutcome& o2) {
        out = o2;
        loop.quit();
    });
    since_tick.start();
    probe.start();
    if (auto* app = dynamic_cast<TimedApp*>(QCoreApplication::instance())) app->recording = true;
    w.training()->startRun(QStringLiteral("stall"), c);
    QTimer::singleShot(600000, &loop, &QEventLoop::quit);
    loop.exec();
    probe.stop();
    if (auto* app = dynamic_cast<TimedApp*>(QCoreApplication::instance())) {
        app->recording = false;
        std::sort(app->slow.begin(), app->slow.end(), [](const auto& a, const auto& b) { return a.ms > b.ms; });
        std::printf("  slowest GUI-thread dispatches (receiver class/objectName/QEvent type, nesting depth):\n");
        for (std::size_t i = 0; i < app->slow.size() && i < 10; ++i)
            std::printf("    %.1f ms (cpu %.1f ms) %s depth %d\n", app->slow[i].ms, app->slow[i].cpu_ms,
                        qPrintable(app->slow[i].what), app->slow[i].depth);
    }
    const double secs = total.isValid() ? total.nsecsElapsed() / 1e9 : 0;
    std::printf("ui stall: %lld steps with --save-freq 1 (%lld checkpoints committed) in %.1f s, outcome %s%s\n",
                static_cast<long long>(steps), static_cast<long long>(saves), secs,
                savepoint::outcome_name(out.outcome), out.threw ? (" (threw: " + out.message + ")").c_str() : "");
    std::printf("  5 ms timer gaps while training: %zu ticks, median %.1f ms, p99 %.1f ms, max %.1f ms\n", gaps.size(),
                percentile(gaps, 0.5), percentile(gaps, 0.99), percentile(gaps, 1.0));
    std::sort(worst.begin(), worst.end(), [](const Gap& a, const Gap& b) { return a.ms > b.ms; });
    std::printf(
        "  longest gaps (GUI-thread CPU used during the gap; much less than the gap = the thread was not scheduled):\n "
        "  ");
    for (std::size_t i = 0; i < worst.size() && i < 5; ++i)
        std::printf(" %.0f ms at %.1f s (cpu %.0f ms);", worst[i].ms, worst[i].at, worst[i].cpu_ms);
    std::vector<double> busy;
    for (const Gap& g : worst) busy.push_back(g.cpu_ms);
    std::printf("\n  GUI-thread CPU per tick interval: median %.1f ms, max %.1f ms\n", percentile(busy, 0.5),
                percentile(busy, 1.0));
    return out.outcome == savepoint::Outcome::Finished && !out.threw && saves == steps;
}

void benchHistory(std::int64_t rows) {
    QTemporaryDir dir;
    const std::string home = dir.filePath(QStringLiteral("home")).toStdString();
    savepoint::Registry trainer(home);  // the other process
    const std::int64_t run = trainer.create_run("history", "{}", 1000, 100000, "cpu");
    const std::int64_t branch = trainer.run_by_id(run)->active_branch_id;
    std::int64_t gs = 0;
    auto save = [&] {
        savepoint::CheckpointRow c;
        c.run_id = run;
        c.branch_id = branch;
        c.epoch = 1;
        c.step = c.global_step = ++gs;
        c.path = "checkpoints/history/";
        const std::int64_t id = trainer.insert_writing_checkpoint(c);
        savepoint::CheckpointCommit commit;
        commit.bytes = 4891120;
        commit.sha256 = commit.params_sha256 = std::string(64, 'a');
        commit.write_ms = 6.0;
        commit.stall_ms = 0.1;
        if (gs > 5) commit.retire.push_back(id - 5);  // keep 5, as retention would
        trainer.commit_checkpoint(id, commit);
        if (gs > 5)
            trainer.set_checkpoint_state(id - 5, savepoint::CheckpointState::Deleted, "removed by retention (keep 5)");
    };
    {
        savepoint::Registry::RelaxedCommits fast_setup(trainer);
        while (gs < rows) save();
    }
    trainer.set_run_status(run, savepoint::RunStatus::Running);
    MainWindowOptions o;
    o.home = QString::fromStdString(home);
    o.settings_path = dir.filePath(QStringLiteral("settings.ini"));
    MainWindow w(o);
    w.resize(1400, 900);
    w.show();
    QElapsedTimer t;
    t.start();
    w.runData()->selectRun(run);
    const double select_ms = t.nsecsElapsed() / 1e6;
    QEventLoop loaded;
    QObject::connect(w.runData(), &RunDataView::runLoaded, &loaded, &QEventLoop::quit);
    QTimer::singleShot(60000, &loaded, &QEventLoop::quit);
    loaded.exec();
    std::vector<double> polls;
    for (int i = 0; i < 41; ++i) {
        save();
        t.restart();
        w.runData()->refreshSelected();
        polls.push_back(t.nsecsElapsed() / 1e6);
    }
    std::printf(
        "history of %lld checkpoint rows: selecting the run %.1f ms; one poll after each new checkpoint: "
        "median %.2f ms, max %.2f ms (41 polls); table shows %d rows\n",
        static_cast<long long>(rows), select_ms, percentile(polls, 0.5), percentile(polls, 1.0),
        w.checkpointModel()->rowCount());
}

}  // namespace

int main(int argc, char** argv) {
    TimedApp app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    registerEngineMetaTypes();
    std::int64_t points = 1000000, steps = 400, history = 0;
    double idle_seconds = 5;
    QString shot;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--points")) points = args[i + 1].toLongLong();
        if (args[i] == QLatin1String("--steps")) steps = args[i + 1].toLongLong();
        if (args[i] == QLatin1String("--history")) history = args[i + 1].toLongLong();
        if (args[i] == QLatin1String("--shot")) shot = args[i + 1];
        if (args[i] == QLatin1String("--idle")) idle_seconds = args[i + 1].toDouble();
    }
    if (history > 0) {
        benchHistory(history);
        return 0;
    }
    if (points > 0) benchReplot(points, shot);
    if (idle_seconds > 0) benchIdle(idle_seconds);
    if (steps > 0 && !benchStall(steps)) {
        std::fprintf(stderr, "bench_gui: the stall run did not finish with a checkpoint every step\n");
        return 1;
    }
    return 0;
}
