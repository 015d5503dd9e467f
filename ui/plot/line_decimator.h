// Min/max decimation for long line graphs.
//
// QCustomPlot's adaptive sampling visits every visible point on every replot,
// so a long run made each frame slower (docs/PERFORMANCE.md, line decimator). A LineDecimator keeps, next to the full
// data, a pyramid of per-bucket (min, max) indices built incrementally as points arrive (O(1) amortised per point), and
// hands QCustomPlot only 2-8 points per pixel column of the visible range. Every bucket is at most one pixel wide, so
// the drawn envelope is the one the full data would draw: no spike is lost. Pure data structure over a
// QCPGraphDataContainer; GUI thread only.
#pragma once

#include "plot/qcp.h"

#include <vector>

namespace savepoint::ui {

class LineDecimator {
public:
    // Forget the index (the full data was replaced or re-sorted).
    void reset();
    // Index the points appended to `full` since the last call.
    void extend(const QCPGraphDataContainer& full);
    int indexed() const { return indexed_; }

    // Fills `out` with the points of `full` to draw for keys [lo, hi] on a
    // `pixels`-wide axis: all of them when they fit, else each bucket's min and
    // max in key order (plus the raw points at the edges and one point beyond
    // each end, so the line reaches the border).
    void decimate(const QCPGraphDataContainer& full, double lo, double hi, int pixels,
                  QCPGraphDataContainer& out) const;

    static constexpr int kBase = 16;   // points per bucket at level 0
    static constexpr int kFanout = 4;  // buckets merged into one at the next level

private:
    struct MinMax {
        int lo, hi;  // indices into the full data
    };
    std::vector<std::vector<MinMax>> levels_;  // level l: buckets of kBase * kFanout^l points
    int indexed_ = 0;
};

}  // namespace savepoint::ui
