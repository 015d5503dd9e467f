// compute_fault_tolerance() against numbers worked out by hand.
#include "models/fault_tolerance_stats.h"
#include "window/fault_tolerance_panel.h"

#include <QLabel>
#include <QtTest>

using namespace savepoint::ui;
using savepoint::SessionEnd;

namespace {

// A session that started at global step 0 and ended as `ended_by` at `end`,
// having computed every step from 0 to it, each taking `seconds_per_step`.
FtSession endedAt(std::int64_t end, SessionEnd ended_by, double started, double ended, double seconds_per_step = 1) {
    FtSession s;
    s.end_global_step = end;
    s.ended_by = ended_by;
    s.started_at = started;
    s.ended_at = ended;
    s.steps_computed = end;
    s.train_seconds = static_cast<double>(end) * seconds_per_step;
    return s;
}

}  // namespace

class TestFaultToleranceStats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void crashThenResume();
    void noFailureUsesAssumedMtbf();
    void spotSecondsOfAShortRunAreNotRoundedAway();
    void forcedAssumedMtbfAndReplay();
    void youngDalyEdgeCases();
    void liveNumbersBeforeSessionsEnd();
    void rollbackIsAChoiceNotALoss();
    void crashThenRollbackSplitsLossAndChoice();
    void sessionRunningElsewhereCountsItsSteps();
    void panelWordsNumbersInItsLocaleAndSaysWhenNothingRan();
    void aLostWorkerCostsEveryWorkersWork();
    void aKilledSessionCountsTheStepsItReached();
};

// Session 1 crashed at 100 with its head checkpoint at 80, and nobody has
// resumed yet: 20 steps are lost already. Session 2 of another run is still
// running: its saves' write times and its time so far count before it ends.
void TestFaultToleranceStats::liveNumbersBeforeSessionsEnd() {
    FtInputs crashed;
    crashed.sessions = {endedAt(100, SessionEnd::Crash, 0, 200)};
    crashed.resume_point_global_step = 80;
    QCOMPARE(compute_fault_tolerance(crashed).steps_lost, std::int64_t(20));
    crashed.resume_point_global_step = -1;  // unknown: nothing claimed
    QCOMPARE(compute_fault_tolerance(crashed).steps_lost, std::int64_t(0));
    crashed.sessions[0].ended_by = SessionEnd::Finished;
    crashed.resume_point_global_step = 80;
    QCOMPARE(compute_fault_tolerance(crashed).steps_lost, std::int64_t(0));

    FtInputs live;
    FtSession r;
    r.started_at = 1000;  // ended_at 0: running, counters not written yet
    r.end_global_step = 50;
    r.steps_computed = 50;
    live.sessions = {r};
    live.now = 1010;
    live.checkpoint_write_ms = {4, 6, NAN};
    live.checkpoint_stall_ms = {0.5, 1.5, NAN};
    live.checkpoints_written = 3;
    const FtStats s = compute_fault_tolerance(live);
    QCOMPARE(s.checkpoint_seconds, 0.010);
    QCOMPARE(s.train_seconds, 10.0);
    QCOMPARE(s.checkpoint_share, 0.001);
    // The training thread's waits, from the same rows, before the session writes its own total.
    QCOMPARE(s.checkpoint_stall_seconds, 0.002);
    QCOMPARE(s.stall_share, 0.0002);
}

