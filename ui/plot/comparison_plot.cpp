#include "plot/comparison_plot.h"

#include "plot/plot_axes.h"
#include "plot/plot_legend.h"
#include "plot/qcp.h"

#include <algorithm>

namespace savepoint::ui {
namespace {

// A run's branches in its colour: the first solid, the next dashed and paler.
QPen branchPen(const QColor& run, int ordinal, bool abandoned) {
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    QColor c = ordinal == 0 ? run : run.lighter(100 + 25 * std::min(ordinal, 4)).toRgb();
    if (abandoned) c.setAlpha(70);
    return QPen(c, abandoned ? 1.2 : 2.2, styles[ordinal % 4]);
}

}  // namespace

ComparisonPlot::ComparisonPlot(QWidget* parent) : QWidget(parent) {
    loss_ = new QCustomPlot(this);
    acc_ = new QCustomPlot(this);
    loss_->setObjectName(QStringLiteral("comparisonLossPlot"));
    acc_->setObjectName(QStringLiteral("comparisonAccuracyPlot"));
    setupMetricPlot(loss_, tr("Loss"));
    setupMetricPlot(acc_, tr("Accuracy"));
    stackPlots(this, loss_, acc_);
    for (QCustomPlot* p : {loss_, acc_}) {
        connect(p, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { fitToData(); });
        showAxesOnlyWithData(p, false);
    }
    setLogLoss(true);
}

ComparisonPlot::~ComparisonPlot() = default;

QColor ComparisonPlot::runColor(int i) {
    // Not the run plot's branch colours in the same order: a comparison is not a run's branches.
    static const QColor palette[] = {QColor(0x15, 0x65, 0xc0), QColor(0xd8, 0x43, 0x15), QColor(0x2e, 0x7d, 0x32),
                                     QColor(0x6a, 0x1b, 0x9a), QColor(0x00, 0x83, 0x8f), QColor(0x82, 0x77, 0x17),
                                     QColor(0xad, 0x14, 0x57), QColor(0x37, 0x47, 0x4f)};
    return palette[i % 8];
}

void ComparisonPlot::setRuns(const std::vector<ComparedSeries>& runs) {
    stores_.clear();
    labels_.clear();
    for (const auto& r : runs) {
        auto store = std::make_unique<PlotSeriesStore>();
        store->setStepsPerEpoch(r.steps_per_epoch);
        store->setTimeOrigin(r.time_origin);
        store->setSmoothing(smoothing_);
        for (const auto& b : r.branches)
            store->setBranch({b.id, b.parent_branch_id.value_or(0), b.fork_global_step, b.number});
        store->append(r.rows);
        stores_.push_back(std::move(store));
        labels_ << r.label;
    }
    rebuild();
}

void ComparisonPlot::setXMode(XMode m) {
    mode_ = m;
    applyXMode(loss_, acc_, m);
    rebuild();
}

void ComparisonPlot::setSmoothing(double w) {
    smoothing_ = w;
    for (auto& s : stores_) s->setSmoothing(w);
    rebuild();
}

void ComparisonPlot::setLogLoss(bool on) {
    log_loss_ = on;
    applyLossScale(loss_, on);
    fitToData();
}

void ComparisonPlot::rebuild() {
    loss_->clearGraphs();
    acc_->clearGraphs();
    for (int i = 0; i < int(stores_.size()); ++i) addRunGraphs(i);
    if (!stores_.empty()) {
        // One legend entry says what the circles are, in no run's colour.
        QCPGraph* val = acc_->addGraph();
        val->setLineStyle(QCPGraph::lsNone);
        val->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0x60, 0x60, 0x60), 2), QBrush(Qt::white), 9));
        val->setName(tr("validation (per epoch)"));
    }
    bool has_data = false;
    for (const auto& s : stores_) has_data = has_data || s->pointCount() > 0;
    for (QCustomPlot* p : {loss_, acc_}) showAxesOnlyWithData(p, has_data);
    fitToData();
}

void ComparisonPlot::addRunGraphs(int run) {
    const PlotSeriesStore& store = *stores_[run];
    const QColor colour = runColor(run);
    std::vector<std::int64_t> branch_order;  // live branches in order of first appearance
    for (const PlotSegment& s : store.segments()) {
        if (!s.abandoned && std::find(branch_order.begin(), branch_order.end(), s.branch_id) == branch_order.end())
            branch_order.push_back(s.branch_id);
    }
    for (const PlotSegment& s : store.segments()) {
        const int ordinal =
            int(std::find(branch_order.begin(), branch_order.end(), s.branch_id) - branch_order.begin());
        QVector<double> keys, loss_ema, acc_ema, vkeys(s.vgs.size());
        // A continuation starts at the point it forked from, as on the run's plot: no gap.
        if (s.parent >= 0 && (s.abandoned || mode_ != XMode::WallTime)) {
            const PlotSegment& from = store.segments()[std::size_t(s.parent)];
            const int j = int(std::upper_bound(from.gs.begin(), from.gs.end(), s.fork_gs) - from.gs.begin()) - 1;
            if (j >= 0) {
                keys << store.key(from.gs[j], from.wall[j], mode_);
                loss_ema << from.loss_ema[j];
                acc_ema << from.acc_ema[j];
            }
        }
        for (int k = 0; k < s.size(); ++k) keys << store.key(s.gs[k], s.wall[k], mode_);
        loss_ema << s.loss_ema;
        acc_ema << s.acc_ema;
        for (int k = 0; k < s.vgs.size(); ++k) vkeys[k] = store.key(s.vgs[k], s.vwall[k], mode_);
        for (QCustomPlot* p : {loss_, acc_}) {
            const bool loss = p == loss_;
            QCPGraph* line = p->addGraph();
            line->setPen(branchPen(colour, ordinal, s.abandoned));
            line->setData(keys, loss ? loss_ema : acc_ema, true);
            line->setSelectable(QCP::stNone);
            if (loss || s.abandoned || store.liveSegment(s.branch_id) != s.index) {
                line->removeFromLegend();
            } else {
                line->setName(ordinal == 0
                                  ? labels_[run]
                                  : tr("%1, branch %2").arg(labels_[run]).arg(store.branchNumber(s.branch_id)));
            }
            QCPGraph* val = p->addGraph();
            val->setLineStyle(QCPGraph::lsNone);
            val->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colour.darker(120), 2),
                                                 QBrush(s.abandoned ? QColor(Qt::transparent) : QColor(Qt::white)), 8));
            val->setData(vkeys, loss ? s.vloss : s.vacc, true);
            val->setSelectable(QCP::stNone);
            val->removeFromLegend();
        }
    }
}

void ComparisonPlot::fitToData() {
    DataRanges r;
    for (const auto& s : stores_) {
        for (const auto& [into, from] : {std::pair{&r.x, s->keyRange(mode_)}, std::pair{&r.loss, s->lossRange()},
                                         std::pair{&r.acc, s->accRange()}})
            if (from.valid) into->add(from.lo), into->add(from.hi);
        if (s->lossPositiveMin() > 0 && (r.loss_positive_min == 0 || s->lossPositiveMin() < r.loss_positive_min))
            r.loss_positive_min = s->lossPositiveMin();
    }
    fitRanges(loss_, acc_, r, mode_, log_loss_);
    loss_->replot(QCustomPlot::rpQueuedReplot);
    acc_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace savepoint::ui
