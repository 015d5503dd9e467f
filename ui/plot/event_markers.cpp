#include "plot/event_markers.h"

#include "plot/qcp.h"

#include <QCoreApplication>

#include <algorithm>

namespace savepoint::ui {

EventMarkers::EventMarkers(QCustomPlot* plot, bool with_labels) : plot_(plot), labels_(with_labels) {
    if (!plot_->layer(QStringLiteral("markers")))
        plot_->addLayer(QStringLiteral("markers"), plot_->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    if (!plot_->layer(QStringLiteral("shading")))
        plot_->addLayer(QStringLiteral("shading"), plot_->layer(QStringLiteral("grid")), QCustomPlot::limAbove);
}

void EventMarkers::setEvents(std::vector<MarkerEvent> events) { events_ = std::move(events); }
void EventMarkers::addEvent(const MarkerEvent& e) {
    // The same event can reach the plot twice: live from the trainer (no registry
    // id, and its own time stamp), then from a registry poll. A session has at
    // most one event of a kind at a step, so that is the key.
    for (const auto& have : events_) {
        if (e.id != 0 && have.id == e.id) return;
        if (have.session_id == e.session_id && have.kind == e.kind && have.global_step == e.global_step) return;
    }
    events_.push_back(e);
}

bool EventMarkers::drawn(savepoint::EventKind k) {
    using savepoint::EventKind;
    switch (k) {
        case EventKind::Interruption:
        case EventKind::PreemptionNotice:
        case EventKind::Preemption:
        case EventKind::Resume:
        case EventKind::Rollback:
        case EventKind::Stop:
        case EventKind::Error:
        case EventKind::Finish:
            return true;
        default:
            return false;
    }
}

QString EventMarkers::label(savepoint::EventKind k) {
    using savepoint::EventKind;
    switch (k) {
        case EventKind::Interruption:
            return tr("crash");
        case EventKind::PreemptionNotice:
            return tr("preemption notice");
        case EventKind::Preemption:
            return tr("preempted");
        case EventKind::Resume:
            return tr("resume");
        case EventKind::Rollback:
            return tr("rollback");
        case EventKind::Stop:
            return tr("stop");
        case EventKind::Error:
            return tr("error");
        case EventKind::Finish:
            return tr("finish");
        default:
            return QString::fromLatin1(to_string(k));
    }
}

QColor EventMarkers::color(savepoint::EventKind k) {
    using savepoint::EventKind;
    switch (k) {
        case EventKind::Interruption:
        case EventKind::Error:
            return QColor(0xc6, 0x28, 0x28);
        case EventKind::PreemptionNotice:
        case EventKind::Preemption:
            return QColor(0xe0, 0x7b, 0x00);
        case EventKind::Resume:
            return QColor(0x2e, 0x7d, 0x32);
        case EventKind::Rollback:
            return QColor(0x7b, 0x1f, 0xa2);
        default:
            return QColor(0x55, 0x55, 0x55);
    }
}

void EventMarkers::clearItems() {
    for (auto* it : items_) plot_->removeItem(it);
    items_.clear();
    shaded_ = markers_ = 0;
}

void EventMarkers::rebuild(const PlotSeriesStore& store, XMode mode) {
    clearItems();
    // Lost work: every abandoned segment's step range.
    for (const auto& s : store.segments()) {
        if (!s.abandoned || s.gs.isEmpty()) continue;
        auto* rect = new QCPItemRect(plot_);
        rect->setLayer(QStringLiteral("shading"));
        rect->setClipToAxisRect(true);
        rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        const double x0 = store.key(s.gs.front() - 0.5, s.wall.front(), mode);
        const double x1 = store.key(s.gs.back() + 0.5, s.wall.back(), mode);
        rect->topLeft->setCoords(x0, 0);
        rect->bottomRight->setCoords(x1, 1);
        rect->setPen(Qt::NoPen);
        rect->setBrush(QColor(0xd3, 0x2f, 0x2f, 34));
        rect->setSelectable(false);
        items_.push_back(rect);
        ++shaded_;
    }
    // Labels stack in rows so events a few steps apart stay readable.
    QVector<double> row_end(4, -1e300);
    const double px_per_key =
        plot_->xAxis->range().size() > 0 ? plot_->xAxis->axisRect()->width() / plot_->xAxis->range().size() : 1;
    for (const auto& e : events_) {
        if (!drawn(e.kind)) continue;
        const double x = store.key(e.global_step, e.wall, mode);
        auto* line = new QCPItemStraightLine(plot_);
        line->setLayer(QStringLiteral("markers"));
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        QPen pen(color(e.kind), 1.4, e.kind == savepoint::EventKind::PreemptionNotice ? Qt::DashLine : Qt::SolidLine);
        line->setPen(pen);
        line->setSelectable(false);
        items_.push_back(line);
        ++markers_;
        if (!labels_) continue;
        const QString text = label(e.kind);
        const double width_keys = (QFontMetrics(plot_->font()).horizontalAdvance(text) + 14) / px_per_key;
        // Near the right edge (where the newest event is) the label goes to the
        // left of its line instead of being cut off.
        const bool flip = x + width_keys > plot_->xAxis->range().upper;
        const double left = flip ? x - width_keys : x;
        int row = 0;
        while (row < row_end.size() - 1 && row_end[row] > left) ++row;
        row_end[row] = std::max(row_end[row], left + width_keys);
        auto* label = new QCPItemText(plot_);
        label->setLayer(QStringLiteral("markers"));
        label->setClipToAxisRect(true);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(x, 0.015 + 0.075 * row);
        label->setPositionAlignment((flip ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        label->setText(text);
        label->setColor(Qt::white);
        label->setBrush(color(e.kind));
        label->setPadding(QMargins(4, 1, 4, 1));
        label->setSelectable(false);
        items_.push_back(label);
    }
}

}  // namespace savepoint::ui
