#include "window/flow_layout.h"

#include <QWidget>

#include <algorithm>

namespace savepoint::ui {

FlowLayout::FlowLayout(QWidget* parent, int hspacing, int vspacing)
    : QLayout(parent), hspacing_(hspacing), vspacing_(vspacing) {
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout() {
    while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }

QLayoutItem* FlowLayout::takeAt(int index) {
    return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

static bool isHint(const QLayoutItem* item) {
    return item->widget() && item->widget()->sizePolicy().horizontalPolicy() == QSizePolicy::Ignored;
}

QSize FlowLayout::minimumSize() const {
    QSize size;
    for (const QLayoutItem* item : items_)
        if (!isHint(item)) size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
    int width = 0, height = 0;
    for (const QLayoutItem* item : items_) {
        if (item->isEmpty() || isHint(item)) continue;
        width += item->sizeHint().width() + (width ? hspacing_ : 0);
        height = std::max(height, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    place(rect, true);
}

int FlowLayout::place(const QRect& rect, bool apply) const {
    const QRect r = rect.marginsRemoved(contentsMargins());
    int x = r.x(), y = r.y(), row_height = 0;
    // One row at a time, so the row's items can be centred on its height.
    QList<QPair<QLayoutItem*, QRect>> row;
    auto flush = [&] {
        if (apply)
            for (auto& [item, g] : row) item->setGeometry(g.translated(0, (row_height - g.height()) / 2));
        row.clear();
    };
    for (QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        if (isHint(item)) {  // the rest of this row, however little
            const int w = std::max(0, r.right() + 1 - x);
            row.append({item, QRect(x, y, w, item->sizeHint().height())});
            row_height = std::max(row_height, item->sizeHint().height());
            x += w;
            continue;
        }
        const QSize s = item->sizeHint().boundedTo(QSize(r.width(), QWIDGETSIZE_MAX)).expandedTo(item->minimumSize());
        if (x > r.x() && x + s.width() > r.right() + 1) {
            flush();
            x = r.x();
            y += row_height + vspacing_;
            row_height = 0;
        }
        row.append({item, QRect(QPoint(x, y), s)});
        x += s.width() + hspacing_;
        row_height = std::max(row_height, s.height());
    }
    flush();
    const QMargins m = contentsMargins();
    return y + row_height - r.y() + m.top() + m.bottom();
}

}  // namespace savepoint::ui
