// Several runs' loss and accuracy curves overlaid, shown in place of the
// run's plot while two or more runs are selected: one colour per run, its
// branches in that colour's shades and dashes, its validation points as
// circles, and a legend naming each run by what differs ("lr 1e-3"). Each run
// keeps its own PlotSeriesStore (segments, smoothing, keys), so its lines
// read as they do on the run's own plot. setRuns() replaces everything (a new
// selection, or a compared run that trained on). GUI thread only.
#pragma once

#include "plot/plot_series_store.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QCPGraph;
class QCustomPlot;

namespace savepoint::ui {

// One run as the comparison draws it: its label, what keys its points, and its rows.
struct ComparedSeries {
    QString label;
    std::int64_t steps_per_epoch = 1;
    double time_origin = 0;  // the run's creation: wall-clock time counts from it
    std::vector<savepoint::BranchRow> branches;
    std::vector<savepoint::MetricRow> rows;
};

class ComparisonPlot : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonPlot(QWidget* parent = nullptr);
    ~ComparisonPlot() override;

    void setRuns(const std::vector<ComparedSeries>& runs);
    void clear() { setRuns({}); }
    void setXMode(XMode m);
    void setSmoothing(double w);
    void setLogLoss(bool on);

    // The colour of the i-th run, in the plot and beside its row of the comparison table.
    static QColor runColor(int i);

    // For tests and screenshots.
    QCustomPlot* lossPlot() const { return loss_; }
    QCustomPlot* accuracyPlot() const { return acc_; }
    int runCount() const { return int(stores_.size()); }

private:
    void rebuild();
    void addRunGraphs(int run);
    void fitToData();

    QCustomPlot* loss_ = nullptr;
    QCustomPlot* acc_ = nullptr;
    std::vector<std::unique_ptr<PlotSeriesStore>> stores_;
    QStringList labels_;
    XMode mode_ = XMode::GlobalStep;
    double smoothing_ = 0.8;
    bool log_loss_ = true;
};

}  // namespace savepoint::ui
