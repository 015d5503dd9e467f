// Requests during an epoch's validation pass (trainer.cpp, validate_epoch), how
// positions are named (the last completed step) and branch numbers within a run.
// Real trainer on the synthetic dataset, real registry file.
#include "registry/home.h"
#include "registry/registry.h"
#include "training/trainer.h"

#include "test_home.h"
#include "train_configs.h"

#include <QtTest>

#include <atomic>
#include <mutex>
#include <vector>

using namespace savepoint;

namespace {

// Acts on the trainer from its own thread when a report says so.
class Actor : public TrainerObserver {
public:
    Trainer* trainer = nullptr;
    std::function<void(Trainer&, const Progress&)> on_report;
    std::function<void(Trainer&, const MetricRow&)> on_row;
    std::vector<Progress> reports;
    std::vector<EventRow> events;
    std::vector<MetricRow> validations;
    void on_progress(const Progress& p) override {
        reports.push_back(p);
        if (on_report) on_report(*trainer, p);
    }
    void on_metrics(const std::vector<MetricRow>& rows) override {
        for (const auto& r : rows) {
            if (r.kind == MetricKind::Validation) validations.push_back(r);
            if (on_row) on_row(*trainer, r);
        }
    }
    void on_event(const EventRow& e) override { events.push_back(e); }
};

TrainConfig config(std::int64_t epochs = 2, std::int64_t spe = 10, std::int64_t save_every = 7) {
    TrainConfig c = testsupport::syntheticMlp(epochs, spe, 32, save_every);
    c.keep = 100;
    c.device = "cpu";
    c.seed = 7;
    return c;
}

TrainResult runWith(const std::string& home, const std::string& run, const TrainConfig& cfg, Actor& actor,
                    bool resume = false, ResumeTarget target = {}) {
    TrainRequest r;
    r.home = home;
    r.run_name = run;
    r.config = cfg;
    r.resume = resume;
    r.target = target;
    Trainer t(r, &actor);
    actor.trainer = &t;
    return t.run();
}

}  // namespace

class TestTrainingRequests : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void crashDuringValidationActsBeforeItEnds_data();
    void crashDuringValidationActsBeforeItEnds();
    void pauseDuringValidationWaitsAndChangesNothing();
    void stopAtAnEpochBoundaryNamesTheLastCompletedStep();
    void branchNumbersCountWithinTheRun();

private:
    QTemporaryDir tmp_;
    std::string home_;
    std::string reference_sha_;  // config() trained without interruption
    std::vector<MetricRow> reference_validations_;
};

void TestTrainingRequests::initTestCase() {
    QVERIFY(tmp_.isValid());
    home_ = resolve_home(tmp_.path().toStdString());
    Actor a;
    TrainResult r = runWith(home_, "reference", config(), a);
    QCOMPARE(int(r.outcome), int(Outcome::Finished));
    reference_sha_ = r.params_sha256;
    reference_validations_ = a.validations;
    QCOMPARE(reference_validations_.size(), std::size_t(2));
}

void TestTrainingRequests::crashDuringValidationActsBeforeItEnds_data() {
    QTest::addColumn<std::int64_t>("at");
    QTest::newRow("first epoch") << std::int64_t(10);
    QTest::newRow("final epoch") << std::int64_t(20);  // once dropped: the loop ended and the run finished
}

// A crash asked for while an epoch is being validated acts between its batches:
// the session ends interrupted at that step, and the epoch's row is not recorded.
void TestTrainingRequests::crashDuringValidationActsBeforeItEnds() {
    QFETCH(std::int64_t, at);
    const std::string run = "crash-" + std::to_string(at);
    Actor a;
    a.on_report = [at](Trainer& t, const Progress& p) {
        if (p.phase == Phase::Validating && p.global_step == at) t.request_crash();
    };
    TrainResult r = runWith(home_, run, config(), a);
    QCOMPARE(int(r.outcome), int(Outcome::Crashed));
    QCOMPARE(r.global_step, at);
    QVERIFY2(r.message.find("during the validation") != std::string::npos, r.message.c_str());
    for (const auto& v : a.validations) QVERIFY(v.global_step < at);
    Registry reg(home_);
    QCOMPARE(int(reg.find_run(run)->status), int(RunStatus::Interrupted));
    // No checkpoint of the step it crashed at, not even the final one.
    for (const auto& c : reg.checkpoints(reg.find_run(run)->id)) QVERIFY(c.global_step < at);
}

