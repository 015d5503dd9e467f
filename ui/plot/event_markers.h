// Vertical event lines (crash, preemption, resume, a data-parallel job's restart
// after a lost worker, rollback, stop, finish, divergence)
// with short labels, a dashed line where an armed crash will happen, and
// shaded spans over steps that were lost and had to be recomputed. Owns its
// QCustomPlot items and rebuilds them when the x mode or the data changes; the
// labels are laid out in pixels at every replot, so they never overlap at any
// zoom. GUI thread only.
#pragma once

#include "plot/plot_series_store.h"
#include "registry/row_states.h"

#include <QCoreApplication>
#include <QRectF>
#include <QString>
#include <QVector>

#include <vector>

class QCustomPlot;
class QCPAbstractItem;
class QCPItemText;

namespace savepoint::ui {

struct MarkerEvent {
    std::int64_t id = 0;  // registry event id (0: a live event, not read from the registry)
    std::int64_t session_id = 0;
    savepoint::EventKind kind = savepoint::EventKind::Start;
    double global_step = 0;
    double wall = 0;
    QString message;
    std::int64_t checkpoint_id = 0;  // the checkpoint a resume or restart loaded (0: none)
    int lost_worker = -2;            // a job's lost rank from the event's fields (-1: one not known; -2: none lost)
};

class EventMarkers {
    Q_DECLARE_TR_FUNCTIONS(savepoint::ui::EventMarkers)

public:
    EventMarkers(QCustomPlot* plot, bool with_labels);
    ~EventMarkers();
    EventMarkers(const EventMarkers&) = delete;
    EventMarkers& operator=(const EventMarkers&) = delete;
    void setEvents(std::vector<MarkerEvent> events);
    void addEvent(const MarkerEvent& e);
    const std::vector<MarkerEvent>& events() const { return events_; }
    // Recreates all items for the current data and x mode.
    void rebuild(const PlotSeriesStore& store, XMode mode);
    int shadedSpans() const { return shaded_; }
    int markerCount() const { return markers_; }
    // The global step after which an armed crash happens (0: none); drawn ahead of the run.
    void setArmedCrashStep(std::int64_t global_step) { armed_ = global_step; }
    bool armedMarkerShown() const { return armed_line_ != nullptr; }
    // The labels drawn, in pixels (a label with no room left is hidden, never drawn over another).
    QVector<QRectF> labelRects() const;

    // Which kinds get a line (a crash, a preemption, a resume, a rollback, a stop,
    // an error, the finish, a divergence), and its label and colour.
    static bool drawn(savepoint::EventKind kind);
    static QString label(savepoint::EventKind kind);
    // The label drawn for one event: a restart names the checkpoint the job went back to.
    static QString label(const MarkerEvent& e);
    static QColor color(savepoint::EventKind kind);

private:
    void clearItems();
    void addLabel(double x, const QString& text, const QColor& color);
    void layoutLabels();  // rows in pixels, at every replot

    QCustomPlot* plot_;
    bool labels_;
    std::vector<MarkerEvent> events_;
    QVector<QCPAbstractItem*> items_;
    struct Label {
        QCPItemText* item;
        double x;  // plot key of its line
    };
    QVector<Label> labels_items_;
    QCPAbstractItem* armed_line_ = nullptr;
    std::int64_t armed_ = 0;
    QMetaObject::Connection layout_connection_;
    int shaded_ = 0;
    int markers_ = 0;
};

}  // namespace savepoint::ui
