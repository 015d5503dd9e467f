#include "plot/metrics_plot.h"

#include "data/data_order.h"

#include "plot/plot_axes.h"
#include "plot/plot_legend.h"
#include "plot/qcp.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace savepoint::ui {
namespace {

QColor faded(QColor c, int alpha) {
    c.setAlpha(alpha);
    return c;
}

}  // namespace

MetricsPlot::MetricsPlot(QWidget* parent) : QWidget(parent) {
    loss_ = new QCustomPlot(this);
    acc_ = new QCustomPlot(this);
    loss_->setObjectName(QStringLiteral("lossPlot"));
    acc_->setObjectName(QStringLiteral("accuracyPlot"));
    setupMetricPlot(loss_, tr("Loss"));
    setupMetricPlot(acc_, tr("Accuracy"));
    stackPlots(this, loss_, acc_);

    loss_markers_ = std::make_unique<EventMarkers>(loss_, true);
    acc_markers_ = std::make_unique<EventMarkers>(acc_, false);

    for (QCustomPlot* p : {loss_, acc_}) {
        QCPGraph* g = p->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(QColor(0x26, 0x32, 0x38), 1.2),
                                           QBrush(QColor(0xff, 0xd5, 0x4f)), 8));
        g->setName(tr("checkpoint"));
        g->setLayer(QStringLiteral("markers"));
        g->setSelectable(QCP::stSingleData);
        (p == loss_ ? loss_ckpt_ : acc_ckpt_) = g;
        if (p == loss_) g->removeFromLegend();  // the legend is the accuracy plot's
        connect(p, &QCustomPlot::mouseMove, this, [this, p](QMouseEvent* e) { onMouseMove(p, e); });
        connect(p, &QCustomPlot::mousePress, this, [this](QMouseEvent*) { follow_ = false; });
        connect(p, &QCustomPlot::mouseWheel, this, [this](QWheelEvent*) { follow_ = false; });
        connect(p, &QCustomPlot::mouseRelease, this, [this, p](QMouseEvent* e) { onPlotClick(p, e); });
        connect(p, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { resetView(); });
        connect(p, &QWidget::customContextMenuRequested, this, [this, p](const QPoint& pos) { onContextMenu(p, pos); });
        connect(p, &QCustomPlot::beforeReplot, this, [this, p] { cutLinesFor(p); });
    }

    for (QCustomPlot* p : {loss_, acc_}) {
        // Legend entry for the shaded spans (an empty graph with the same brush).
        QCPGraph* lost = p->addGraph();
        lost->setPen(QPen(QColor(0xd3, 0x2f, 0x2f, 90)));
        lost->setBrush(QColor(0xd3, 0x2f, 0x2f, 60));
        lost->setName(tr("lost work (recomputed)"));
        lost->setSelectable(QCP::stNone);
        if (p == loss_) lost->removeFromLegend();
    }
    setLogLoss(true);
    applyAxisTickers();
    for (QCustomPlot* p : {loss_, acc_}) showAxesOnlyWithData(p, false);
    timer_.setObjectName(QStringLiteral("plotFlushTimer"));  // names show in profiles
    timer_.setInterval(33);
    connect(&timer_, &QTimer::timeout, this, &MetricsPlot::tick);
    timer_.start();
}

MetricsPlot::~MetricsPlot() = default;

QColor MetricsPlot::branchColor(std::int64_t branch) const {
    static const QColor palette[] = {QColor(0x15, 0x65, 0xc0), QColor(0xef, 0x6c, 0x00), QColor(0x2e, 0x7d, 0x32),
                                     QColor(0x6a, 0x1b, 0x9a), QColor(0x00, 0x83, 0x8f), QColor(0xad, 0x14, 0x57)};
    int ordinal = 0;
    for (const auto& s : store_.segments())  // branches in order of first appearance
        if (!s.abandoned) {
            if (s.branch_id == branch) break;
            ++ordinal;
        }
    return palette[ordinal % 6];
}

void MetricsPlot::clear() {
    for (auto& g : graphs_)
        for (QCPGraph* x : {g.loss_raw, g.loss_ema, g.loss_val, g.acc_raw, g.acc_ema, g.acc_val})
            x->parentPlot()->removeGraph(x);
    graphs_.clear();
    store_.clear();
    checkpoints_.clear();
    loss_markers_->setEvents({});
    acc_markers_->setEvents({});
    loss_ckpt_->data()->clear();
    acc_ckpt_->data()->clear();
    last_segment_count_ = 0;
    follow_ = true;
    markers_dirty_ = dirty_ = true;
}

