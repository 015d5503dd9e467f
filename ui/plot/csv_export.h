// Writes every stored metric point (no sampling) as CSV, with the smoothed
// values next to the raw ones and which segment (live or abandoned) each
// point belongs to. Returns an empty string on success, else the error.
// Locale-independent: wall_time is seconds since 1970-01-01 UTC with three
// decimals (milliseconds); loss and accuracy are written with the
// shortest digits that read back as the same double (full precision).
#pragma once

#include "plot/plot_series_store.h"

#include <QString>

namespace savepoint::ui {

QString exportMetricsCsv(const PlotSeriesStore& store, const QString& path);

}  // namespace savepoint::ui
