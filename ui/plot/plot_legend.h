// The accuracy plot's legend as a row above its curves, never over them, and
// the plots' axes, grids and legend shown only once there is data to read.
#pragma once

class QCustomPlot;

namespace savepoint::ui {

// Moves the plot's legend out of the axis rect into a row of its own above it.
void placeLegendAbove(QCustomPlot* plot);

// As many legend entries a row as the plot's width holds (a narrow window wraps
// them onto more rows instead of cutting them). Call before each replot.
void fitLegendColumns(QCustomPlot* plot);

// An empty plot shows no tick labels, grid or legend (no meaningless 0-5 axis).
void showAxesOnlyWithData(QCustomPlot* plot, bool has_data);

}  // namespace savepoint::ui