void MetricsPlot::setRunInfo(std::int64_t spe, double t0) {
    store_.setStepsPerEpoch(spe);
    store_.setTimeOrigin(t0);
}

void MetricsPlot::setBranches(const std::vector<savepoint::BranchRow>& branches) {
    for (const auto& b : branches)
        store_.setBranch({b.id, b.parent_branch_id.value_or(0), b.fork_global_step, b.number, b.lr.value_or(NAN)});
}

void MetricsPlot::appendMetrics(const std::vector<savepoint::MetricRow>& rows) {
    if (rows.empty()) return;
    store_.append(rows);
    dirty_ = true;
}

static MarkerEvent toMarker(const savepoint::EventRow& e) {
    const QJsonObject fields = QJsonDocument::fromJson(QByteArray::fromStdString(e.fields)).object();
    return {e.id,
            e.session_id.value_or(0),
            e.kind,
            double(e.global_step),
            e.created_at,
            QString::fromStdString(e.message),
            e.checkpoint_id.value_or(0),
            fields.contains(QLatin1String("lost_worker")) ? fields.value(QLatin1String("lost_worker")).toInt() : -2};
}

void MetricsPlot::setEvents(const std::vector<savepoint::EventRow>& events) {
    std::vector<MarkerEvent> m;
    for (const auto& e : events)
        if (EventMarkers::drawn(e.kind)) m.push_back(toMarker(e));
    loss_markers_->setEvents(m);
    acc_markers_->setEvents(m);
    markers_dirty_ = true;
}

void MetricsPlot::addEvent(const savepoint::EventRow& e) {
    if (!EventMarkers::drawn(e.kind)) return;
    loss_markers_->addEvent(toMarker(e));
    acc_markers_->addEvent(toMarker(e));
    markers_dirty_ = true;
}

void MetricsPlot::setCheckpoints(const std::vector<savepoint::CheckpointRow>& rows) {
    checkpoints_.clear();
    for (const auto& c : rows)
        if (c.state != CheckpointState::Deleted && c.state != CheckpointState::Failed &&
            c.state != CheckpointState::Writing)
            checkpoints_.push_back(c);
    markers_dirty_ = true;
}

void MetricsPlot::setXMode(XMode m) {
    if (m == mode_) return;
    mode_ = m;
    applyAxisTickers();
    for (auto& g : graphs_) g.revision = -1;  // re-key everything
    follow_ = true;
    markers_dirty_ = dirty_ = true;
    flush();
}

void MetricsPlot::setSmoothing(double w) {
    store_.setSmoothing(w);
    dirty_ = true;
}

void MetricsPlot::setLogLoss(bool on) {
    log_loss_ = on;
    applyLossScale(loss_, on);
    dirty_ = true;
    if (follow_) updateRanges();
    loss_->replot(QCustomPlot::rpQueuedReplot);
}

void MetricsPlot::setShowRaw(bool on) {
    show_raw_ = on;
    for (auto& g : graphs_) {
        g.loss_raw->setVisible(on);
        g.acc_raw->setVisible(on);
    }
    dirty_ = true;
}

void MetricsPlot::resetView() {
    follow_ = true;
    dirty_ = true;
    updateRanges();
    loss_->replot(QCustomPlot::rpQueuedReplot);
    acc_->replot(QCustomPlot::rpQueuedReplot);
}

void MetricsPlot::applyAxisTickers() { applyXMode(loss_, acc_, mode_); }

void MetricsPlot::tick() {
    if (!dirty_ && !markers_dirty_) return;
    const bool has_data = store_.pointCount() > 0;
    if (has_data != axes_shown_) {
        axes_shown_ = has_data;
        for (QCustomPlot* p : {loss_, acc_}) showAxesOnlyWithData(p, has_data);
    }
    const bool replot_markers = markers_dirty_;
    syncGraphs();
    updateRanges();
    if (replot_markers || markers_dirty_) rebuildMarkers();
    dirty_ = markers_dirty_ = false;
    loss_->replot(QCustomPlot::rpQueuedReplot);
    acc_->replot(QCustomPlot::rpQueuedReplot);
}

void MetricsPlot::flush() {
    dirty_ = true;
    tick();
    loss_->replot(QCustomPlot::rpImmediateRefresh);
    acc_->replot(QCustomPlot::rpImmediateRefresh);
}

