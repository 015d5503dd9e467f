// CaptureChoice (engine/capture_choice.h): Auto's save-by-save choice between
// the background copy and copying on the training thread, fed step times as
// the trainer feeds them. The trainer's side (the bits stay the same whichever
// way each save is taken) is in test_async_policy.
#include "capture_choice.h"

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
    // Background first, one copying save to compare, then the cheaper, with
    // every eighth capture trying the other way.
    void takesTheCheaperWayAndKeepsTryingTheOther() {
        CaptureChoice c;
        quiet(c, 10);
        std::vector<bool> ways;
        for (int i = 0; i < 24; ++i) ways.push_back(save(c, 30e-6, 20e-6, 125e-6, 0));
        QCOMPARE(ways[0], true);
        QCOMPARE(ways[1], false);
        for (int i = 2; i < 24; ++i) QCOMPARE(ways[i], i % CaptureChoice::kTryOtherEvery != CaptureChoice::kTryOtherEvery - 1);
        QVERIFY(qAbs(c.cost(true) - 50e-6) < 1e-9);
        QVERIFY(qAbs(c.cost(false) - 125e-6) < 1e-9);
    }

    // The host moves: the step after a background copy turns 550 µs slower.
    // Copying takes over at the next save, and the background copy comes back
    // within three of its trial saves once the host moves back (each halves the
    // gap; staying with copying a little long costs ~75 µs a save, while going
    // back too early in a slow stretch costs ~450).
    void followsTheHostWhenItMoves() {
        CaptureChoice c;
        quiet(c, 10);
        for (int i = 0; i < 8; ++i) save(c, 30e-6, 20e-6, 125e-6, 0);
        QVERIFY(save(c, 30e-6, 550e-6, 125e-6, 0));  // the first slow one, taken in the background
        std::vector<bool> bad;
        for (int i = 0; i < 16; ++i) bad.push_back(save(c, 30e-6, 550e-6, 125e-6, 0));
        int background = 0;
        for (bool b : bad) background += b;
        QCOMPARE(bad.front(), false);
        QCOMPARE(background, 2);  // only the trials
        QVERIFY(c.cost(true) > c.cost(false));
        int after_calm = -1;
        for (int i = 0; i < 3 * CaptureChoice::kTryOtherEvery; ++i) {
            // Calm again: once the trial saves bring the background copy's cost under copying's, it stays.
            if (save(c, 30e-6, 20e-6, 125e-6, 0) && c.cost(true) < c.cost(false) && after_calm < 0) after_calm = i;
        }
        QVERIFY(after_calm >= 0 && after_calm < 3 * CaptureChoice::kTryOtherEvery);
        // Back to the background copy for good: of the next eight saves only the trial copies.
        int calm_background = 0;
        for (int i = 0; i < CaptureChoice::kTryOtherEvery; ++i) calm_background += save(c, 30e-6, 20e-6, 125e-6, 0);
        QCOMPARE(calm_background, CaptureChoice::kTryOtherEvery - 1);
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
