// CaptureChoice (engine/checkpoint/capture_choice.h): Auto's save-by-save choice between
// the background copy and copying on the training thread, fed step times as
// the trainer feeds them. The trainer's side (the bits stay the same whichever
// way each save is taken) is in test_async_policy.
#include "checkpoint/capture_choice.h"

#include <QtTest>

#include <vector>

using namespace savepoint;

namespace {

constexpr double kStep = 500e-6;  // a quiet step: mlp at batch 32 on this machine

// Feeds `n` quiet steps.
void quiet(CaptureChoice& c, int n, double step = kStep) {
    for (int i = 0; i < n; ++i) c.step_done(step);
}

// One save every ten steps, taken the way the chooser says: the capture stalls
// `stall` and the step after it runs `excess` longer. Returns the way taken.
bool save(CaptureChoice& c, double bg_stall, double bg_excess, double copy_stall, double copy_excess) {
    const bool background = c.background_next();
    c.captured(background, background ? bg_stall : copy_stall);
    c.step_done(kStep + (background ? bg_excess : copy_excess));
    quiet(c, 9);
    return background;
}

}  // namespace

class TestCaptureChoice : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Background first, one copying save to compare, then the cheaper. The
    // other way is tried after 8 saves, and each try that comes out dearer
    // doubles the gap, up to 64: in a long stretch where copying costs more,
    // the tries cost little.
    void takesTheCheaperWayAndTriesTheOtherLessOften() {
        CaptureChoice c;
        quiet(c, 10);
        std::vector<int> copying;
        for (int i = 0; i < 200; ++i)
            if (!save(c, 30e-6, 20e-6, 125e-6, 0)) copying.push_back(i);
        // #1 the comparison; then tries after 8, 16, 32, 64 and 64 saves of the preferred way
        // (8 counts #0 and #1): 8, 8 + 1 + 16 = 25, 25 + 1 + 32 = 58, 58 + 1 + 64 = 123, 188.
        QCOMPARE(copying, (std::vector<int>{1, 8, 25, 58, 123, 188}));
        QCOMPARE(c.try_gap(), CaptureChoice::kTryOtherAtMost);
        QVERIFY(qAbs(c.cost(true) - 50e-6) < 1e-9);
        QVERIFY(qAbs(c.cost(false) - 125e-6) < 1e-9);
    }

    // One slow save (an interrupt, a page fault in the step after it) does not
    // switch ways: a way's cost is the median of its last three saves.
    void oneSlowSaveDoesNotSwitch() {
        CaptureChoice c;
        quiet(c, 10);
        for (int i = 0; i < 6; ++i) save(c, 30e-6, 20e-6, 125e-6, 0);
        QVERIFY(save(c, 30e-6, 3000e-6, 125e-6, 0));  // taken in the background, and slow
        QVERIFY(save(c, 30e-6, 20e-6, 125e-6, 0));    // still the background copy
        QVERIFY(qAbs(c.cost(true) - 50e-6) < 1e-9);
    }

    // The host moves: the step after a background copy turns 550 µs slower.
    // Copying takes over once two saves in a row were slow, and only the tries
    // go back to the background copy. When the host moves back, the first try
    // that comes out cheaper brings the next try 8 saves on, and that second
    // cheaper one switches back (staying with copying a little long costs ~75 µs
    // a save; going back on one lucky try in a slow stretch ~450).
    void followsTheHostWhenItMoves() {
        CaptureChoice c;
        quiet(c, 10);
        for (int i = 0; i < 4; ++i) save(c, 30e-6, 20e-6, 125e-6, 0);
        QVERIFY(save(c, 30e-6, 550e-6, 125e-6, 0));  // the first slow one, in the background
        QVERIFY(save(c, 30e-6, 550e-6, 125e-6, 0));  // the second: now the median is slow
        std::vector<bool> slow;
        for (int i = 0; i < 150; ++i) slow.push_back(save(c, 30e-6, 550e-6, 125e-6, 0));
        QCOMPARE(slow.front(), false);
        int background = 0;
        for (bool b : slow) background += b;
        // Only the tries, each further apart: saves #8, #25, #58 and #123 of the run.
        QCOMPARE(background, 4);
        QVERIFY(c.cost(true) > c.cost(false));
        QCOMPARE(c.try_gap(), CaptureChoice::kTryOtherAtMost);
        // Calm again.
        int saves_to_switch = -1;
        bool gap_reset = false;
        for (int i = 0; i < 2 * CaptureChoice::kTryOtherAtMost + 20 && saves_to_switch < 0; ++i) {
            save(c, 30e-6, 20e-6, 125e-6, 0);
            gap_reset = gap_reset || c.try_gap() == CaptureChoice::kTryOtherEvery;
            if (c.cost(true) < c.cost(false)) saves_to_switch = i + 1;
        }
        QVERIFY(gap_reset);
        QVERIFY2(saves_to_switch > 0 &&
                     saves_to_switch <= CaptureChoice::kTryOtherAtMost + CaptureChoice::kTryOtherEvery + 2,
                 qPrintable(QString::number(saves_to_switch)));
        // Back to the background copy for good: of the next eight saves, all in the background.
        int calm_background = 0;
        for (int i = 0; i < CaptureChoice::kTryOtherEvery; ++i) calm_background += save(c, 30e-6, 20e-6, 125e-6, 0);
        QCOMPARE(calm_background, CaptureChoice::kTryOtherEvery);
    }

    // Saving every step or every other leaves no quiet step to measure
    // against: the choice never moves from the background copy.
    void withoutQuietStepsStaysInTheBackground() {
        for (int every : {1, 2}) {
            CaptureChoice c;
            for (int i = 0; i < 50; ++i) {
                QVERIFY(c.background_next());
                c.captured(true, 30e-6);
                for (int s = 0; s < every; ++s) c.step_done(kStep + (s == 0 ? 600e-6 : 0));
            }
            QCOMPARE(c.cost(true), -1.0);
            QCOMPARE(c.cost(false), -1.0);
        }
    }

    // Slow quiet steps (an interrupt, a page fault) do not make the next save
    // look cheap, and the first step of a run (warm-up) is not a quiet step.
    void strayStepsDoNotMoveTheBaseline() {
        CaptureChoice c;
        c.step_done(50 * kStep);  // warm-up
        quiet(c, 3);
        c.step_done(40 * kStep);  // strays
        quiet(c, 3);
        c.step_done(20 * kStep);
        c.captured(true, 30e-6);
        c.step_done(kStep + 20e-6);
        c.step_done(kStep);
        QVERIFY2(qAbs(c.cost(true) - 50e-6) < 1e-9, qPrintable(QString::number(c.cost(true) * 1e6)));
    }
};

QTEST_APPLESS_MAIN(TestCaptureChoice)
#include "test_capture_choice.moc"
