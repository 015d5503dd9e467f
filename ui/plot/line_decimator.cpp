#include "plot/line_decimator.h"

#include <algorithm>
#include <cmath>

namespace savepoint::ui {
namespace {

// NaN never wins, so a gap in the data does not hide the extremes around it.
bool lower(double candidate, double current) {
    return std::isnan(current) ? !std::isnan(candidate) : candidate < current;
}
bool higher(double candidate, double current) {
    return std::isnan(current) ? !std::isnan(candidate) : candidate > current;
}

}  // namespace

void LineDecimator::reset() {
    levels_.clear();
    indexed_ = 0;
}

void LineDecimator::extend(const QCPGraphDataContainer& full) {
    const auto data = full.constBegin();
    const int n = full.size();
    if (levels_.empty()) levels_.emplace_back();
    auto value = [&](int i) { return (data + i)->value; };
    // Level 0 from the points.
    for (int b = int(levels_[0].size()); (b + 1) * kBase <= n; ++b) {
        MinMax m{b * kBase, b * kBase};
        for (int i = b * kBase + 1; i < (b + 1) * kBase; ++i) {
            if (lower(value(i), value(m.lo))) m.lo = i;
            if (higher(value(i), value(m.hi))) m.hi = i;
        }
        levels_[0].push_back(m);
    }
    // Each higher level from the one below it.
    for (std::size_t l = 1; levels_[l - 1].size() >= std::size_t(kFanout); ++l) {
        if (levels_.size() == l) levels_.emplace_back();
        const auto& below = levels_[l - 1];
        auto& level = levels_[l];
        for (std::size_t b = level.size(); (b + 1) * kFanout <= below.size(); ++b) {
            MinMax m = below[b * kFanout];
            for (std::size_t k = 1; k < std::size_t(kFanout); ++k) {
                const MinMax& c = below[b * kFanout + k];
                if (lower(value(c.lo), value(m.lo))) m.lo = c.lo;
                if (higher(value(c.hi), value(m.hi))) m.hi = c.hi;
            }
            level.push_back(m);
        }
    }
    indexed_ = n;
}

void LineDecimator::decimate(const QCPGraphDataContainer& full, double lo, double hi, int pixels,
                             QCPGraphDataContainer& out) const {
    const auto data = full.constBegin();
    const int i0 = int(full.findBegin(lo, true) - data);
    const int i1 = int(full.findEnd(hi, true) - data);  // exclusive
    const int count = i1 - i0;
    // The coarsest level that still has at least one bucket per pixel column.
    int level = -1;
    long long bucket = kBase;
    for (std::size_t l = 0; l < levels_.size() && pixels > 0 && count / bucket >= pixels; ++l, bucket *= kFanout)
        level = int(l);
    QVector<QCPGraphData> pts;
    if (level < 0) {
        pts.reserve(count);
        for (int i = i0; i < i1; ++i) pts.push_back(*(data + i));
        out.set(pts, true);
        return;
    }
    bucket = kBase;
    for (int l = 0; l < level; ++l) bucket *= kFanout;
    const auto& buckets = levels_[std::size_t(level)];
    const int b0 = int((i0 + bucket - 1) / bucket);
    const int b1 = int(std::min<long long>(i1 / bucket, static_cast<long long>(buckets.size())));
    pts.reserve(int(bucket) * 2 + 2 * std::max(0, b1 - b0) + 2);
    int last = -1;  // index of the last point taken: keys stay strictly increasing
    auto take = [&](long long i) {
        if (i > last) pts.push_back(*(data + int(i)));
        last = std::max(last, int(i));
    };
    take(i0);  // the point at (or just beyond) the left edge, so the line reaches it
    for (long long i = i0 + 1; i < std::min<long long>(i1, b0 * bucket); ++i) take(i);
    for (int b = b0; b < b1; ++b) {
        const MinMax& m = buckets[std::size_t(b)];
        take(std::min(m.lo, m.hi));
        take(std::max(m.lo, m.hi));
    }
    for (long long i = std::max<long long>(i0, std::max(b0, b1) * bucket); i < i1; ++i) take(i);
    take(i1 - 1);  // and the right edge
    out.set(pts, true);
}

}  // namespace savepoint::ui