// A pause asked for during validation holds it between batches; the pass then
// finishes with the same numbers, and the run with the same parameters.
void TestTrainingRequests::pauseDuringValidationWaitsAndChangesNothing() {
    Actor a;
    bool paused_mid_validation = false;
    a.on_report = [&](Trainer& t, const Progress& p) {
        if (p.phase == Phase::Validating && p.global_step == 10 && p.validated > 0 && !paused_mid_validation)
            t.request_pause();
        if (p.phase == Phase::Paused) {
            paused_mid_validation = paused_mid_validation || (p.validation_total > 0 && p.validated > 0);
            t.request_continue();
        }
    };
    TrainResult r = runWith(home_, "pause", config(), a);
    QCOMPARE(int(r.outcome), int(Outcome::Finished));
    QVERIFY(paused_mid_validation);
    QCOMPARE(r.params_sha256, reference_sha_);
    QCOMPARE(a.validations.size(), reference_validations_.size());
    for (std::size_t i = 0; i < a.validations.size(); ++i) {
        QCOMPARE(a.validations[i].loss, reference_validations_[i].loss);
        QCOMPARE(a.validations[i].accuracy, reference_validations_[i].accuracy);
    }
    // Progress said what it was doing: validating, with counts that move to the test split's size.
    std::int64_t most = 0, total = 0;
    for (const auto& p : a.reports)
        if (p.phase == Phase::Validating) {
            most = std::max(most, p.validated);
            total = p.validation_total;
        }
    QCOMPARE(total, std::int64_t(1024));  // the synthetic test split
    QVERIFY2(most >= 500, qPrintable(QString::number(most)));
    bool pause_event = false;
    for (const auto& e : a.events) pause_event = pause_event || e.kind == EventKind::Pause;
    QVERIFY(pause_event);
}

// Stop right after the end of epoch 1 (10 steps an epoch): the checkpoint it
// writes and its event say "epoch 1, step 10", never "epoch 2, step 0"; a resume
// after either spelling of that position goes on to the reference result.
void TestTrainingRequests::stopAtAnEpochBoundaryNamesTheLastCompletedStep() {
    for (const auto& spelling : {std::pair<std::int64_t, std::int64_t>{1, 10}, {2, 0}}) {
        const std::string run = "stop-" + std::to_string(spelling.first);
        Actor a;
        a.on_row = [](Trainer& t, const MetricRow& m) {
            if (m.kind == MetricKind::Validation && m.global_step == 10) t.request_stop();
        };
        TrainResult r = runWith(home_, run, config(), a);
        QCOMPARE(int(r.outcome), int(Outcome::Stopped));
        QCOMPARE(r.global_step, std::int64_t(10));
        QVERIFY2(r.message.find("at epoch 1, step 10 (global step 10)") != std::string::npos, r.message.c_str());
        Registry reg(home_);
        const RunRow row = *reg.find_run(run);
        const CheckpointRow head = *reg.checkpoint(*row.head_checkpoint_id);
        QCOMPARE(head.global_step, std::int64_t(10));
        QCOMPARE(head.epoch, std::int64_t(1));
        QCOMPARE(head.step, std::int64_t(10));
        bool stop_event = false;
        for (const auto& e : reg.events(row.id, 0))
            if (e.kind == EventKind::Stop) {
                stop_event = true;
                QCOMPARE(e.epoch, std::int64_t(1));
                QCOMPARE(e.step, std::int64_t(10));
            }
        QVERIFY(stop_event);

        ResumeTarget target;
        target.epoch = spelling.first;
        target.step = spelling.second;
        Actor b;
        TrainResult done = runWith(home_, run, config(), b, true, target);
        QCOMPARE(int(done.outcome), int(Outcome::Finished));
        QCOMPARE(done.params_sha256, reference_sha_);
    }
}

// Branch ids count across runs; the number a person reads counts within one run.
void TestTrainingRequests::branchNumbersCountWithinTheRun() {
    Actor a;
    TrainResult first = runWith(home_, "branches", config(1, 20, 5), a);
    QCOMPARE(int(first.outcome), int(Outcome::Finished));
    ResumeTarget back;
    back.epoch = 1;
    back.step = 10;
    Actor b;
    TrainResult rolled = runWith(home_, "branches", config(1, 20, 5), b, true, back);
    QCOMPARE(int(rolled.outcome), int(Outcome::Finished));

    Registry reg(home_);
    const RunRow run = *reg.find_run("branches");
    const auto branches = reg.branches(run.id);
    QCOMPARE(branches.size(), std::size_t(2));
    QVERIFY(branches[0].id > 1);  // earlier runs of this home have branches of their own
    QCOMPARE(branches[0].number, std::int64_t(1));
    QCOMPARE(branches[1].number, std::int64_t(2));
    for (const auto& c : reg.checkpoints(run.id))
        QCOMPARE(c.branch_number, c.branch_id == branches[0].id ? std::int64_t(1) : std::int64_t(2));
    bool said = false;
    for (const auto& e : b.events)
        said = said ||
               (e.kind == EventKind::Rollback && e.message.find("new branch (#2 of this run") != std::string::npos);
    QVERIFY(said);
}

QTEST_GUILESS_MAIN(TestTrainingRequests)
#include "test_training_requests.moc"
