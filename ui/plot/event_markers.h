// Vertical event lines (crash, preemption, resume, rollback, stop, finish)
// with short labels, and shaded spans over steps that were lost and had to be
// recomputed. Owns its QCustomPlot items and rebuilds them when the x mode or
// the data changes. GUI thread only.
#pragma once

#include "plot/plot_series_store.h"
#include "registry/row_states.h"

#include <QCoreApplication>
#include <QString>
#include <QVector>

#include <vector>

class QCustomPlot;
class QCPAbstractItem;

namespace savepoint::ui {

struct MarkerEvent {
    std::int64_t id = 0;  // registry event id (0: a live event, not read from the registry)
    std::int64_t session_id = 0;
    savepoint::EventKind kind = savepoint::EventKind::Start;
    double global_step = 0;
    double wall = 0;
    QString message;
};

class EventMarkers {
    Q_DECLARE_TR_FUNCTIONS(savepoint::ui::EventMarkers)

public:
    EventMarkers(QCustomPlot* plot, bool with_labels);
    void setEvents(std::vector<MarkerEvent> events);
    void addEvent(const MarkerEvent& e);
    const std::vector<MarkerEvent>& events() const { return events_; }
    // Recreates all items for the current data and x mode.
    void rebuild(const PlotSeriesStore& store, XMode mode);
    int shadedSpans() const { return shaded_; }
    int markerCount() const { return markers_; }

    // Which kinds get a line (a crash, a preemption, a resume, a rollback, a stop,
    // an error, the finish), and its label and colour.
    static bool drawn(savepoint::EventKind kind);
    static QString label(savepoint::EventKind kind);
    static QColor color(savepoint::EventKind kind);

private:
    void clearItems();

    QCustomPlot* plot_;
    bool labels_;
    std::vector<MarkerEvent> events_;
    QVector<QCPAbstractItem*> items_;
    int shaded_ = 0;
    int markers_ = 0;
};

}  // namespace savepoint::ui