// Session 1 trains steps 1..100 and crashes; the newest checkpoint is at 80.
// Session 2 resumes from 80 and finishes at 300.
void TestFaultToleranceStats::crashThenResume() {
    FtInputs in;
    FtSession a = endedAt(100, SessionEnd::Crash, 0, 200);
    a.checkpoint_seconds = 10;
    a.checkpoint_stall_seconds = 1;
    FtSession b;
    b.start_global_step = b.target_global_step = 80;
    b.end_global_step = 300;
    b.ended_by = SessionEnd::Finished;
    b.started_at = 260;
    b.ended_at = 560;
    b.steps_computed = 220;
    b.train_seconds = 220;
    b.checkpoint_seconds = 20;
    b.checkpoint_stall_seconds = 2;
    in.sessions = {a, b};
    in.checkpoints_written = 2;
    in.checkpoint_write_ms = {500, 1500};
    in.useful_steps = 300;
    in.spot_discount = 0.7;
    const FtStats s = compute_fault_tolerance(in);
    QCOMPARE(s.checkpoints_written, 2);
    QCOMPARE(s.train_seconds, 320.0);
    QCOMPARE(s.checkpoint_seconds, 30.0);
    QCOMPARE(s.checkpoint_stall_seconds, 3.0);
    QCOMPARE(s.checkpoint_share, 30.0 / 320.0);  // 0.09375
    QCOMPARE(s.interruptions, 1);
    QCOMPARE(s.steps_computed, 320);
    QCOMPARE(s.steps_lost, 20);           // 100 - 80
    QCOMPARE(s.steps_recomputed, 20);     // 81..100 trained again
    QCOMPARE(s.seconds_per_step, 1.0);    // 320 s / 320 steps
    QCOMPARE(s.downtime_seconds, 60.0);   // 200 -> 260: shown apart, waiting is not lost work
    QCOMPARE(s.wall_seconds_lost, 20.0);  // 20 steps x 1 s
    QCOMPARE(s.goodput, 300.0 / 320.0);   // 0.9375
    QCOMPARE(s.mean_checkpoint_cost_seconds, 1.0);
    QVERIFY(s.mtbf_observed);
    QCOMPARE(s.instance_seconds, 500.0);                            // 200 + 300
    QCOMPARE(s.mtbf_seconds, 500.0);                                // 500 s / 1 failure
    QVERIFY(qAbs(s.optimal_interval_seconds - 31.6227766) < 1e-6);  // sqrt(2 * 1 * 500)
    QVERIFY(qAbs(s.optimal_interval_steps - 31.6227766) < 1e-6);
    QVERIFY(qAbs(s.billable_seconds - 150.0) < 1e-9);  // 500 x 0.3
    QVERIFY(qAbs(s.savings_seconds - 350.0) < 1e-9);
    QVERIFY(qAbs(s.savings_fraction - 0.7) < 1e-12);
}

void TestFaultToleranceStats::noFailureUsesAssumedMtbf() {
    FtInputs in;
    in.sessions = {endedAt(50, SessionEnd::Finished, 10, 110, 0.5)};
    in.checkpoint_write_ms = {2000, 2000, NAN};  // NaN: a row written before write times were recorded
    in.useful_steps = 50;
    in.assumed_mtbf_seconds = 3600;
    in.spot_discount = 0.6;
    const FtStats s = compute_fault_tolerance(in);
    QCOMPARE(s.interruptions, 0);
    QVERIFY(!s.mtbf_observed);
    QCOMPARE(s.mtbf_seconds, 3600.0);
    QCOMPARE(s.mean_checkpoint_cost_seconds, 2.0);
    QCOMPARE(s.optimal_interval_seconds, 120.0);  // sqrt(2 * 2 * 3600) = sqrt(14400)
    QCOMPARE(s.seconds_per_step, 0.5);
    QCOMPARE(s.optimal_interval_steps, 240.0);
    QCOMPARE(s.goodput, 1.0);
    QCOMPARE(s.steps_lost, 0);
    QCOMPARE(s.instance_seconds, 100.0);
    QVERIFY(qAbs(s.billable_seconds - 40.0) < 1e-9);
}

// A preempted session whose successor rolls back to step 20 and replays to 30.
void TestFaultToleranceStats::forcedAssumedMtbfAndReplay() {
    FtSession a = endedAt(40, SessionEnd::Preempted, 0, 40);
    FtSession b;
    b.start_global_step = 20;
    b.target_global_step = 30;
    b.end_global_step = 35;  // still running at 35
    b.started_at = 50;
    b.steps_computed = 5;
    b.steps_replayed = 10;
    b.train_seconds = 15;
    FtInputs in;
    in.sessions = {a, b};
    in.useful_steps = 35;
    in.now = 70;
    in.force_assumed_mtbf = true;
    in.assumed_mtbf_seconds = 100;
    in.checkpoint_write_ms = {50};
    const FtStats s = compute_fault_tolerance(in);
    QCOMPARE(s.interruptions, 1);
    QCOMPARE(s.steps_lost, 20);          // 40 - 20
    QCOMPARE(s.steps_recomputed, 15);    // 21..35 done again so far
    QCOMPARE(s.steps_computed, 55);      // 40 + 5 + 10 replayed
    QCOMPARE(s.instance_seconds, 60.0);  // 40 + (70 - 50)
    QCOMPARE(s.downtime_seconds, 10.0);
    QVERIFY(!s.mtbf_observed);
    QCOMPARE(s.mtbf_seconds, 100.0);
    QVERIFY(qAbs(s.optimal_interval_seconds - 3.16227766) < 1e-6);  // sqrt(2 * 0.05 * 100)
    QCOMPARE(s.goodput, 35.0 / 55.0);
}

void TestFaultToleranceStats::youngDalyEdgeCases() {
    QCOMPARE(young_daly_interval(0, 100), 0.0);
    QCOMPARE(young_daly_interval(1, 0), 0.0);
    QCOMPARE(young_daly_interval(8, 1), 4.0);
    QVERIFY(is_interruption(SessionEnd::Crash));
    QVERIFY(is_interruption(SessionEnd::Killed));
    QVERIFY(!is_interruption(SessionEnd::Stopped));
    QVERIFY(!is_interruption(SessionEnd::Finished));
    const FtStats empty = compute_fault_tolerance({});
    QCOMPARE(empty.goodput, 1.0);
    QCOMPARE(empty.checkpoint_share, 0.0);
}

