#include "window/table_columns.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace savepoint::ui {

TableColumns::TableColumns(QTableView* view, int flexible, QList<int> hide_first)
    : QObject(view), view_(view), viewport_(view->viewport()), flexible_(flexible), hide_first_(std::move(hide_first)) {
    QHeaderView* h = view_->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    if (flexible_ >= 0) h->setSectionResizeMode(flexible_, QHeaderView::Stretch);
    h->setStretchLastSection(false);  // a stretched last section keeps 100 px at least, past the edge
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    view_->viewport()->installEventFilter(this);
    QAbstractItemModel* m = view_->model();
    connect(m, &QAbstractItemModel::modelReset, this, &TableColumns::scheduleFit);
    connect(m, &QAbstractItemModel::layoutChanged, this, &TableColumns::scheduleFit);
    connect(m, &QAbstractItemModel::rowsInserted, this, &TableColumns::scheduleFit);
    connect(m, &QAbstractItemModel::dataChanged, this, &TableColumns::scheduleFit);
}

// What QHeaderView gives a section sized to its contents, also for a hidden one
// (sectionSizeHint says 0 then); the pointer to the protected member is the
// standard way to reach it without subclassing the view's header.
static int headerWidth(const QHeaderView* h, int section) {
    struct Access : QHeaderView {
        using QHeaderView::sectionSizeFromContents;
    };
    const auto contents = &Access::sectionSizeFromContents;
    return (h->*contents)(section).width();
}

void TableColumns::scheduleFit() {
    if (pending_) return;
    pending_ = true;
    QTimer::singleShot(0, this, &TableColumns::fit);
}

bool TableColumns::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && watched == viewport_) scheduleFit();
    return QObject::eventFilter(watched, event);
}

void TableColumns::fit() {
    pending_ = false;
    QHeaderView* h = view_->horizontalHeader();
    const int columns = h->count();
    if (columns == 0) return;
    // What each column needs: its header (text, margins, sort arrow) and its widest value;
    // the flexible one only its header and a few letters of a name.
    QList<int> need(columns);
    for (int c = 0; c < columns; ++c) {
        const int header = headerWidth(h, c);
        need[c] = c == flexible_ ? std::max(header, h->fontMetrics().averageCharWidth() * 10)
                                 : std::max(header, static_cast<const QAbstractItemView*>(view_)->sizeHintForColumn(c));
    }
    const int room = view_->viewport()->width();
    QList<bool> hidden(columns, false);
    auto total = [&] {
        int sum = 0;
        for (int c = 0; c < columns; ++c)
            if (!hidden[c]) sum += need[c];
        return sum;
    };
    for (int c : hide_first_) {
        if (total() <= room) break;
        hidden[c] = true;
    }
    for (int c = 0; c < columns; ++c)
        if (h->isSectionHidden(c) != hidden[c]) h->setSectionHidden(c, hidden[c]);
}

}  // namespace savepoint::ui
