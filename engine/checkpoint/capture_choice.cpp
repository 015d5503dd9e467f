#include "checkpoint/capture_choice.h"

#include <algorithm>

namespace savepoint {

double CaptureChoice::cost(bool background) const {
    static_assert(kCostsKept == 3, "the median below is of three");
    const auto& c = costs_[background];
    switch (count_[background]) {
        case 0:
            return -1;
        case 1:
            return c[0];
        case 2:
            return (c[0] + c[1]) / 2;  // neither is the middle one
        default:
            return std::max(std::min(c[0], c[1]), std::min(std::max(c[0], c[1]), c[2]));
    }
}

bool CaptureChoice::preferred() const {
    // The background copy first; once it has a cost, one copying capture for
    // comparison. After that the cheaper.
    if (count_[true] == 0) return true;
    if (count_[false] == 0) return false;
    return cost(true) <= cost(false);
}

bool CaptureChoice::background_next() const {
    const bool both_measured = count_[true] > 0 && count_[false] > 0;
    return both_measured && since_try_ >= try_gap_ ? !preferred() : preferred();
}

void CaptureChoice::captured(bool background, double stall_seconds) {
    last_was_try_ = count_[true] > 0 && count_[false] > 0 && background != preferred();
    since_try_ = last_was_try_ ? 0 : since_try_ + 1;
    last_background_ = background;
    steps_since_capture_ = 0;
    pending_ = stall_seconds;
    // Without a quiet step to measure against (saves every step or two) there is nothing to compare.
    pending_valid_ = quiet_count_ > 0;
    if (pending_valid_) {
        std::array<double, kQuietKept> sorted = quiet_;
        const auto mid = sorted.begin() + quiet_count_ / 2;
        std::nth_element(sorted.begin(), mid, sorted.begin() + quiet_count_);
        baseline_ = *mid;
    }
}

void CaptureChoice::step_done(double seconds) {
    if (steps_since_capture_ >= 0 && steps_since_capture_ < kMeasuredSteps) {
        ++steps_since_capture_;
        if (!pending_valid_) return;
        pending_ += seconds - baseline_;
        if (steps_since_capture_ == kMeasuredSteps) {
            const int way = last_background_;
            if (last_was_try_) {
                // Cheaper than the way preferred: try again soon, a second one switches.
                // Dearer: the host has not moved; wait twice as long for the next try.
                const bool cheaper = pending_ < cost(!last_background_);
                try_gap_ = cheaper ? kTryOtherEvery : std::min(2 * try_gap_, kTryOtherAtMost);
            }
            costs_[way][next_[way]] = pending_;
            next_[way] = (next_[way] + 1) % kCostsKept;
            count_[way] = std::min(count_[way] + 1, kCostsKept);
        }
        return;
    }
    // The very first step warms caches and allocators up: not a quiet step.
    if (!warmed_up_) {
        warmed_up_ = true;
        return;
    }
    quiet_[quiet_next_] = seconds;
    quiet_next_ = (quiet_next_ + 1) % kQuietKept;
    quiet_count_ = std::min(quiet_count_ + 1, kQuietKept);
}

}  // namespace savepoint