// A one-second demo run at a 70 % discount bills 0.3 s: shown as such, not as "0".
void TestFaultToleranceStats::spotSecondsOfAShortRunAreNotRoundedAway() {
    FtInputs in;
    in.sessions = {endedAt(10, SessionEnd::Finished, 0, 1.2, 0.1)};
    in.useful_steps = 10;
    in.spot_discount = 0.7;
    const FtStats s = compute_fault_tolerance(in);
    const QLocale loc;
    QCOMPARE(FaultTolerancePanel::spotSecondsText(s.instance_seconds), loc.toString(1.2, 'f', 1));
    QCOMPARE(FaultTolerancePanel::spotSecondsText(s.billable_seconds), loc.toString(0.4, 'f', 1));  // 0.36
    QCOMPARE(FaultTolerancePanel::spotSecondsText(99.94), loc.toString(99.9, 'f', 1));
    QCOMPARE(FaultTolerancePanel::spotSecondsText(150.4),
             loc.toString(150.0, 'f', 0));  // whole seconds, as a bill counts them
}

// Stopped at 100, then resumed at 40 by choice: 60 steps given up, none lost.
void TestFaultToleranceStats::rollbackIsAChoiceNotALoss() {
    FtSession a = endedAt(100, SessionEnd::Stopped, 0, 100);
    FtSession b;
    b.rollback = true;
    b.start_global_step = b.target_global_step = 40;
    b.end_global_step = 100;
    b.ended_by = SessionEnd::Finished;
    b.started_at = 500;  // the user thought it over for 400 s
    b.ended_at = 560;
    b.steps_computed = 60;
    b.train_seconds = 60;
    FtInputs in;
    in.sessions = {a, b};
    in.useful_steps = 100;
    const FtStats s = compute_fault_tolerance(in);
    QCOMPARE(s.steps_lost, 0);
    QCOMPARE(s.steps_recomputed, 0);
    QCOMPARE(s.steps_by_choice, 60);
    QCOMPARE(s.wall_seconds_lost, 0.0);
    QCOMPARE(s.downtime_seconds, 0.0);  // after a stop: not an interruption's downtime
    QCOMPARE(s.goodput, 100.0 / 160.0);
}

// Crashed at 100 with its newest checkpoint at 80, then rolled back to 50 and
// trained to 120: 20 steps lost to the crash, 30 more given up by choice; of the
// lost ones, 81..100 were trained again.
void TestFaultToleranceStats::crashThenRollbackSplitsLossAndChoice() {
    FtSession a = endedAt(100, SessionEnd::Crash, 0, 100);
    a.resume_point_at_end = 80;
    FtSession b;
    b.rollback = true;
    b.start_global_step = b.target_global_step = 50;
    b.end_global_step = 120;
    b.ended_by = SessionEnd::Finished;
    b.started_at = 130;
    b.ended_at = 200;
    b.steps_computed = 70;
    b.train_seconds = 70;
    FtInputs in;
    in.sessions = {a, b};
    in.useful_steps = 120;
    const FtStats s = compute_fault_tolerance(in);
    QCOMPARE(s.steps_lost, 20);
    QCOMPARE(s.steps_by_choice, 30);
    QCOMPARE(s.steps_recomputed, 20);
    QCOMPARE(s.seconds_per_step, 1.0);    // 170 s / 170 steps
    QCOMPARE(s.wall_seconds_lost, 20.0);  // 20 steps x 1 s; the 30 s waited are not in it
    QCOMPARE(s.downtime_seconds, 30.0);   // 100 -> 130
}

// A session another process is running has written no counters yet: the run's
// progress (its global step) says how much it computed.
void TestFaultToleranceStats::sessionRunningElsewhereCountsItsSteps() {
    savepoint::SessionRow running;
    running.branch_id = 1;
    running.started_at = 1000;
    running.ended_at = NAN;  // as the registry reads a NULL
    savepoint::CheckpointRow c;
    c.branch_id = 1;
    c.global_step = 1400;
    c.created_at = 1005;
    c.state = savepoint::CheckpointState::Committed;
    const FtInputs in = FaultTolerancePanel::inputsFrom({running}, {c}, 1458, 1010);
    QCOMPARE(in.sessions.size(), std::size_t(1));
    QCOMPARE(in.sessions[0].end_global_step, 1458);
    QCOMPARE(in.sessions[0].resume_point_at_end, 1400);
    const FtStats s = compute_fault_tolerance(in);
    QCOMPARE(s.steps_computed, 1458);
    QCOMPARE(s.useful_steps, 1458);
    QCOMPARE(s.goodput, 1.0);
}