void MetricsPlot::syncGraphs() {
    const auto& segs = store_.segments();
    while (graphs_.size() < segs.size()) {
        SegmentGraphs g;
        for (QCustomPlot* p : {loss_, acc_}) {
            QCPGraph* raw = p->addGraph();
            QCPGraph* ema = p->addGraph();
            QCPGraph* val = p->addGraph();
            for (QCPGraph* x : {raw, ema, val}) x->setSelectable(QCP::stNone);
            (p == loss_ ? g.loss_raw : g.acc_raw) = raw;
            (p == loss_ ? g.loss_ema : g.acc_ema) = ema;
            (p == loss_ ? g.loss_val : g.acc_val) = val;
        }
        QCPGraph* lines[4] = {g.loss_raw, g.loss_ema, g.acc_raw, g.acc_ema};
        for (int k = 0; k < 4; ++k) {
            g.lines[k].graph = lines[k];
            g.lines[k].full.reset(new QCPGraphDataContainer);
        }
        graphs_.push_back(g);
    }
    if (last_segment_count_ != static_cast<int>(segs.size())) {
        for (std::size_t i = 0; i < segs.size(); ++i) styleSegment(static_cast<int>(i));
        last_segment_count_ = static_cast<int>(segs.size());
        markers_dirty_ = true;  // shading follows the abandoned segments
    }
    for (std::size_t i = 0; i < segs.size(); ++i) {
        const bool full = graphs_[i].revision != segs[i].revision;
        if (full || graphs_[i].plotted < segs[i].size() || graphs_[i].plotted_val < segs[i].vgs.size())
            pushSegment(static_cast<int>(i), full);
    }
}

void MetricsPlot::styleSegment(int i) {
    const PlotSegment& s = store_.segments()[i];
    SegmentGraphs& g = graphs_[i];
    g.abandoned = s.abandoned;
    const QColor c = branchColor(s.branch_id);
    const int raw_alpha = s.abandoned ? 30 : 60, ema_alpha = s.abandoned ? 110 : 255;
    for (QCPGraph* raw : {g.loss_raw, g.acc_raw}) {
        raw->setPen(QPen(faded(c, raw_alpha), 1));
        raw->setAntialiased(false);  // a dense faint zigzag: antialiasing costs most of the replot and shows nothing
        raw->setVisible(show_raw_);
        raw->removeFromLegend();
    }
    for (QCPGraph* ema : {g.loss_ema, g.acc_ema}) {
        // Abandoned: a wide pale band under the live line, so a branch that recomputed the
        // same values (training is deterministic) still shows both.
        ema->setPen(s.abandoned ? QPen(faded(c, 80), 7, Qt::SolidLine, Qt::RoundCap) : QPen(c, 2.2));
        const qlonglong number = store_.branchNumber(s.branch_id);
        QString name = s.abandoned ? tr("branch %1 (abandoned)").arg(number) : tr("branch %1").arg(number);
        // A branch trained at another rate than the run's (resume --lr) says which.
        if (const double lr = store_.branchLr(s.branch_id); !std::isnan(lr))
            name = tr("%1 · lr %2").arg(name, QLocale().toString(lr, 'g', 6));
        ema->setName(name);
    }
    for (QCPGraph* val : {g.loss_val, g.acc_val}) {
        val->setLineStyle(QCPGraph::lsNone);
        val->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(faded(c.darker(130), ema_alpha), 2),
                                             QBrush(faded(Qt::white, ema_alpha)), 9));
        val->setName(tr("validation (per epoch)"));
        val->removeFromLegend();
    }
    // Legend (the accuracy plot's): one entry per live line, one per branch for its
    // abandoned spans however many there are, one for validation, one for checkpoints.
    g.loss_ema->removeFromLegend();
    bool listed = false;
    for (int j = 0; j < i && s.abandoned; ++j)
        listed = listed || (store_.segments()[j].abandoned && store_.segments()[j].branch_id == s.branch_id);
    if (listed)
        g.acc_ema->removeFromLegend();
    else
        g.acc_ema->addToLegend();
    if (i == 0) g.acc_val->addToLegend();
}

