#include "plot/plot_axes.h"

#include "plot/plot_legend.h"
#include "plot/qcp.h"

#include <QCoreApplication>
#include <QVBoxLayout>

#include <algorithm>

namespace savepoint::ui {

void setupMetricPlot(QCustomPlot* p, const QString& ylabel) {
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->setNoAntialiasingOnDrag(true);
    p->setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
    p->yAxis->setLabel(ylabel);
    p->xAxis->grid()->setSubGridVisible(false);
    p->yAxis->grid()->setSubGridVisible(true);
    p->axisRect()->setupFullAxesBox(false);
    p->setContextMenuPolicy(Qt::CustomContextMenu);
    p->setMinimumHeight(140);
}

void stackPlots(QWidget* owner, QCustomPlot* loss, QCustomPlot* acc) {
    auto* lay = new QVBoxLayout(owner);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(2);
    lay->addWidget(loss, 3);
    lay->addWidget(acc, 2);
    // The legend is the accuracy plot's, in a row above its curves: inside the axis
    // rect it covered the curve in a small window; the loss plot's top edge is
    // where the event labels go.
    loss->legend->setVisible(false);
    acc->legend->setVisible(true);
    QFont lf = owner->font();
    lf.setPointSizeF(lf.pointSizeF() * 0.85);
    acc->legend->setFont(lf);
    placeLegendAbove(acc);
    QObject::connect(acc, &QCustomPlot::beforeReplot, owner, [acc] { fitLegendColumns(acc); });
    // The two plots share their x axis: their plot areas must start at the same
    // pixel, whatever width each one's y tick labels need.
    for (QCustomPlot* p : {loss, acc})
        QObject::connect(p, &QCustomPlot::afterLayout, owner, [loss, acc] {
            const int left = std::max(loss->axisRect()->margins().left(), acc->axisRect()->margins().left());
            for (QCustomPlot* q : {loss, acc})
                if (q->axisRect()->minimumMargins().left() < left) {
                    q->axisRect()->setMinimumMargins(QMargins(left, 0, 0, 0));
                    q->replot(QCustomPlot::rpQueuedReplot);
                }
        });
    // Panning or zooming one plot's x axis moves the other's.
    for (auto [from, to] : {std::pair{loss, acc}, std::pair{acc, loss}})
        QObject::connect(from->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), to->xAxis,
                         [to](const QCPRange& r) {
                             to->xAxis->setRange(r);
                             to->replot(QCustomPlot::rpQueuedReplot);
                         });
}

void applyXMode(QCustomPlot* loss, QCustomPlot* acc, XMode mode) {
    for (QCustomPlot* p : {loss, acc}) {
        if (mode == XMode::WallTime) {
            auto t = QSharedPointer<QCPAxisTickerTime>(new QCPAxisTickerTime);
            t->setTimeFormat(QStringLiteral("%h:%m:%s"));
            p->xAxis->setTicker(t);
        } else {
            p->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        }
    }
    // The run's plot's words (translations/: savepoint::ui::MetricsPlot), for both plots.
    const char* context = "savepoint::ui::MetricsPlot";
    acc->xAxis->setLabel(mode == XMode::GlobalStep ? QCoreApplication::translate(context, "Global step")
                         : mode == XMode::Epoch
                             ? QCoreApplication::translate(context, "Epoch")
                             : QCoreApplication::translate(context, "Wall-clock time since the run started (h:m:s)"));
}

void applyLossScale(QCustomPlot* loss, bool log) {
    loss->yAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log)
        loss->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else
        loss->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
}

void fitRanges(QCustomPlot* loss, QCustomPlot* acc, const DataRanges& r, XMode mode, bool log_loss) {
    if (!r.x.valid) return;
    const double pad = std::max((r.x.hi - r.x.lo) * 0.02, mode == XMode::Epoch ? 0.05 : 1.0);
    loss->xAxis->setRange(r.x.lo - pad, r.x.hi + pad);
    acc->xAxis->setRange(r.x.lo - pad, r.x.hi + pad);
    const Range& l = r.loss;
    if (l.valid) {
        if (log_loss && r.loss_positive_min > 0)
            loss->yAxis->setRange(r.loss_positive_min / 1.4, std::max(l.hi, r.loss_positive_min) * 1.6);
        else
            loss->yAxis->setRange(std::min(0.0, l.lo), l.hi + (l.hi - l.lo) * 0.25 + 1e-9);
    }
    const Range& a = r.acc;
    if (a.valid)
        acc->yAxis->setRange(std::max(0.0, a.lo - 0.05), std::min(1.06, a.hi + 0.06));  // room for a marker at 1.0
}

}  // namespace savepoint::ui
