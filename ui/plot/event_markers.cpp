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
    if (labels_)
        layout_connection_ = QObject::connect(plot_, &QCustomPlot::afterLayout, plot_, [this] { layoutLabels(); });
}

EventMarkers::~EventMarkers() { QObject::disconnect(layout_connection_); }

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
        case EventKind::Restart:
        case EventKind::Rollback:
        case EventKind::Stop:
        case EventKind::Error:
        case EventKind::Finish:
        case EventKind::Divergence:
        case EventKind::DeviceChanged:
        case EventKind::Throttled:
        case EventKind::LowDisk:
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
        case EventKind::Restart:
            return tr("worker lost → job restarted");
        case EventKind::Rollback:
            return tr("rollback");
        case EventKind::Stop:
            return tr("stop");
        case EventKind::Error:
            return tr("error");
        case EventKind::Finish:
            return tr("finish");
        case EventKind::Divergence:
            return tr("diverged (NaN)");
        case EventKind::DeviceChanged:
            return tr("another device: other bits from here");
        case EventKind::Throttled:
            return tr("GPU throttled");
        case EventKind::LowDisk:
            return tr("low disk");
        default:
            return QString::fromLatin1(to_string(k));
    }
}

QString EventMarkers::label(const MarkerEvent& e) {
    // The event's fields name the worker when the engine knows which.
    const bool named = e.lost_worker >= 0;
    // A job's rank 0 stopped because another worker died: not a crash of its own.
    if (e.kind == savepoint::EventKind::Interruption && named) return tr("worker %1 lost").arg(e.lost_worker);
    if (e.kind == savepoint::EventKind::Interruption && e.lost_worker == -1) return tr("worker lost");
    if (e.kind == savepoint::EventKind::Restart && e.checkpoint_id > 0) {
        if (named)
            return tr("worker %1 lost → job restarted from checkpoint #%2").arg(e.lost_worker).arg(e.checkpoint_id);
        return tr("worker lost → job restarted from checkpoint #%1").arg(e.checkpoint_id);
    }
    return label(e.kind);
}

QColor EventMarkers::color(savepoint::EventKind k) {
    using savepoint::EventKind;
    switch (k) {
        case EventKind::Interruption:
        case EventKind::Error:
        case EventKind::Divergence:
        case EventKind::Restart:  // a worker was lost: the job's crash and its resume in one line
            return QColor(0xc6, 0x28, 0x28);
        case EventKind::PreemptionNotice:
        case EventKind::Preemption:
            return QColor(0xe0, 0x7b, 0x00);
        case EventKind::Resume:
            return QColor(0x2e, 0x7d, 0x32);
        case EventKind::Rollback:
            return QColor(0x7b, 0x1f, 0xa2);
        case EventKind::DeviceChanged:
        case EventKind::Throttled:
        case EventKind::LowDisk:
            return QColor(0xb2, 0x6a, 0x00);
        default:
            return QColor(0x55, 0x55, 0x55);
    }
}

void EventMarkers::clearItems() {
    for (auto* it : items_) plot_->removeItem(it);
    items_.clear();
    labels_items_.clear();
    armed_line_ = nullptr;
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
    for (const auto& e : events_) {
        if (!drawn(e.kind)) continue;
        const double x = store.key(e.global_step, e.wall, mode);
        auto* line = new QCPItemStraightLine(plot_);
        line->setLayer(QStringLiteral("markers"));
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        // A divergence is drawn heavier: where the run went wrong, not an interruption from outside.
        QPen pen(color(e.kind), e.kind == savepoint::EventKind::Divergence ? 2.4 : 1.4,
                 e.kind == savepoint::EventKind::PreemptionNotice ? Qt::DashLine : Qt::SolidLine);
        line->setPen(pen);
        line->setSelectable(false);
        items_.push_back(line);
        ++markers_;
        if (labels_) addLabel(x, label(e), color(e.kind));
    }
    // The armed crash, ahead of the run (a step not reached has no time yet: not in wall-clock mode).
    if (armed_ > 0 && mode != XMode::WallTime) {
        const double x = store.key(double(armed_), 0, mode);
        auto* line = new QCPItemStraightLine(plot_);
        line->setLayer(QStringLiteral("markers"));
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setPen(QPen(color(savepoint::EventKind::Interruption), 1.4, Qt::DashLine));
        line->setSelectable(false);
        items_.push_back(line);
        armed_line_ = line;
        if (labels_) addLabel(x, tr("crash armed"), color(savepoint::EventKind::Interruption).lighter(130));
    }
    layoutLabels();
}

void EventMarkers::addLabel(double x, const QString& text, const QColor& c) {
    auto* label = new QCPItemText(plot_);
    label->setLayer(QStringLiteral("markers"));
    label->setClipToAxisRect(true);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAbsolute);
    label->setText(text);
    label->setColor(Qt::white);
    label->setBrush(c);
    label->setPadding(QMargins(4, 1, 4, 1));
    label->setSelectable(false);
    items_.push_back(label);
    labels_items_.push_back({label, x});
}

// Greedy rows in pixels, leftmost label first: a label goes in the first row
// where it clears the previous one; with no row left it is hidden (its line stays).
void EventMarkers::layoutLabels() {
    if (labels_items_.isEmpty()) return;
    const QRect area = plot_->xAxis->axisRect()->rect();
    struct Placed {
        int index;
        double left, width;
        bool flip;
    };
    QVector<Placed> order;
    for (int i = 0; i < labels_items_.size(); ++i) {
        const Label& l = labels_items_[i];
        const QFontMetrics fm(l.item->font());
        const double w = fm.horizontalAdvance(l.item->text()) + l.item->padding().left() + l.item->padding().right();
        const double px = plot_->xAxis->coordToPixel(l.x);
        // Near the right edge (where the newest event is) the label goes left of its line.
        const bool flip = px + w > area.right();
        order.push_back({i, flip ? px - w : px, w, flip});
    }
    std::stable_sort(order.begin(), order.end(), [](const Placed& a, const Placed& b) { return a.left < b.left; });
    const int height = QFontMetrics(labels_items_.front().item->font()).height() + 4;
    const int rows = std::clamp((area.height() / 2) / std::max(1, height), 1, 4);
    QVector<double> row_end(rows, -1e300);
    for (const Placed& p : order) {
        QCPItemText* item = labels_items_[p.index].item;
        int row = 0;
        while (row < rows && row_end[row] + 3 > p.left) ++row;
        item->setVisible(row < rows);
        if (row == rows) continue;
        row_end[row] = p.left + p.width;
        item->setPositionAlignment((p.flip ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        item->position->setCoords(labels_items_[p.index].x, area.top() + 3 + row * height);
    }
}

QVector<QRectF> EventMarkers::labelRects() const {
    QVector<QRectF> r;
    for (const Label& l : labels_items_)
        if (l.item->visible())
            r.push_back(QRectF(l.item->topLeft->pixelPosition(), l.item->bottomRight->pixelPosition()));
    return r;
}

}  // namespace savepoint::ui
