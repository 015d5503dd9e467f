// The metric points behind the plots, organised as segments so lines never
// zig-zag: each branch has one live segment; when a later session (a resume
// after a crash) or a child branch (a rollback) restarts from an earlier step,
// the points past that step move into an "abandoned" segment that the plot
// draws faded and shades as lost work. Also keeps the bias-corrected EMA of
// each point and running min/max so the plot never has to scan the data.
// GUI thread only. No widgets here, so it is unit-testable.
#pragma once

#include "registry/registry.h"

#include <QVector>

#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

namespace savepoint::ui {

enum class XMode { GlobalStep = 0, Epoch = 1, WallTime = 2 };

struct EmaSeed {
    double acc = 0;      // biased accumulator
    std::int64_t n = 0;  // points folded in
};

struct PlotSegment {
    int index = 0;
    std::int64_t branch_id = 0;
    bool abandoned = false;
    int parent = -1;     // segment this one continues from (-1: none)
    double fork_gs = 0;  // last global step of the parent before this segment
    int revision = 0;    // bumped when points are removed (the plot resets its copy)
    std::int64_t last_session = 0;
    EmaSeed loss_seed, acc_seed;
    QVector<double> gs, wall, loss, acc, loss_ema, acc_ema;  // training steps
    QVector<double> vgs, vwall, vloss, vacc;                 // validation, once per epoch
    int size() const { return gs.size(); }
};

struct BranchInfo {
    std::int64_t id = 0;
    std::int64_t parent = 0;  // 0: none
    std::int64_t fork_gs = 0;
    std::int64_t number = 0;  // within the run (BranchRow::number); 0: unknown
    double lr = NAN;          // its learning rate when not the run's (BranchRow::lr; resume --lr)
};

struct Range {
    double lo = 0, hi = 0;
    bool valid = false;
    void add(double v) {
        if (!valid) {
            lo = hi = v;
            valid = true;
            return;
        }
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
};

class PlotSeriesStore {
public:
    void clear();
    void setStepsPerEpoch(std::int64_t spe) { spe_ = spe > 0 ? spe : 1; }
    std::int64_t stepsPerEpoch() const { return spe_; }
    void setTimeOrigin(double t0) { t0_ = t0; }
    double timeOrigin() const { return t0_; }
    void setBranch(const BranchInfo& b) { branches_[b.id] = b; }
    bool knowsBranch(std::int64_t id) const { return branches_.count(id) != 0; }
    // The number a person reads (1, 2, ... within the run); the id until the branch is known.
    std::int64_t branchNumber(std::int64_t id) const {
        const auto b = branches_.find(id);
        return b != branches_.end() && b->second.number > 0 ? b->second.number : id;
    }
    double branchLr(std::int64_t id) const {
        const auto b = branches_.find(id);
        return b != branches_.end() ? b->second.lr : NAN;
    }

    // Smoothing weight w in [0, 1): ema = w * ema + (1 - w) * x, divided by (1 - w^n).
    void setSmoothing(double w);
    double smoothing() const { return w_; }

    // Rows in the order the engine produced them (any mix of branches and sessions).
    void append(const std::vector<MetricRow>& rows);

    const std::vector<PlotSegment>& segments() const { return segs_; }
    int liveSegment(std::int64_t branch_id) const;  // -1: none
    std::int64_t pointCount() const { return points_; }

    double key(double gs, double wall, XMode m) const;
    // Global step for a key in the given mode (nearest point for wall time).
    double globalStepAt(double key, XMode m, int segment) const;
    // Index of the point nearest `key` in a segment, -1 if empty.
    int nearestIndex(int segment, double key, XMode m) const;

    Range keyRange(XMode m) const;
    Range lossRange() const { return loss_; }
    double lossPositiveMin() const { return loss_pos_min_; }
    Range accRange() const { return acc_; }

private:
    int segmentFor(std::int64_t branch_id);
    void abandonAfter(int seg, double gs);
    EmaSeed stateAt(const PlotSegment& s, int i, bool loss) const;  // state after point i (-1: the seed)
    EmaSeed seedFromParent(int parent, double fork_gs, bool loss) const;
    void recompute(PlotSegment& s);
    double fold(EmaSeed& st, double x) const;

    std::vector<PlotSegment> segs_;
    std::map<std::int64_t, int> live_;  // branch -> live segment
    std::map<std::int64_t, BranchInfo> branches_;
    std::int64_t spe_ = 1;
    double t0_ = 0;
    double w_ = 0.8;
    std::int64_t points_ = 0;
    Range gs_, wall_, loss_, acc_;
    double loss_pos_min_ = 0;
};

}  // namespace savepoint::ui
