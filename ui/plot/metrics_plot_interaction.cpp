// MetricsPlot: what happens under the mouse (tooltip with exact values,
// context menu to resume from a point, clicking a checkpoint marker), the
// armed crash's marker, and export.
#include "plot/metrics_plot.h"

#include "data/data_order.h"

#include "plot/qcp.h"

#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QPdfWriter>
#include <QToolTip>

#include <cmath>

namespace savepoint::ui {

static QString fmt(double v, int prec = 4) {
    return std::isfinite(v) ? QLocale().toString(v, 'f', prec) : QStringLiteral("–");
}
static QString count(std::int64_t v) { return QLocale().toString(qlonglong(v)); }

QString MetricsPlot::tooltipAt(QCustomPlot* plot, const QPoint& pos, double* gs_out) const {
    const bool is_loss = plot == loss_;
    const double key = plot->xAxis->pixelToCoord(pos.x());
    int best_seg = -1, best_i = -1;
    double best_d = 1e300;
    const auto& segs = store_.segments();
    for (std::size_t si = 0; si < segs.size(); ++si) {
        const int i = store_.nearestIndex(int(si), key, mode_);
        if (i < 0) continue;
        const PlotSegment& s = segs[si];
        const double px = plot->xAxis->coordToPixel(store_.key(s.gs[i], s.wall[i], mode_));
        if (std::abs(px - pos.x()) > 30) continue;
        const double v = is_loss ? s.loss_ema[i] : s.acc_ema[i];
        const double raw = is_loss ? s.loss[i] : s.acc[i];
        const double py = std::min(std::abs(plot->yAxis->coordToPixel(v) - pos.y()),
                                   std::abs(plot->yAxis->coordToPixel(raw) - pos.y()));
        const double d = py + std::abs(px - pos.x()) + (s.abandoned ? 8 : 0);
        if (d < best_d) {
            best_d = d;
            best_seg = int(si);
            best_i = i;
        }
    }
    if (best_seg < 0) return {};
    const PlotSegment& s = segs[best_seg];
    const auto gs = static_cast<std::int64_t>(s.gs[best_i]);
    if (gs_out) *gs_out = double(gs);
    const savepoint::Position p = savepoint::position_of(gs, store_.stepsPerEpoch());
    const std::int64_t branch = store_.branchNumber(s.branch_id);
    QString t = s.abandoned ? tr("<b>Branch %1, abandoned</b> (lost work, recomputed later)").arg(branch)
                            : tr("<b>Branch %1</b>").arg(branch);
    t +=
        QStringLiteral("<br>") + tr("Global step %1 (epoch %2, step %3)").arg(count(gs), count(p.epoch), count(p.step));
    t += QStringLiteral("<br>") + tr("Loss %1 (smoothed %2)").arg(fmt(s.loss[best_i]), fmt(s.loss_ema[best_i]));
    t += QStringLiteral("<br>") + tr("Accuracy %1 (smoothed %2)").arg(fmt(s.acc[best_i], 3), fmt(s.acc_ema[best_i], 3));
    const double elapsed = s.wall[best_i] - store_.timeOrigin();
    t += QStringLiteral("<br>") +
         tr("Time since start %1").arg(QTime(0, 0).addSecs(int(elapsed)).toString(QStringLiteral("hh:mm:ss")));
    // A validation point at this step, if any.
    const int vi = int(std::lower_bound(s.vgs.begin(), s.vgs.end(), s.gs[best_i]) - s.vgs.begin());
    if (vi < s.vgs.size() && s.vgs[vi] == s.gs[best_i])
        t += QStringLiteral("<br>") + tr("Validation: loss %1, accuracy %2").arg(fmt(s.vloss[vi]), fmt(s.vacc[vi], 3));
    return t;
}

void MetricsPlot::onMouseMove(QCustomPlot* plot, QMouseEvent* ev) {
    if (ev->buttons() != Qt::NoButton) return;  // dragging
    const QString t = tooltipAt(plot, ev->pos(), nullptr);
    if (t.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(plot->mapToGlobal(ev->pos()), t, plot);
}

void MetricsPlot::onPlotClick(QCustomPlot* plot, QMouseEvent* ev) {
    if (ev->button() != Qt::LeftButton) return;
    QCPGraph* ck = plot == loss_ ? loss_ckpt_ : acc_ckpt_;
    QVariant details;
    if (ck->selectTest(ev->pos(), false, &details) >= 0 && ck->selectTest(ev->pos(), false, &details) < 8) {
        const QCPDataSelection sel = details.value<QCPDataSelection>();
        if (!sel.isEmpty()) {
            const int i = sel.dataRange().begin();
            if (i >= 0 && i < int(checkpoints_.size())) Q_EMIT checkpointClicked(checkpoints_[i].id);
        }
    }
}

void MetricsPlot::onContextMenu(QCustomPlot* plot, const QPoint& pos) {
    QMenu menu(this);
    double gs = -1;
    tooltipAt(plot, pos, &gs);
    if (gs < 0 && mode_ != XMode::WallTime)
        gs = std::round(store_.globalStepAt(plot->xAxis->pixelToCoord(pos.x()), mode_, -1));
    if (gs >= 0) {
        const auto g = static_cast<std::int64_t>(gs);
        const savepoint::Position p = savepoint::position_of(g, store_.stepsPerEpoch());
        QAction* a = menu.addAction(
            tr("Resume from here: epoch %1, step %2 (global step %3)").arg(count(p.epoch), count(p.step), count(g)));
        connect(a, &QAction::triggered, this, [this, g] { Q_EMIT resumeAtStepRequested(g); });
        menu.addSeparator();
    }
    menu.addAction(tr("Reset zoom"), this, &MetricsPlot::resetView);
    menu.exec(plot->mapToGlobal(pos));
}

void MetricsPlot::setArmedCrashStep(qint64 global_step) {
    armed_crash_ = global_step;
    loss_markers_->setArmedCrashStep(global_step);
    acc_markers_->setArmedCrashStep(global_step);
    markers_dirty_ = dirty_ = true;  // and the x range, which reaches out to it
}

bool MetricsPlot::exportImage(const QString& path, int width, int height) {
    flush();
    const int lh = height * 3 / 5, ah = height - lh;
    if (QFileInfo(path).suffix().compare(QLatin1String("pdf"), Qt::CaseInsensitive) == 0) {
        QPdfWriter pdf(path);
        pdf.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        pdf.setTitle(tr("Savepoint metrics"));
        QCPPainter painter(&pdf);
        if (!painter.isActive()) return false;
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setMode(QCPPainter::pmNonCosmetic);
        loss_->toPainter(&painter, width, lh);
        painter.translate(0, lh);
        acc_->toPainter(&painter, width, ah);
        return true;
    }
    QImage img(width, height, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    {
        QCPPainter painter(&img);
        painter.setRenderHint(QPainter::Antialiasing);
        loss_->toPainter(&painter, width, lh);
        painter.translate(0, lh);
        acc_->toPainter(&painter, width, ah);
    }
    return img.save(path);
}

}  // namespace savepoint::ui
