// PlotSeriesStore: segments never go backwards, abandoned work is kept apart,
// the bias-corrected EMA matches hand-computed values.
#include "plot/plot_series_store.h"

#include <QtTest>

using namespace savepoint::ui;
using savepoint::MetricRow;

namespace {
MetricRow step(std::int64_t session, std::int64_t branch, std::int64_t gs, double loss, double acc = 0.5) {
    MetricRow r;
    r.session_id = session;
    r.branch_id = branch;
    r.kind = savepoint::MetricKind::TrainingStep;
    r.global_step = gs;
    r.loss = loss;
    r.accuracy = acc;
    r.wall_time = 1000 + gs;
    return r;
}
std::vector<MetricRow> steps(std::int64_t session, std::int64_t branch, std::int64_t from, std::int64_t to) {
    std::vector<MetricRow> v;
    for (std::int64_t g = from; g <= to; ++g) v.push_back(step(session, branch, g, 1.0 / g));
    return v;
}
}  // namespace

class TestPlotSeriesStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void biasCorrectedEma();
    void resumeOnSameBranchAbandonsTail();
    void duplicatesFromOneSessionAreDropped();
    void rollbackBranchForksAndSeedsEma();
    void rangesAndKeys();
};

void TestPlotSeriesStore::biasCorrectedEma() {
    PlotSeriesStore s;
    s.setSmoothing(0.5);
    s.append({step(1, 1, 1, 1.0), step(1, 1, 2, 2.0), step(1, 1, 3, 4.0)});
    const PlotSegment& g = s.segments().at(0);
    // acc1 = 0.5, /(1-0.5)   = 1.0
    // acc2 = 1.25, /(1-0.25) = 1.666..
    // acc3 = 2.625, /(1-0.125) = 3.0
    QCOMPARE(g.loss_ema[0], 1.0);
    QVERIFY(qAbs(g.loss_ema[1] - 5.0 / 3.0) < 1e-12);
    QVERIFY(qAbs(g.loss_ema[2] - 3.0) < 1e-12);
    s.setSmoothing(0);  // no smoothing: the raw values
    QCOMPARE(s.segments().at(0).loss_ema[2], 4.0);
}

void TestPlotSeriesStore::resumeOnSameBranchAbandonsTail() {
    PlotSeriesStore s;
    s.append(steps(1, 1, 1, 10));  // crashed after 10
    s.append(steps(2, 1, 6, 12));  // resumed from the checkpoint at 5
    QCOMPARE(int(s.segments().size()), 2);
    const PlotSegment& live = s.segments()[s.liveSegment(1)];
    QVERIFY(!live.abandoned);
    QCOMPARE(live.gs.size(), 5 + 7);
    for (int i = 1; i < live.gs.size(); ++i) QVERIFY(live.gs[i] > live.gs[i - 1]);  // no zig-zag
    const PlotSegment& lost = s.segments()[1];
    QVERIFY(lost.abandoned);
    QCOMPARE(lost.gs.front(), 6.0);
    QCOMPARE(lost.gs.back(), 10.0);
    QCOMPARE(lost.parent, live.index);
    QCOMPARE(s.pointCount(), 17);
}

void TestPlotSeriesStore::duplicatesFromOneSessionAreDropped() {
    PlotSeriesStore s;
    s.append(steps(1, 1, 1, 10));
    s.append(steps(1, 1, 5, 12));  // the same rows read twice (registry + live)
    QCOMPARE(int(s.segments().size()), 1);
    QCOMPARE(s.segments()[0].gs.size(), 12);
}

void TestPlotSeriesStore::rollbackBranchForksAndSeedsEma() {
    PlotSeriesStore s;
    s.setSmoothing(0.5);
    s.setBranch({1, 0, 0});
    s.setBranch({2, 1, 4});  // branch 2 forks from branch 1 at step 4
    s.append(steps(1, 1, 1, 8));
    const double ema_at_4 = s.segments()[0].loss_ema[3];
    s.append({step(2, 2, 5, 0.3)});
    QCOMPARE(int(s.segments().size()), 3);
    const PlotSegment& b1 = s.segments()[s.liveSegment(1)];
    const PlotSegment& b2 = s.segments()[s.liveSegment(2)];
    QCOMPARE(b1.gs.back(), 4.0);
    QCOMPARE(b2.parent, b1.index);
    QCOMPARE(b2.fork_gs, 4.0);
    QVERIFY(s.segments()[1].abandoned);
    QCOMPARE(s.segments()[1].gs.front(), 5.0);
    QCOMPARE(s.segments()[1].gs.back(), 8.0);
    // EMA continues from the parent's state at step 4 (n = 4): acc = ema * (1 - 0.5^4).
    const double acc4 = ema_at_4 * (1 - 0.0625);
    const double expect = (0.5 * acc4 + 0.5 * 0.3) / (1 - 0.03125);
    QVERIFY(qAbs(b2.loss_ema[0] - expect) < 1e-12);
    // Recomputing (new smoothing) gives the same seed path.
    s.setSmoothing(0.5);
    QVERIFY(qAbs(s.segments()[s.liveSegment(2)].loss_ema[0] - expect) < 1e-12);
}

void TestPlotSeriesStore::rangesAndKeys() {
    PlotSeriesStore s;
    s.setStepsPerEpoch(4);
    s.setTimeOrigin(1000);
    s.append(steps(1, 1, 1, 8));
    QCOMPARE(s.lossRange().hi, 1.0);
    QCOMPARE(s.lossRange().lo, 1.0 / 8);
    QCOMPARE(s.keyRange(XMode::Epoch).hi, 2.0);
    QCOMPARE(s.keyRange(XMode::WallTime).lo, 1.0);
    QCOMPARE(s.nearestIndex(0, 1.5, XMode::Epoch), 5);  // 1.5 epochs = step 6
    QCOMPARE(s.globalStepAt(0.5, XMode::Epoch, 0), 2.0);
}

QTEST_GUILESS_MAIN(TestPlotSeriesStore)
#include "test_plot_series_store.moc"
