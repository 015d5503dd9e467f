// Auto's choice, save by save, between copying a snapshot on the training
// thread and leaving the copy to the I/O thread (state_snapshot.h), when the
// I/O thread has a CPU of its own: whichever has cost training less lately.
//
// Neither is always cheaper: where the host makes a write to a cache line the
// other core has read dear (for minutes at a time on shared VMs), the
// optimizer step after a background copy waits on invalidating the lines the
// I/O core read, and copying on the training thread is cheaper; elsewhere the
// background copy is (docs/PERFORMANCE.md, capture choice). So each save's
// cost is measured (the capture's own stall plus how much the two steps after
// it exceed a quiet step) and the cheaper way taken, the other tried now and
// then in case the host moved.
//
// The tries are not free (a try in a slow stretch costs training time against
// a small overhead budget), so a try that comes
// out dearer doubles the gap to the next (8, 16, ... 64 saves); one that comes
// out cheaper brings the next try back to 8 saves, and a second cheaper one in
// a row moves the median and switches. Costs are the median of each way's last
// three saves: one slow step (an interrupt, a page fault) does not switch ways.
// The saved bytes are the same either way.
#pragma once

#include <array>
#include <cstdint>

namespace savepoint {

class CaptureChoice {
public:
    static constexpr int kMeasuredSteps = 2;    // steps after a capture charged to it
    static constexpr int kTryOtherEvery = 8;    // the shortest gap between tries of the way not preferred
    static constexpr int kTryOtherAtMost = 64;  // the longest: tries that come out dearer double the gap
    static constexpr int kCostsKept = 3;        // a way's cost: the median of its last three saves

    // The way the next capture should take: true for the background copy.
    bool background_next() const;
    // A capture was taken that way; `stall_seconds` is what it held the
    // training thread (taking and handing over the state, not waiting for the
    // previous save, which the disk decides).
    void captured(bool background, double stall_seconds);
    // A training step ended after `seconds`.
    void step_done(double seconds);

    // What each way has cost a save lately, in seconds; negative until measured.
    double cost(bool background) const;
    // Saves between the last try of the way not preferred and the next.
    int try_gap() const { return try_gap_; }

private:
    // The way taken when it is not a try: the unmeasured one first, then the cheaper.
    bool preferred() const;
    // The last quiet steps (no capture among the two before them), their median
    // the baseline: a stray slow one (an interrupt, a page fault) does not move it.
    static constexpr int kQuietKept = 15;
    std::array<double, kQuietKept> quiet_{};
    int quiet_count_ = 0, quiet_next_ = 0;
    bool warmed_up_ = false;
    double baseline_ = 0;           // median of quiet_, taken at each capture
    int steps_since_capture_ = -1;  // -1: no capture yet; stops at kMeasuredSteps
    bool last_background_ = true;
    bool last_was_try_ = false;  // the last capture took the way not preferred
    double pending_ = 0;         // the last capture's cost so far
    bool pending_valid_ = false;
    // Each way's last kCostsKept costs, newest at next_[way] - 1 (a ring).
    std::array<std::array<double, kCostsKept>, 2> costs_{};
    std::array<int, 2> count_{0, 0}, next_{0, 0};
    int try_gap_ = kTryOtherEvery;
    int since_try_ = 0;  // captures since the last try
};

}  // namespace savepoint