void TestFaultToleranceStats::panelWordsNumbersInItsLocaleAndSaysWhenNothingRan() {
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::French, QLocale::France));
    FaultTolerancePanel panel;
    auto* goodput = panel.findChild<QLabel*>(QStringLiteral("goodputValue"));
    QVERIFY(goodput);
    QCOMPARE(goodput->text(), FaultTolerancePanel::tr("no training yet"));  // not "100 % (0 useful of 0 computed)"
    // Crashed at 1,458 with no checkpoint; trained again from the start to 2,916.
    FtInputs in;
    in.sessions = {endedAt(1458, SessionEnd::Crash, 0, 100), endedAt(2916, SessionEnd::Finished, 100, 200)};
    in.useful_steps = 2916;
    panel.setInputs(in);
    const QLocale fr;
    QVERIFY2(goodput->text().contains(fr.toString(qlonglong(4374))), qPrintable(goodput->text()));  // "4 374"
    QVERIFY2(goodput->text().contains(fr.toString(66.7, 'f', 1)), qPrintable(goodput->text()));     // "66,7"
    QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("stepsLostValue"))->text(), fr.toString(qlonglong(1458)));
    QLocale::setDefault(before);
}

// A 2-worker job: worker lost at step 100 (0-100 s), torchrun restarted it from
// the checkpoint at 80 and it finished at 200 (100-220 s), one second a step.
void TestFaultToleranceStats::aLostWorkerCostsEveryWorkersWork() {
    FtInputs in;
    FtSession lost = endedAt(100, SessionEnd::Interrupted, 0, 100);
    FtSession restarted = endedAt(200, SessionEnd::Finished, 100, 220);
    restarted.start_global_step = restarted.target_global_step = 80;
    restarted.steps_computed = 120;
    restarted.train_seconds = 120;
    lost.world_size = restarted.world_size = 2;
    restarted.job_restart = true;
    in.sessions = {lost, restarted};
    in.useful_steps = 200;
    const FtStats s = compute_fault_tolerance(in);
    QCOMPARE(s.steps_lost, std::int64_t(20));
    QCOMPARE(s.wall_seconds_lost, 20.0);
    QCOMPARE(s.worker_seconds_lost, 40.0);  // both workers computed the 20 steps
    QCOMPARE(s.job_restarts, 1);
    QCOMPARE(s.max_world_size, 2);
    QCOMPARE(s.worker_seconds, 440.0);                               // (100 + 120) s x 2 workers
    QCOMPARE(s.useful_steps_per_worker_hour, 200 / (440.0 / 3600));  // 1636.4
    // The panel shows the job's rows for a job, and not for a single process.
    FaultTolerancePanel panel;
    auto* restarts = panel.findChild<QLabel*>(QStringLiteral("jobRestartsValue"));
    panel.setInputs(in);
    QVERIFY(!restarts->isHidden());
    QCOMPARE(restarts->text(), QStringLiteral("1"));
    QVERIFY2(panel.findChild<QLabel*>(QStringLiteral("perWorkerHourValue"))->text().contains(QLocale().toString(1636)),
             qPrintable(panel.findChild<QLabel*>(QStringLiteral("perWorkerHourValue"))->text()));
    in.sessions = {endedAt(100, SessionEnd::Finished, 0, 100)};
    panel.setInputs(in);
    QVERIFY(restarts->isHidden());
}

// kill -9 (a lost worker, a killed CLI) leaves no counters: recovery records where
// the session ended. Seen in the window: "4,000 useful of 3,900 computed".
void TestFaultToleranceStats::aKilledSessionCountsTheStepsItReached() {
    savepoint::SessionRow killed;
    killed.branch_id = 1;
    killed.started_at = 1000;
    killed.ended_at = 1010;
    killed.end_global_step = 141;
    killed.ended_by = SessionEnd::Interrupted;
    savepoint::SessionRow resumed = killed;
    resumed.start_global_step = resumed.target_global_step = 100;
    resumed.end_global_step = 4000;
    resumed.steps_computed = 3900;
    resumed.started_at = 1011;
    resumed.ended_at = 1100;
    resumed.ended_by = SessionEnd::Finished;
    const FtStats s = compute_fault_tolerance(FaultTolerancePanel::inputsFrom({killed, resumed}, {}, 4000, 1200));
    QCOMPARE(s.steps_computed, std::int64_t(141 + 3900));
    QCOMPARE(s.steps_lost, std::int64_t(41));
    QCOMPARE(s.goodput, 4000.0 / 4041);
}

QTEST_MAIN(TestFaultToleranceStats)
#include "test_fault_tolerance_stats.moc"
