// Loss and accuracy plots (QCustomPlot). Points arrive in batches through
// appendMetrics() and go into a PlotSeriesStore; one ~33 ms timer pushes what
// is new to the graphs with addData(..., alreadySorted) and asks for a queued
// replot, so many batches cost one redraw. Each segment (a branch, or an
// abandoned part of one) has its own graphs, so resumed runs never zig-zag.
// Axis ranges come from the store's running min/max, never rescaleAxes().
// GUI thread only.
#pragma once

#include "plot/event_markers.h"
#include "plot/line_decimator.h"
#include "plot/plot_series_store.h"

#include <QTimer>
#include <QWidget>

#include <memory>
#include <vector>

class QMouseEvent;

namespace savepoint::ui {

class MetricsPlot : public QWidget {
    Q_OBJECT
public:
    explicit MetricsPlot(QWidget* parent = nullptr);
    ~MetricsPlot() override;

    void clear();
    void setRunInfo(std::int64_t steps_per_epoch, double time_origin);
    void setBranches(const std::vector<savepoint::BranchRow>& branches);
    void appendMetrics(const std::vector<savepoint::MetricRow>& rows);
    void setEvents(const std::vector<savepoint::EventRow>& events);
    void addEvent(const savepoint::EventRow& e);
    void setCheckpoints(const std::vector<savepoint::CheckpointRow>& rows);

    void setXMode(XMode m);
    XMode xMode() const { return mode_; }
    void setSmoothing(double w);
    void setLogLoss(bool on);
    void setShowRaw(bool on);
    void resetView();  // back to following all data
    // Where an armed crash will happen (0: none): a dashed line ahead of the run.
    void setArmedCrashStep(qint64 global_step);

    // Pushes pending data and replots now (tests, export, benchmarks).
    void flush();
    const PlotSeriesStore& store() const { return store_; }
    QCustomPlot* lossPlot() const { return loss_; }
    QCustomPlot* accuracyPlot() const { return acc_; }
    const EventMarkers& lossMarkers() const { return *loss_markers_; }

    // Graph access for tests: the smoothed training graph of a segment.
    QCPGraph* smoothedLossGraph(int segment) const;
    QCPGraph* rawLossGraph(int segment) const;

    bool exportImage(const QString& path, int width = 1600, int height = 1100);  // .png or .pdf

Q_SIGNALS:
    void resumeAtStepRequested(qint64 global_step);
    void checkpointClicked(qint64 checkpoint_id);

private:
    // A line graph's full data and what of it the graph draws (LineDecimator).
    struct Line {
        QCPGraph* graph = nullptr;
        QSharedPointer<QCPGraphDataContainer> full;
        LineDecimator decimator;
        double lo = 0, hi = 0;  // key range the graph's data was cut for
        int pixels = -1, size = -1;
    };
    struct SegmentGraphs {
        QCPGraph *loss_raw = nullptr, *loss_ema = nullptr, *loss_val = nullptr;
        QCPGraph *acc_raw = nullptr, *acc_ema = nullptr, *acc_val = nullptr;
        Line lines[4];  // loss_raw, loss_ema, acc_raw, acc_ema
        int plotted = 0, plotted_val = 0, revision = -1;
        bool abandoned = false;
    };

    void tick();
    void syncGraphs();
    void styleSegment(int index);
    void pushSegment(int index, bool full);
    void updateRanges();
    void cutLinesFor(QCustomPlot* plot);  // before each replot: hand each line graph what is visible
    void rebuildMarkers();
    void rebuildCheckpointMarkers();
    void applyAxisTickers();
    void onMouseMove(QCustomPlot* plot, QMouseEvent* ev);
    void onContextMenu(QCustomPlot* plot, const QPoint& pos);
    void onPlotClick(QCustomPlot* plot, QMouseEvent* ev);
    QString tooltipAt(QCustomPlot* plot, const QPoint& pos, double* gs_out) const;
    QColor branchColor(std::int64_t branch) const;

    QCustomPlot* loss_ = nullptr;
    QCustomPlot* acc_ = nullptr;
    QCPGraph* loss_ckpt_ = nullptr;
    QCPGraph* acc_ckpt_ = nullptr;
    std::unique_ptr<EventMarkers> loss_markers_, acc_markers_;
    PlotSeriesStore store_;
    std::vector<SegmentGraphs> graphs_;
    std::vector<savepoint::CheckpointRow> checkpoints_;
    QTimer timer_;
    XMode mode_ = XMode::GlobalStep;
    bool dirty_ = false;
    bool markers_dirty_ = false;
    bool follow_ = true;
    bool axes_shown_ = false;  // tick labels, grids and legend: only once there are points
    bool log_loss_ = true;
    bool show_raw_ = true;
    int last_segment_count_ = 0;
    qint64 armed_crash_ = 0;
};

}  // namespace savepoint::ui
