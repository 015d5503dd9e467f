// Includes QCustomPlot in targets built with QT_NO_KEYWORDS (needed next to
// LibTorch): its header still says `signals:`/`slots`, so map them for the
// length of the include only (and `foreach`).
#pragma once

#ifdef QT_NO_KEYWORDS
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef signals
#undef slots
#undef emit
#undef foreach
#else
#include <qcustomplot.h>
#endif
