#include "plot/plot_legend.h"

#include "plot/qcp.h"

#include <algorithm>

namespace savepoint::ui {

void placeLegendAbove(QCustomPlot* plot) {
    QCPLayoutGrid* grid = plot->plotLayout();
    grid->insertRow(0);
    grid->addElement(0, 0, plot->legend);  // takes it out of the axis rect's inset layout
    grid->setRowStretchFactor(0, 0.001);   // only the height its entries need
    grid->setRowSpacing(0);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setMargins(QMargins(4, 2, 4, 0));
    plot->legend->setColumnSpacing(12);
    plot->legend->setIconSize(22, 12);  // smaller than the default: more entries a row
    plot->legend->setRowSpacing(0);
}

void fitLegendColumns(QCustomPlot* plot) {
    QCPLegend* legend = plot->legend;
    QVector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i)) widths << item->minimumOuterSizeHint().width();
    if (widths.isEmpty()) return;
    const int room = plot->width() - legend->margins().left() - legend->margins().right();
    // The most entries a row whose columns (each as wide as its widest entry) fit.
    int columns = int(widths.size());
    for (; columns > 1; --columns) {
        int total = (columns - 1) * legend->columnSpacing();
        for (int c = 0; c < columns; ++c) {
            int widest = 0;
            for (int i = c; i < widths.size(); i += columns) widest = std::max(widest, widths[i]);
            total += widest;
        }
        if (total <= room) break;
    }
    if (columns != legend->wrap()) {
        legend->setWrap(columns);
        legend->setFillOrder(legend->fillOrder(), true);  // setWrap alone leaves the entries where they are
    }
}

void showAxesOnlyWithData(QCustomPlot* plot, bool has_data) {
    for (QCPAxis* axis : plot->axisRect()->axes()) {
        const bool labelled = axis == plot->xAxis || axis == plot->yAxis;
        axis->setTickLabels(has_data && labelled);
        axis->setTicks(has_data);
        axis->grid()->setVisible(has_data && labelled);
    }
    plot->legend->setVisible(has_data && plot->legend->itemCount() > 0);  // the loss plot's has none
}

}  // namespace savepoint::ui
