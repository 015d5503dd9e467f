#include "capture_choice.h"

#include <algorithm>

namespace savepoint {

bool CaptureChoice::background_next() const {
    // The background copy first; once it has a cost, one copying capture for
    // comparison. After that the cheaper, except for the periodic try.
    if (!have_cost_[true]) return true;
    if (!have_cost_[false]) return false;
    const bool preferred = cost_[true] <= cost_[false];
    return captures_ % kTryOtherEvery == kTryOtherEvery - 1 ? !preferred : preferred;
}

void CaptureChoice::captured(bool background, double stall_seconds) {
    ++captures_;
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
            // Half the weight to the newest: a host that moved shows within two saves.
            const int way = last_background_;
            cost_[way] = have_cost_[way] ? (cost_[way] + pending_) / 2 : pending_;
            have_cost_[way] = true;
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
