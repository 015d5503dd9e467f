// What the run's plot and the comparison's share about their two plots (loss
// above, accuracy below, one x axis between them): the look and the mouse of
// each, their layout and legend, the x axes kept in step, the x axis for a
// mode, the loss axis's scale, and ranges that show all the data. GUI thread only.
#pragma once

#include "plot/plot_series_store.h"

class QCustomPlot;
class QString;
class QWidget;

namespace savepoint::ui {

void setupMetricPlot(QCustomPlot* plot, const QString& ylabel);

// Lays the two plots out in `owner`, loss above accuracy (3:2), with one legend, the
// accuracy plot's, in a row above its curves; their x axes in step and their plot
// areas starting at the same pixel.
void stackPlots(QWidget* owner, QCustomPlot* loss, QCustomPlot* acc);

// The x axes' tickers for the mode, and its name under the accuracy plot.
void applyXMode(QCustomPlot* loss, QCustomPlot* acc, XMode mode);

// Logarithmic (with a log ticker) or linear.
void applyLossScale(QCustomPlot* loss, bool log);

// What the data spans, for ranges that show all of it.
struct DataRanges {
    Range x, loss, acc;
    double loss_positive_min = 0;  // 0: no positive loss
};
void fitRanges(QCustomPlot* loss, QCustomPlot* acc, const DataRanges& r, XMode mode, bool log_loss);

}  // namespace savepoint::ui
