#include "plot/plot_series_store.h"

#include <algorithm>
#include <cmath>

namespace savepoint::ui {

void PlotSeriesStore::clear() {
    segs_.clear();
    live_.clear();
    branches_.clear();
    points_ = 0;
    gs_ = wall_ = loss_ = acc_ = Range{};
    loss_pos_min_ = 0;
}

double PlotSeriesStore::fold(EmaSeed& st, double x) const {
    if (!std::isfinite(x)) return x;
    st.acc = w_ * st.acc + (1 - w_) * x;
    ++st.n;
    const double debias = 1 - std::pow(w_, static_cast<double>(st.n));
    return debias > 0 ? st.acc / debias : x;
}

EmaSeed PlotSeriesStore::stateAt(const PlotSegment& s, int i, bool loss) const {
    if (i < 0) return loss ? s.loss_seed : s.acc_seed;
    EmaSeed st = loss ? s.loss_seed : s.acc_seed;
    st.n += i + 1;
    const double ema = loss ? s.loss_ema[i] : s.acc_ema[i];
    st.acc = ema * (1 - std::pow(w_, static_cast<double>(st.n)));
    return st;
}

EmaSeed PlotSeriesStore::seedFromParent(int parent, double fork_gs, bool loss) const {
    if (parent < 0) return {};
    const PlotSegment& p = segs_[parent];
    const int i = static_cast<int>(std::upper_bound(p.gs.begin(), p.gs.end(), fork_gs) - p.gs.begin()) - 1;
    return stateAt(p, i, loss);
}

void PlotSeriesStore::recompute(PlotSegment& s) {
    EmaSeed l = s.loss_seed, a = s.acc_seed;
    for (int i = 0; i < s.size(); ++i) {
        s.loss_ema[i] = fold(l, s.loss[i]);
        s.acc_ema[i] = fold(a, s.acc[i]);
    }
}

void PlotSeriesStore::setSmoothing(double w) {
    w_ = std::clamp(w, 0.0, 0.999);
    for (auto& s : segs_) {
        s.loss_seed = seedFromParent(s.parent, s.fork_gs, true);
        s.acc_seed = seedFromParent(s.parent, s.fork_gs, false);
        recompute(s);
        ++s.revision;
    }
}

int PlotSeriesStore::liveSegment(std::int64_t branch_id) const {
    auto it = live_.find(branch_id);
    return it == live_.end() ? -1 : it->second;
}

int PlotSeriesStore::segmentFor(std::int64_t branch_id) {
    auto it = live_.find(branch_id);
    if (it != live_.end()) return it->second;
    PlotSegment s;
    s.index = static_cast<int>(segs_.size());
    s.branch_id = branch_id;
    auto b = branches_.find(branch_id);
    if (b != branches_.end() && b->second.parent != 0) {
        const int p = liveSegment(b->second.parent);
        if (p >= 0) {
            // A rollback: the parent's steps past the fork are abandoned.
            abandonAfter(p, static_cast<double>(b->second.fork_gs));
            s.parent = p;
            s.fork_gs = static_cast<double>(b->second.fork_gs);
            s.loss_seed = seedFromParent(p, s.fork_gs, true);
            s.acc_seed = seedFromParent(p, s.fork_gs, false);
        }
    }
    s.index = static_cast<int>(segs_.size());
    segs_.push_back(std::move(s));
    live_[branch_id] = segs_.back().index;
    return segs_.back().index;
}

void PlotSeriesStore::abandonAfter(int seg, double gs) {
    PlotSegment& s = segs_[seg];
    const int i = static_cast<int>(std::upper_bound(s.gs.begin(), s.gs.end(), gs) - s.gs.begin());
    const int vi = static_cast<int>(std::upper_bound(s.vgs.begin(), s.vgs.end(), gs) - s.vgs.begin());
    if (i >= s.size() && vi >= s.vgs.size()) return;
    PlotSegment a;
    a.branch_id = s.branch_id;
    a.abandoned = true;
    a.parent = seg;
    a.fork_gs = gs;
    a.last_session = s.last_session;
    a.loss_seed = stateAt(s, i - 1, true);
    a.acc_seed = stateAt(s, i - 1, false);
    auto move_tail = [](QVector<double>& from, QVector<double>& to, int at) {
        to = from.mid(at);
        from.resize(at);
    };
    move_tail(s.gs, a.gs, i);
    move_tail(s.wall, a.wall, i);
    move_tail(s.loss, a.loss, i);
    move_tail(s.acc, a.acc, i);
    move_tail(s.loss_ema, a.loss_ema, i);
    move_tail(s.acc_ema, a.acc_ema, i);
    move_tail(s.vgs, a.vgs, vi);
    move_tail(s.vwall, a.vwall, vi);
    move_tail(s.vloss, a.vloss, vi);
    move_tail(s.vacc, a.vacc, vi);
    ++s.revision;
    a.index = static_cast<int>(segs_.size());
    segs_.push_back(std::move(a));  // invalidates `s`
}

void PlotSeriesStore::append(const std::vector<MetricRow>& rows) {
    for (const MetricRow& r : rows) {
        const int si = segmentFor(r.branch_id);
        const double g = static_cast<double>(r.global_step);
        {
            PlotSegment& s = segs_[si];
            const bool train = r.kind == MetricKind::TrainingStep;
            const QVector<double>& keys = train ? s.gs : s.vgs;
            if (!keys.isEmpty() && g <= keys.back()) {
                if (r.session_id == s.last_session || !train) continue;  // already have it
                abandonAfter(si, g - 1);                                 // a later session recomputes these steps
            }
        }
        PlotSegment& s = segs_[si];
        s.last_session = r.session_id;
        gs_.add(g);
        wall_.add(r.wall_time);
        if (r.kind == MetricKind::TrainingStep) {
            EmaSeed l = stateAt(s, s.size() - 1, true), a = stateAt(s, s.size() - 1, false);
            s.gs.push_back(g);
            s.wall.push_back(r.wall_time);
            s.loss.push_back(r.loss);
            s.acc.push_back(r.accuracy);
            s.loss_ema.push_back(fold(l, r.loss));
            s.acc_ema.push_back(fold(a, r.accuracy));
            ++points_;
        } else {
            s.vgs.push_back(g);
            s.vwall.push_back(r.wall_time);
            s.vloss.push_back(r.loss);
            s.vacc.push_back(r.accuracy);
        }
        if (std::isfinite(r.loss)) {
            loss_.add(r.loss);
            if (r.loss > 0 && (loss_pos_min_ == 0 || r.loss < loss_pos_min_)) loss_pos_min_ = r.loss;
        }
        if (std::isfinite(r.accuracy)) acc_.add(r.accuracy);
    }
}

double PlotSeriesStore::key(double gs, double wall, XMode m) const {
    switch (m) {
        case XMode::GlobalStep:
            return gs;
        case XMode::Epoch:
            return gs / static_cast<double>(spe_);
        case XMode::WallTime:
            return wall - t0_;
    }
    return gs;
}

Range PlotSeriesStore::keyRange(XMode m) const {
    Range r;
    if (!gs_.valid) return r;
    if (m == XMode::WallTime) {
        r.add(wall_.lo - t0_);
        r.add(wall_.hi - t0_);
    } else {
        r.add(key(gs_.lo, 0, m));
        r.add(key(gs_.hi, 0, m));
    }
    return r;
}

int PlotSeriesStore::nearestIndex(int segment, double k, XMode m) const {
    if (segment < 0 || segment >= static_cast<int>(segs_.size())) return -1;
    const PlotSegment& s = segs_[segment];
    if (s.gs.isEmpty()) return -1;
    const QVector<double>& v = m == XMode::WallTime ? s.wall : s.gs;
    const double target = m == XMode::WallTime ? k + t0_ : m == XMode::Epoch ? k * static_cast<double>(spe_) : k;
    int i = static_cast<int>(std::lower_bound(v.begin(), v.end(), target) - v.begin());
    if (i >= v.size()) return v.size() - 1;
    if (i > 0 && std::abs(v[i - 1] - target) < std::abs(v[i] - target)) --i;
    return i;
}

double PlotSeriesStore::globalStepAt(double k, XMode m, int segment) const {
    if (m == XMode::GlobalStep) return k;
    if (m == XMode::Epoch) return k * static_cast<double>(spe_);
    const int i = nearestIndex(segment, k, m);
    return i < 0 ? 0 : segs_[segment].gs[i];
}

}  // namespace savepoint::ui
