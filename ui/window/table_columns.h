// Column sizing of the window's tables: every shown column as wide as its header
// and values (a header is never cut), one flexible column (a run's name) that
// takes the room left and is shortened in the middle, and, when the view is too
// narrow for all, the least needed columns hidden first instead of a scrolled
// table that cuts the last ones. GUI thread only.
#pragma once

#include <QList>
#include <QObject>

class QTableView;

namespace savepoint::ui {

class TableColumns : public QObject {
    Q_OBJECT
public:
    // flexible: the column that stretches (-1: none); hide_first: the
    // columns to hide, in order, while the shown ones do not fit.
    TableColumns(QTableView* view, int flexible, QList<int> hide_first);

    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void scheduleFit();

    QTableView* view_;
    // Kept apart from view_: the filter also sees the viewport's events while the
    // view is being destroyed, when calling view_->viewport() is undefined.
    QObject* viewport_;
    int flexible_;
    QList<int> hide_first_;
    bool pending_ = false;
};

}  // namespace savepoint::ui