void MetricsPlot::pushSegment(int i, bool full) {
    const PlotSegment& s = store_.segments()[i];
    SegmentGraphs& g = graphs_[i];
    const int from = full ? 0 : g.plotted;
    const int vfrom = full ? 0 : g.plotted_val;
    const int n = s.size() - from, vn = s.vgs.size() - vfrom;
    QVector<double> keys(n), vkeys(vn);
    for (int k = 0; k < n; ++k) keys[k] = store_.key(s.gs[from + k], s.wall[from + k], mode_);
    for (int k = 0; k < vn; ++k) vkeys[k] = store_.key(s.vgs[vfrom + k], s.vwall[vfrom + k], mode_);
    // The four lines of a segment, in the order of SegmentGraphs::lines.
    auto series = [](const PlotSegment& seg, int k) -> const QVector<double>& {
        return k == 0 ? seg.loss : k == 1 ? seg.loss_ema : k == 2 ? seg.acc : seg.acc_ema;
    };
    // Join a continuation to the point it forked from, so the line has no gap.
    const PlotSegment* joined = nullptr;
    int j = -1;
    if (from == 0 && s.parent >= 0 && (s.abandoned || mode_ != XMode::WallTime)) {
        joined = &store_.segments()[s.parent];
        j = int(std::upper_bound(joined->gs.begin(), joined->gs.end(), s.fork_gs) - joined->gs.begin()) - 1;
    }
    for (int k = 0; k < 4; ++k) {
        Line& line = g.lines[k];
        QVector<QCPGraphData> pts;
        pts.reserve(n + 1);
        if (j >= 0) pts.push_back({store_.key(joined->gs[j], joined->wall[j], mode_), series(*joined, k)[j]});
        for (int x = 0; x < n; ++x) pts.push_back({keys[x], series(s, k)[from + x]});
        // Points that do not extend the end (wall-clock time can step back) re-sort the
        // data, so the decimator's indices must be rebuilt.
        const bool resort =
            !full && !pts.isEmpty() && !line.full->isEmpty() && pts.front().key < (line.full->constEnd() - 1)->key;
        if (full)
            line.full->set(pts, true);
        else
            line.full->add(pts, true);
        if (full || resort) line.decimator.reset();
        line.decimator.extend(*line.full);
        line.size = -1;  // cut again at the next replot
    }
    if (full) {
        g.loss_val->setData(vkeys, s.vloss.mid(vfrom), true);
        g.acc_val->setData(vkeys, s.vacc.mid(vfrom), true);
    } else if (vn > 0) {
        g.loss_val->addData(vkeys, s.vloss.mid(vfrom), true);
        g.acc_val->addData(vkeys, s.vacc.mid(vfrom), true);
    }
    g.plotted = s.size();
    g.plotted_val = s.vgs.size();
    g.revision = s.revision;
}

void MetricsPlot::cutLinesFor(QCustomPlot* plot) {
    const QCPRange r = plot->xAxis->range();
    const int pixels = plot->axisRect()->width();
    const int first = plot == loss_ ? 0 : 2;
    for (auto& g : graphs_)
        for (int k = first; k < first + 2; ++k) {
            Line& line = g.lines[k];
            if (!line.graph->visible()) continue;
            if (line.size == line.full->size() && line.pixels == pixels && line.lo == r.lower && line.hi == r.upper)
                continue;
            line.decimator.decimate(*line.full, r.lower, r.upper, pixels, *line.graph->data());
            line.size = line.full->size();
            line.pixels = pixels;
            line.lo = r.lower;
            line.hi = r.upper;
        }
}

void MetricsPlot::updateRanges() {
    if (!follow_) return;
    DataRanges r{store_.keyRange(mode_), store_.lossRange(), store_.accRange(), store_.lossPositiveMin()};
    if (r.x.valid && armed_crash_ > 0 && mode_ != XMode::WallTime)
        r.x.hi = std::max(r.x.hi, store_.key(double(armed_crash_), 0, mode_));
    fitRanges(loss_, acc_, r, mode_, log_loss_);
}

void MetricsPlot::rebuildMarkers() {
    loss_markers_->rebuild(store_, mode_);
    acc_markers_->rebuild(store_, mode_);
    rebuildCheckpointMarkers();
}

void MetricsPlot::rebuildCheckpointMarkers() {
    std::vector<savepoint::CheckpointRow> sorted = checkpoints_;
    auto k = [this](const savepoint::CheckpointRow& c) {
        return store_.key(double(c.global_step), c.created_at, mode_);
    };
    std::stable_sort(sorted.begin(), sorted.end(), [&](const auto& a, const auto& b) { return k(a) < k(b); });
    QVector<double> keys, lv, av;
    std::vector<savepoint::CheckpointRow> kept;  // index i of the marker graphs is kept[i]
    for (const auto& c : sorted) {
        if (!std::isfinite(c.train_loss)) continue;
        keys << k(c);
        lv << c.train_loss;
        av << c.train_accuracy;
        kept.push_back(c);
    }
    checkpoints_ = std::move(kept);
    loss_ckpt_->setData(keys, lv, true);
    acc_ckpt_->setData(keys, av, true);
}

QCPGraph* MetricsPlot::smoothedLossGraph(int segment) const {
    return segment >= 0 && segment < int(graphs_.size()) ? graphs_[segment].loss_ema : nullptr;
}
QCPGraph* MetricsPlot::rawLossGraph(int segment) const {
    return segment >= 0 && segment < int(graphs_.size()) ? graphs_[segment].loss_raw : nullptr;
}

}  // namespace savepoint::ui
