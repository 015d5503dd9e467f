#include "window/dock_proportions.h"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QTimer>

#include <algorithm>

namespace savepoint::ui {

DockProportions::DockProportions(QMainWindow* window, QDockWidget* runs, QDockWidget* panel, QDockWidget* bottom)
    : QObject(window), window_(window), runs_(runs), panel_(panel), bottom_dock_(bottom) {
    window_->installEventFilter(this);
    for (QDockWidget* d : {runs_, panel_, bottom_dock_}) d->installEventFilter(this);
}

void DockProportions::setShares(const QList<double>& s) {
    if (s.size() != 3) return;
    left_ = std::clamp(s[0], 0.18, 0.6);
    runs_share_ = std::clamp(s[1], 0.15, 0.85);
    bottom_ = std::clamp(s[2], 0.12, 0.6);
}

void DockProportions::apply() {
    pending_ = false;
    const QSize size = window_->size();
    applied_ = size;
    const int column = runs_->height() + panel_->height();
    window_->resizeDocks({runs_}, {int(size.width() * left_)}, Qt::Horizontal);
    if (column > 0) {
        const int top = int(column * runs_share_);
        window_->resizeDocks({runs_, panel_}, {top, column - top}, Qt::Vertical);
    }
    window_->resizeDocks({bottom_dock_}, {int(size.height() * bottom_)}, Qt::Vertical);
}

void DockProportions::scheduleApply() {
    if (pending_) return;
    pending_ = true;
    // After the layout has taken the new size: resizeDocks works from the current one.
    QTimer::singleShot(0, this, &DockProportions::apply);
}

bool DockProportions::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && (event->type() == QEvent::Resize || event->type() == QEvent::Show)) {
        if (window_->size() != applied_) scheduleApply();
    } else if (event->type() == QEvent::Resize && watched != window_ && !pending_ && window_->size() == applied_ &&
               (QApplication::mouseButtons() & Qt::LeftButton)) {
        // The window kept its size and a button is held: the user drags a separator.
        const QSize w = window_->size();
        if (watched == runs_ || watched == panel_) {
            left_ = std::clamp(double(runs_->width()) / std::max(1, w.width()), 0.18, 0.6);
            const int column = runs_->height() + panel_->height();
            if (column > 0) runs_share_ = std::clamp(double(runs_->height()) / column, 0.15, 0.85);
        } else if (watched == bottom_dock_) {
            bottom_ = std::clamp(double(bottom_dock_->height()) / std::max(1, w.height()), 0.12, 0.6);
        }
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace savepoint::ui
