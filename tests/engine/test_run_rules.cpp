// The rules both front ends take from the engine instead of writing their own
// (issue 43): whether a resume target is a rollback (resume_plan.h), the rate a
// branch records (branch_lr.h), and a run's stored settings (run_settings.h).
// The window's rollback question and the CLI's plan must agree on every target.
#include "training/branch_lr.h"
#include "training/resume_plan.h"
#include "training/run_settings.h"

#include "train_configs.h"

#include <QtTest>

using namespace savepoint;

namespace {

// A run of 10 steps an epoch whose head is checkpoint #5, at global step 25.
RunRow runWithHead() {
    RunRow r;
    r.id = 1;
    r.steps_per_epoch = 10;
    r.head_checkpoint_id = 5;
    return r;
}

ResumeTarget checkpoint(std::int64_t id) {
    ResumeTarget t;
    t.checkpoint_id = id;
    return t;
}

ResumeTarget position(std::int64_t epoch, std::int64_t step) {
    ResumeTarget t;
    t.epoch = epoch;
    t.step = step;
    return t;
}

}  // namespace

class TestRunRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rollbackIsAnotherCheckpointOrAnEarlierPosition() {
        const RunRow run = runWithHead();
        QVERIFY(!is_rollback(run, 25, {}));  // the latest: the active branch goes on
        QVERIFY(!is_rollback(run, 25, checkpoint(5)));
        QVERIFY(is_rollback(run, 25, checkpoint(4)));
        QVERIFY(is_rollback(run, 25, checkpoint(6)));    // another checkpoint, even a later one
        QVERIFY(is_rollback(run, 25, position(3, 4)));   // global step 24
        QVERIFY(!is_rollback(run, 25, position(3, 5)));  // the head's own step
        QVERIFY(!is_rollback(run, 25, position(3, 6)));
        RunRow fresh = run;
        fresh.head_checkpoint_id.reset();
        QVERIFY(is_rollback(fresh, 0, checkpoint(1)));  // no head yet: any checkpoint starts a branch
        QVERIFY(!is_rollback(fresh, 0, position(1, 0)));
    }

    void aBranchRecordsItsRateOnlyWhenItIsNotTheRuns() {
        BranchRow first, second;
        first.id = 7;
        second.id = 8;
        second.lr = 1e-4;
        const std::vector<BranchRow> branches{first, second};
        QVERIFY(!recorded_branch_lr(branches, 7));
        QCOMPARE(recorded_branch_lr(branches, 8).value_or(0), 1e-4);
        QVERIFY(!recorded_branch_lr(branches, 9));  // no such branch: the run's
    }

    void storedSettingsReadAsAResumeReadsThem() {
        TrainConfig c = testsupport::syntheticMlp(4, 30, 64, 10);
        c.lr = 0.005;
        RunRow run;
        run.config_json = c.to_json().dump();
        const TrainConfig back = run_settings(run);
        QCOMPARE(back.to_json().dump(), c.to_json().dump());
        QCOMPARE(try_run_settings(run)->epochs, std::int64_t(4));

        run.config_json = "{\"epochs\": \"four\"";  // damaged: not even JSON
        QVERIFY(!try_run_settings(run));
        bool threw = false;
        try {
            run_settings(run);
        } catch (const std::exception&) {
            threw = true;
        }
        QVERIFY(threw);
    }
};

QTEST_GUILESS_MAIN(TestRunRules)
#include "test_run_rules.moc"
