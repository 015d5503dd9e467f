// Writes every stored metric point (no sampling) as CSV, with the smoothed
// values next to the raw ones and which segment (live or abandoned) each
// point belongs to. Returns an empty string on success, else the error.
#pragma once

#include "plot/plot_series_store.h"

#include <QString>

namespace savepoint::ui {

QString exportMetricsCsv(const PlotSeriesStore& store, const QString& path);

}  // namespace savepoint::ui
