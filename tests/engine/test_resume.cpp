// Tests for interruption and resume (engine/training/trainer.cpp, resume_plan.cpp,
// checkpoint_writer.cpp retention) — the heart of Savepoint. Every scenario
// ends by comparing the SHA-256 of the final parameters with an uninterrupted
// run of the same configuration: a resumed run must be bit-identical, on the
// engine API and through the real savepoint-cli (including a real SIGTERM).
#include "formats/checkpoint_format.h"
#include "platform/errors.h"
#include "registry/home.h"
#include "registry/registry.h"
#include "training/trainer.h"

#include "test_home.h"
#include "train_configs.h"

#include <QtTest>

#include <algorithm>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

using namespace savepoint;
using testsupport::CliResult;

namespace {

class Collect : public TrainerObserver {
public:
    void on_message(const std::string& m) override {
        std::lock_guard<std::mutex> l(mutex);
        messages << QString::fromStdString(m);
    }
    void on_event(const EventRow& e) override {
        std::lock_guard<std::mutex> l(mutex);
        events.push_back(e);
    }
    void on_progress(const Progress& p) override { global_step = p.global_step; }
    void on_checkpoint_saved(const CheckpointRow& c) override {
        std::lock_guard<std::mutex> l(mutex);
        saved.push_back(c);
        saved_count = std::int64_t(saved.size());
    }
    QString all() {
        std::lock_guard<std::mutex> l(mutex);
        return messages.join(QLatin1Char('\n'));
    }
    std::mutex mutex;
    QStringList messages;
    std::vector<EventRow> events;
    std::vector<CheckpointRow> saved;
    std::atomic<std::int64_t> global_step{0};
    std::atomic<std::int64_t> saved_count{0};
};

TrainConfig smallConfig() {
    TrainConfig c = testsupport::syntheticMlp(3, 20, 32, 7);
    c.keep = 100;
    c.device = "cpu";
    c.seed = 42;
    return c;
}

TrainResult train(const std::string& home, const std::string& run, const TrainConfig& cfg, std::int64_t interrupt = 0,
                  std::int64_t preempt = 0, Collect* obs = nullptr) {
    TrainRequest r;
    r.home = home;
    r.run_name = run;
    r.config = cfg;
    r.interrupt_at_step = interrupt;
    r.preempt_at_step = preempt;
    Trainer t(r, obs);
    return t.run();
}

TrainResult resume(const std::string& home, const std::string& run, ResumeTarget target = {},
                   std::int64_t interrupt = 0, Collect* obs = nullptr) {
    TrainRequest r;
    r.home = home;
    r.run_name = run;
    r.resume = true;
    r.target = target;
    r.interrupt_at_step = interrupt;
    Trainer t(r, obs);
    return t.run();
}

ResumeTarget atCheckpoint(std::int64_t id) {
    ResumeTarget t;
    t.checkpoint_id = id;
    return t;
}

ResumeTarget atPosition(std::int64_t epoch, std::int64_t step) {
    ResumeTarget t;
    t.epoch = epoch;
    t.step = step;
    return t;
}

std::optional<CheckpointRow> committedAt(Registry& reg, std::int64_t run, std::int64_t gs, std::int64_t branch = 0) {
    std::optional<CheckpointRow> out;
    for (auto& c : reg.checkpoints(run))
        if (c.usable() && c.global_step == gs && (branch == 0 || c.branch_id == branch)) out = c;
    return out;
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

class TestResume : public QObject {
    Q_OBJECT

private:
    QTemporaryDir root_;
    std::string ref_;      // final params_sha256 of smallConfig(), uninterrupted
    std::string refHome_;  // ...and the home holding that run ("ref"), every checkpoint kept
    QString tfRef_;        // final params_sha256 of the TF guide's configuration through the CLI
    int homes_ = 0;

    std::string newHome() { return root_.path().toStdString() + "/h" + std::to_string(++homes_); }

    QStringList tfArgs(const QString& home, const QString& run, const QStringList& extra = {}) {
        return testsupport::trainArgs(home, run, 10, 100, QStringLiteral("30"), extra);
    }

    // The uninterrupted result of any configuration (computed once, in its own home).
    std::map<std::string, std::string> refs_;
    std::string referenceFor(const TrainConfig& cfg) {
        const std::string key = cfg.to_json().dump();
        auto it = refs_.find(key);
        if (it != refs_.end()) return it->second;
        TrainResult r = train(newHome(), "reference", cfg);
        if (r.outcome != Outcome::Finished) qFatal("reference run did not finish");
        return refs_[key] = r.params_sha256;
    }

    void expectReference(const TrainResult& r, const std::string& home, const std::string& run,
                         const std::string& expected = {}, std::int64_t total = 60) {
        const std::string want = expected.empty() ? ref_ : expected;
        QCOMPARE(int(r.outcome), int(Outcome::Finished));
        QCOMPARE(r.global_step, total);
        QCOMPARE(qs(r.params_sha256), qs(want));
        // The final checkpoint (the head) carries the same parameters.
        Registry reg(home);
        auto run_row = reg.find_run(run);
        QVERIFY(run_row && run_row->head_checkpoint_id);
        auto head = reg.checkpoint(*run_row->head_checkpoint_id);
        QCOMPARE(head->global_step, total);
        QCOMPARE(qs(head->params_sha256), qs(want));
        QCOMPARE(qs(savepoint::to_string(run_row->status)), QStringLiteral("finished"));
        QVERIFY(verify_checkpoint_file(reg.absolute(head->path), head->sha256).ok);
        if (want == ref_) compareRowsWithReference(reg, run_row->id);
    }

    // Every regular or final checkpoint of a resumed run records exactly what the
    // uninterrupted run recorded at that step: parameters and the metrics at save.
    void compareRowsWithReference(Registry& reg, std::int64_t run) {
        Registry refReg(refHome_);
        std::map<std::int64_t, CheckpointRow> ref;
        for (auto& c : refReg.checkpoints(refReg.find_run("ref")->id)) ref[c.global_step] = c;
        auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
        for (auto& c : reg.checkpoints(run)) {
            if (c.kind == savepoint::CheckpointKind::Emergency || c.kind == savepoint::CheckpointKind::Manual ||
                c.state == savepoint::CheckpointState::Failed || !ref.count(c.global_step))
                continue;
            const CheckpointRow& r = ref[c.global_step];
            const QByteArray ctx =
                QStringLiteral("checkpoint #%1 at global step %2").arg(c.id).arg(c.global_step).toUtf8();
            QVERIFY2(c.params_sha256 == r.params_sha256, ctx + " params");
            QVERIFY2(same(c.train_loss, r.train_loss) && same(c.train_accuracy, r.train_accuracy),
                     ctx + " training metrics");
            QVERIFY2(same(c.val_loss, r.val_loss) && same(c.val_accuracy, r.val_accuracy),
                     ctx + QStringLiteral(" validation metrics: %1 vs %2 uninterrupted")
                               .arg(c.val_loss)
                               .arg(r.val_loss)
                               .toUtf8());
            QCOMPARE(c.epoch, r.epoch);
            QCOMPARE(c.step, r.step);
        }
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(root_.isValid());
        const std::string home = newHome();
        refHome_ = home;
        Collect obs;
        TrainResult r = train(home, "ref", smallConfig(), 0, 0, &obs);
        QCOMPARE(int(r.outcome), int(Outcome::Finished));
        ref_ = r.params_sha256;
        QCOMPARE(ref_.size(), std::size_t(64));
    }

    // --- the baseline the rest depends on -------------------------------------------------

    void trainingIsDeterministicAndSavingDoesNotPerturbIt() {
        // Same config, another home: same bits.
        const std::string h = newHome();
        TrainResult again = train(h, "again", smallConfig());
        QCOMPARE(qs(again.params_sha256), qs(ref_));
        // Checkpointing at another frequency must not change training (no RNG drawn, no state touched).
        TrainConfig every = smallConfig();
        every.save_every_steps = 1;
        TrainConfig epochs = smallConfig();
        epochs.save_every_steps = 0;
        QCOMPARE(qs(train(h, "every-step", every).params_sha256), qs(ref_));
        QCOMPARE(qs(train(h, "per-epoch", epochs).params_sha256), qs(ref_));
        // bench_train's step timing: one start per step computed, in order, and the bits unchanged.
        {
            TrainRequest r;
            r.home = h;
            r.run_name = "timed";
            r.config = smallConfig();
            r.hooks.record_step_times = true;
            Trainer t(r);
            const TrainResult timed = t.run();
            QCOMPARE(qs(timed.params_sha256), qs(ref_));
            QCOMPARE(std::int64_t(timed.step_started_at.size()), timed.steps);
            QCOMPARE(timed.steps, std::int64_t(60));
            QVERIFY(std::is_sorted(timed.step_started_at.begin(), timed.step_started_at.end()));
            QVERIFY(timed.step_started_at.front() >= 0 && timed.step_started_at.back() <= timed.loop_seconds);
            QVERIFY(train(h, "untimed", smallConfig()).step_started_at.empty());
        }
        // ...while a real change of the run does change the bits (the hash is not a constant).
        TrainConfig seed = smallConfig();
        seed.seed = 43;
        QVERIFY(train(h, "seed43", seed).params_sha256 != ref_);
        TrainConfig shorter = smallConfig();
        shorter.epochs = 2;
        QVERIFY(train(h, "shorter", shorter).params_sha256 != ref_);
    }

    void saveFrequencyIsCountedAcrossEpochs() {
        const std::string h = newHome();
        Collect obs;
        train(h, "freq", smallConfig(), 0, 0, &obs);
        Registry reg(h);
        auto run = reg.find_run("freq");
        std::vector<std::int64_t> steps;
        for (auto& c : reg.checkpoints(run->id)) steps.push_back(c.global_step);
        // Keras save_freq=7 with 20 steps per epoch: 7, 14, 21 (= epoch 2, step 1), ...; then the final one.
        QCOMPARE(steps, (std::vector<std::int64_t>{7, 14, 21, 28, 35, 42, 49, 56, 60}));
        auto c21 = committedAt(reg, run->id, 21);
        QCOMPARE(c21->epoch, std::int64_t(2));
        QCOMPARE(c21->step, std::int64_t(1));
        auto last = committedAt(reg, run->id, 60);
        QCOMPARE(qs(savepoint::to_string(last->kind)), QStringLiteral("final"));
        QCOMPARE(last->epoch, std::int64_t(3));
        QCOMPARE(last->step, std::int64_t(20));
        // Parent chain: each checkpoint's parent is the previous one.
        auto rows = reg.checkpoints(run->id);
        QVERIFY(!rows[0].parent_id.has_value());
        for (std::size_t i = 1; i < rows.size(); ++i) QCOMPARE(rows[i].parent_id.value_or(-1), rows[i - 1].id);
        // The observer heard about each one, once committed.
        QCOMPARE(obs.saved.size(), rows.size());
        for (auto& s : obs.saved) QCOMPARE(qs(savepoint::to_string(s.state)), QStringLiteral("committed"));

        TrainConfig perEpoch = smallConfig();
        perEpoch.save_every_steps = 0;
        train(h, "per-epoch", perEpoch);
        steps.clear();
        for (auto& c : reg.checkpoints(reg.find_run("per-epoch")->id)) steps.push_back(c.global_step);
        QCOMPARE(steps, (std::vector<std::int64_t>{20, 40, 60}));
        // Epoch-end checkpoints carry that epoch's validation metrics.
        auto e1 = committedAt(reg, reg.find_run("per-epoch")->id, 20);
        QVERIFY(!std::isnan(e1->val_loss) && !std::isnan(e1->val_accuracy));
        QVERIFY(!std::isnan(e1->train_loss));
    }

    // --- interruption at various points ---------------------------------------------------

    void resumeAfterMidEpochInterruption() {
        const std::string h = newHome();
        TrainResult crashed = train(h, "mid", smallConfig(), /*interrupt=*/30);
        QCOMPARE(int(crashed.outcome), int(Outcome::Crashed));
        QCOMPARE(exit_code(crashed.outcome), 3);
        QCOMPARE(crashed.global_step, std::int64_t(30));
        // Why, as data: the crash it was asked for, at the step asked for; the engine's sentence names no flag.
        const auto* why = std::get_if<savepoint::CrashedReason>(&crashed.reason);
        QVERIFY(why);
        QCOMPARE(int(why->cause), int(savepoint::CrashedReason::Cause::AtRequestedStep));
        QCOMPARE(why->at.global_step, std::int64_t(30));
        QCOMPARE(why->at.epoch, std::int64_t(2));
        QCOMPARE(why->at.step, std::int64_t(10));
        QVERIFY2(crashed.message.find("--") == std::string::npos, crashed.message.c_str());
        {
            Registry reg(h);
            auto run = reg.find_run("mid");
            QCOMPARE(qs(savepoint::to_string(run->status)), QStringLiteral("interrupted"));
            auto head = reg.checkpoint(*run->head_checkpoint_id);
            QCOMPARE(head->global_step, std::int64_t(28));  // nothing beyond the regular checkpoints
            QCOMPARE(reg.checkpoints(run->id).size(), std::size_t(4));
            bool evented = false;
            for (auto& e : reg.events(run->id))
                evented = evented || (e.kind == savepoint::EventKind::Interruption && e.global_step == 30);
            QVERIFY(evented);
        }
        Collect obs;
        TrainResult done = resume(h, "mid", {}, 0, &obs);
        QVERIFY2(obs.all().contains(QLatin1String("resuming run 'mid' from checkpoint #4 at epoch 2, step 8 (global "
                                                  "step 28); continuing at epoch 2, step 9")),
                 qPrintable(obs.all()));
        expectReference(done, h, "mid");
        Registry reg(h);
        auto sessions = reg.sessions(reg.find_run("mid")->id);
        QCOMPARE(sessions.size(), std::size_t(2));
        QCOMPARE(qs(savepoint::to_string(sessions[0].ended_by)), QStringLiteral("crash"));
        QCOMPARE(qs(savepoint::to_string(sessions[1].kind)), QStringLiteral("resume"));
        QCOMPARE(sessions[1].start_global_step, std::int64_t(28));
        QCOMPARE(sessions[1].steps_computed, std::int64_t(32));
        QCOMPARE(reg.branches(reg.find_run("mid")->id).size(), std::size_t(1));  // not a rollback
        // Events tell the story in order.
        std::vector<std::string> kinds;
        for (auto& e : reg.events(reg.find_run("mid")->id))
            if (e.kind != savepoint::EventKind::Checkpoint) kinds.push_back(savepoint::to_string(e.kind));
        QCOMPARE(kinds, (std::vector<std::string>{"start", "interruption", "resume", "finish"}));
        // Metrics: every step logged; the two steps computed twice (29 and 30, before the
        // crash and again after resuming from 28) have identical loss and accuracy.
        std::map<std::int64_t, std::vector<MetricRow>> bySteps;
        int validations = 0;
        for (auto& m : reg.metrics(reg.find_run("mid")->id)) {
            if (m.kind == MetricKind::TrainingStep)
                bySteps[m.global_step].push_back(m);
            else
                ++validations;
        }
        QCOMPARE(bySteps.size(), std::size_t(60));
        QCOMPARE(bySteps.begin()->first, std::int64_t(1));
        QCOMPARE(bySteps.rbegin()->first, std::int64_t(60));
        QCOMPARE(validations, 3);
        for (auto& [gs, rows] : bySteps) {
            QCOMPARE(rows.size(), std::size_t(gs == 29 || gs == 30 ? 2 : 1));
            if (rows.size() == 2) {
                QVERIFY(rows[0].session_id != rows[1].session_id);
                QCOMPARE(rows[0].loss, rows[1].loss);
                QCOMPARE(rows[0].accuracy, rows[1].accuracy);
            }
        }
    }

    void resumeFromACheckpointExactlyAtAnEpochBoundary() {
        // save every 10 with 20 steps per epoch: the checkpoint at global step 20 is "epoch 1, step 20".
        const std::string h = newHome();
        TrainConfig cfg = smallConfig();
        cfg.save_every_steps = 10;
        QCOMPARE(int(train(h, "edge", cfg, 25).outcome), int(Outcome::Crashed));
        {
            Registry reg(h);
            auto head = reg.checkpoint(*reg.find_run("edge")->head_checkpoint_id);
            QCOMPARE(head->global_step, std::int64_t(20));
            QCOMPARE(head->epoch, std::int64_t(1));
            QCOMPARE(head->step, std::int64_t(20));
            QVERIFY(!std::isnan(head->val_loss));  // saved after the epoch's validation
        }
        Collect obs;
        TrainResult done = resume(h, "edge", {}, 0, &obs);
        QVERIFY2(
            obs.all().contains(QLatin1String("at epoch 1, step 20 (global step 20); continuing at epoch 2, step 1")),
            qPrintable(obs.all()));
        expectReference(done, h, "edge");
    }

    void interruptionExactlyAtAnEpochBoundary() {
        // Per-epoch saves; killed right at the end of epoch 2 (global step 40), before its checkpoint.
        const std::string h = newHome();
        TrainConfig cfg = smallConfig();
        cfg.save_every_steps = 0;
        TrainResult crashed = train(h, "boundary", cfg, 40);
        QCOMPARE(crashed.global_step, std::int64_t(40));
        Collect obs;
        TrainResult done = resume(h, "boundary", {}, 0, &obs);
        QVERIFY2(obs.all().contains(QLatin1String("(global step 20); continuing at epoch 2, step 1")),
                 qPrintable(obs.all()));
        expectReference(done, h, "boundary");
    }

    void interruptionAtStepOneResumesFromTheBeginning() {
        const std::string h = newHome();
        TrainResult crashed = train(h, "first", smallConfig(), 1);
        QCOMPARE(int(crashed.outcome), int(Outcome::Crashed));
        QCOMPARE(crashed.global_step, std::int64_t(1));
        QVERIFY(!crashed.last_checkpoint_id.has_value());
        Collect obs;
        TrainResult done = resume(h, "first", {}, 0, &obs);
        QVERIFY2(obs.all().contains(QLatin1String(
                     "resuming run 'first' from the beginning (no usable checkpoint); continuing at epoch 1, step 1")),
                 qPrintable(obs.all()));
        expectReference(done, h, "first");
    }

    void repeatedInterruptions() {
        const std::string h = newHome();
        QCOMPARE(train(h, "many", smallConfig(), 15).global_step, std::int64_t(15));
        TrainResult second = resume(h, "many", {}, /*interrupt=*/45);
        QCOMPARE(int(second.outcome), int(Outcome::Crashed));
        QCOMPARE(second.global_step, std::int64_t(45));
        TrainResult third = resume(h, "many", {}, /*interrupt=*/50);
        QCOMPARE(third.global_step, std::int64_t(50));
        expectReference(resume(h, "many"), h, "many");
    }

    void preemptionWritesAnEmergencyCheckpoint() {
        const std::string h = newHome();
        Collect obs;
        TrainResult pre = train(h, "pre", smallConfig(), 0, /*preempt=*/33, &obs);
        QCOMPARE(int(pre.outcome), int(Outcome::Preempted));
        QCOMPARE(exit_code(pre.outcome), 3);
        QCOMPARE(pre.global_step, std::int64_t(33));
        const auto* why = std::get_if<savepoint::PreemptedReason>(&pre.reason);
        QVERIFY(why);
        QCOMPARE(int(why->how), int(savepoint::PreemptedReason::How::Emergency));
        QCOMPARE(why->at.global_step, std::int64_t(33));
        QCOMPARE(why->at.epoch, std::int64_t(2));
        QCOMPARE(why->at.step, std::int64_t(13));
        QCOMPARE(why->grace_seconds, 120.0);
        QVERIFY(why->save_ms >= 0 && !why->too_late);
        {
            Registry reg(h);
            auto run = reg.find_run("pre");
            QCOMPARE(qs(savepoint::to_string(run->status)), QStringLiteral("preempted"));
            auto head = reg.checkpoint(*run->head_checkpoint_id);
            QCOMPARE(qs(savepoint::to_string(head->kind)), QStringLiteral("emergency"));
            QCOMPARE(head->global_step, std::int64_t(33));
            QCOMPARE(head->epoch, std::int64_t(2));
            QCOMPARE(head->step, std::int64_t(13));
            QCOMPARE(head->parent_id.value_or(-1), committedAt(reg, run->id, 28)->id);
            QCOMPARE(qs(head->params_sha256), qs(pre.params_sha256));  // it holds exactly the live state
            std::set<std::string> kinds;
            for (auto& e : reg.events(run->id)) kinds.insert(savepoint::to_string(e.kind));
            QVERIFY(kinds.count("preemption_notice"));
            QVERIFY(kinds.count("preemption"));
        }
        Collect robs;
        TrainResult done = resume(h, "pre", {}, 0, &robs);
        QVERIFY2(robs.all().contains(QLatin1String("(global step 33); continuing at epoch 2, step 14")),
                 qPrintable(robs.all()));
        expectReference(done, h, "pre");
    }

    void preemptionAtAnEpochEnd() {
        const std::string h = newHome();
        TrainResult pre = train(h, "pre-end", smallConfig(), 0, 40);
        QCOMPARE(pre.global_step, std::int64_t(40));
        expectReference(resume(h, "pre-end"), h, "pre-end");
    }

    void preemptionRequestedFromAnotherThread() {
        const std::string h = newHome();
        TrainConfig cfg = smallConfig();
        cfg.epochs = 10;  // 200 steps: room for the request to land mid-run even on a busy machine
        TrainRequest req;
        req.home = h;
        req.run_name = "threaded";
        req.config = cfg;
        Collect obs;
        TrainResult r;
        {
            Trainer trainer(req, &obs);
            std::atomic<bool> stop{false};
            std::thread requester([&] {
                // After the first checkpoint (global step 7) is committed.
                while (!stop && obs.saved_count < 1) std::this_thread::sleep_for(std::chrono::microseconds(200));
                trainer.request_preempt();
            });
            r = trainer.run();
            stop = true;
            requester.join();
        }  // the Trainer holds the run's lock until it is destroyed
        QCOMPARE(int(r.outcome), int(Outcome::Preempted));
        QVERIFY2(r.global_step >= 7 && r.global_step < 200, qPrintable(QString::number(r.global_step)));
        {
            Registry reg(h);
            auto head = reg.checkpoint(*reg.find_run("threaded")->head_checkpoint_id);
            QCOMPARE(head->global_step, r.global_step);  // every completed step is saved
            QCOMPARE(qs(head->params_sha256), qs(r.params_sha256));
        }
        expectReference(resume(h, "threaded"), h, "threaded", referenceFor(cfg), 200);
    }

    void stopRequestSavesAndResumes() {
        const std::string h = newHome();
        TrainConfig cfg = smallConfig();
        cfg.epochs = 10;  // 200 steps: room for the request to land mid-run even on a busy machine
        TrainRequest req;
        req.home = h;
        req.run_name = "stopped";
        req.config = cfg;
        Collect obs;
        TrainResult r;
        {
            Trainer trainer(req, &obs);
            std::thread requester([&] {
                while (obs.saved_count < 1) std::this_thread::sleep_for(std::chrono::microseconds(200));
                trainer.request_stop();
            });
            r = trainer.run();
            requester.join();
        }
        QCOMPARE(int(r.outcome), int(Outcome::Stopped));
        const auto* why = std::get_if<savepoint::StoppedReason>(&r.reason);
        QVERIFY(why);
        QCOMPARE(why->at.global_step, r.global_step);
        Registry reg(h);
        auto head = reg.checkpoint(*reg.find_run("stopped")->head_checkpoint_id);
        QVERIFY2(r.global_step >= 7 && r.global_step < 200, qPrintable(QString::number(r.global_step)));
        QCOMPARE(head->global_step, r.global_step);
        // A manual checkpoint, unless the stop came right after a regular one at that very step.
        QVERIFY2(head->kind == savepoint::CheckpointKind::Manual ||
                     (head->kind == savepoint::CheckpointKind::Regular && r.global_step % 7 == 0),
                 savepoint::to_string(head->kind));
        expectReference(resume(h, "stopped"), h, "stopped", referenceFor(cfg), 200);
    }

    // --- rollback and replay --------------------------------------------------------------

    void rollbackToAnOlderCheckpointStartsABranch() {
        const std::string h = newHome();
        TrainResult first = train(h, "rb", smallConfig());
        QCOMPARE(qs(first.params_sha256), qs(ref_));
        Registry reg(h);
        const auto run = reg.find_run("rb")->id;
        const auto oldBranch = reg.find_run("rb")->active_branch_id;
        auto fork = committedAt(reg, run, 14);
        QVERIFY(fork.has_value());
        // What the old branch looks like before the rollback: rows and file hashes.
        std::map<std::int64_t, std::pair<std::string, QByteArray>> before;
        for (auto& c : reg.checkpoints(run))
            before[c.id] = {savepoint::to_string(c.state), testsupport::fileSha256(qs(reg.absolute(c.path)))};
        QCOMPARE(before.size(), std::size_t(9));
        const auto maxOld = reg.max_checkpoint_id();

        Collect obs;
        TrainResult done = resume(h, "rb", atCheckpoint(fork->id), 0, &obs);
        const QString expectMsg = QStringLiteral(
                                      "rolling back run 'rb' from checkpoint #%1 at epoch 1, step 14 (global step 14); "
                                      "continuing at epoch 1, step 15 on a new branch (#")
                                      .arg(fork->id);
        QVERIFY2(obs.all().contains(expectMsg), qPrintable(obs.all()));
        QVERIFY(obs.all().contains(QLatin1String("the old branch is kept")));
        expectReference(done, h, "rb");  // deterministic: the same bits as the first pass

        auto branches = reg.branches(run);
        QCOMPARE(branches.size(), std::size_t(2));
        const auto newBranch = branches[1].id;
        QCOMPARE(branches[1].parent_branch_id.value_or(-1), oldBranch);
        QCOMPARE(branches[1].fork_checkpoint_id.value_or(-1), fork->id);
        QCOMPARE(branches[1].fork_global_step, std::int64_t(14));
        QCOMPARE(reg.find_run("rb")->active_branch_id, newBranch);
        auto sessions = reg.sessions(run);
        QCOMPARE(qs(savepoint::to_string(sessions.back().kind)), QStringLiteral("rollback"));
        QCOMPARE(sessions.back().from_checkpoint_id.value_or(-1), fork->id);
        bool evented = false;
        for (auto& e : reg.events(run))
            evented = evented || (e.kind == savepoint::EventKind::Rollback && e.checkpoint_id.value_or(-1) == fork->id);
        QVERIFY(evented);

        // Old branch: every row in the same state, every file byte-identical.
        for (auto& [id, st] : before) {
            auto c = reg.checkpoint(id);
            QCOMPARE(qs(savepoint::to_string(c->state)), qs(st.first));
            QCOMPARE(c->branch_id, oldBranch);
            QVERIFY(!st.second.isEmpty());
            QCOMPARE(testsupport::fileSha256(qs(reg.absolute(c->path))), st.second);
        }
        // New branch: new ids, and re-trained steps reproduce the old branch's parameters exactly.
        std::int64_t newCount = 0;
        for (auto& c : reg.checkpoints(run)) {
            if (c.id <= maxOld) continue;
            ++newCount;
            QCOMPARE(c.branch_id, newBranch);
            for (auto& o : reg.checkpoints(run))
                if (o.id <= maxOld && o.global_step == c.global_step)
                    QCOMPARE(qs(c.params_sha256), qs(o.params_sha256));
        }
        QCOMPARE(newCount, std::int64_t(7));  // 21, 28, ..., 56 and the final 60
        // Parent chain from the new head back through the fork point to the start.
        std::vector<std::int64_t> chain;
        for (std::optional<std::int64_t> id = reg.find_run("rb")->head_checkpoint_id; id;
             id = reg.checkpoint(*id)->parent_id)
            chain.push_back(reg.checkpoint(*id)->global_step);
        QCOMPARE(chain, (std::vector<std::int64_t>{60, 56, 49, 42, 35, 28, 21, 14, 7}));
        QCOMPARE(reg.checkpoint(*reg.find_run("rb")->head_checkpoint_id)->branch_id, newBranch);
    }

    void rollbackWithRetentionDeletesNothingOfTheOldBranch() {
        const std::string h = newHome();
        TrainConfig cfg = smallConfig();
        cfg.keep = 2;
        train(h, "keep2", cfg, 15);  // #1 at 7, #2 at 14: both within keep 2
        Registry reg(h);
        const auto run = reg.find_run("keep2")->id;
        const QByteArray sha2 = testsupport::fileSha256(qs(reg.absolute(reg.checkpoint(2)->path)));
        Collect obs;
        TrainResult done = resume(h, "keep2", atCheckpoint(1), 0, &obs);  // rollback to global step 7
        QVERIFY2(obs.all().contains(QLatin1String("continuing at epoch 1, step 8 on a new branch")),
                 qPrintable(obs.all()));
        QCOMPARE(qs(done.params_sha256), qs(ref_));
        // The new branch saved 7 checkpoints with keep 2; the old branch's #2 (not the
        // fork, not pinned, no validation loss) is still there, untouched.
        QCOMPARE(qs(savepoint::to_string(reg.checkpoint(2)->state)), QStringLiteral("committed"));
        QCOMPARE(testsupport::fileSha256(qs(reg.absolute(reg.checkpoint(2)->path))), sha2);
        QVERIFY(reg.checkpoint(1)->usable());  // the fork point was protected during the session
        int deletedOnNewBranch = 0, usableOnNewBranch = 0;
        for (auto& c : reg.checkpoints(run)) {
            if (c.branch_id == reg.find_run("keep2")->active_branch_id) {
                deletedOnNewBranch += c.state == savepoint::CheckpointState::Deleted;
                usableOnNewBranch += c.usable();
            }
        }
        QVERIFY(deletedOnNewBranch >= 4);  // retention did run, on the new branch
        QVERIFY(usableOnNewBranch >= 2 && usableOnNewBranch <= 3);
    }

    void rollbackFromAnInterruptedRunToAnOldCheckpoint() {
        const std::string h = newHome();
        train(h, "rb2", smallConfig(), 50);
        std::int64_t target = 0;
        {
            Registry reg(h);
            target = committedAt(reg, reg.find_run("rb2")->id, 7)->id;
        }
        Collect obs;
        expectReference(resume(h, "rb2", atCheckpoint(target), 0, &obs), h, "rb2");
        QVERIFY(obs.all().contains(QLatin1String("continuing at epoch 1, step 8 on a new branch")));
    }

    void resumeAtEpochAndStepReplaysBackwards() {
        const std::string h = newHome();
        train(h, "replay", smallConfig(), 50);  // checkpoints 7..49
        Collect obs;
        TrainResult done = resume(h, "replay", atPosition(2, 5), 0, &obs);  // global 25: no checkpoint there
        QVERIFY2(obs.all().contains(
                     QLatin1String("rolling back run 'replay' from checkpoint #3 at epoch 2, step 1 (global step 21); "
                                   "replaying 4 steps to epoch 2, step 5; continuing at epoch 2, step 6")),
                 qPrintable(obs.all()));
        expectReference(done, h, "replay");
        Registry reg(h);
        auto s = reg.sessions(reg.find_run("replay")->id).back();
        QCOMPARE(s.steps_replayed, std::int64_t(4));
        QCOMPARE(s.start_global_step, std::int64_t(21));
        QCOMPARE(s.target_global_step, std::int64_t(25));
        QCOMPARE(reg.branches(reg.find_run("replay")->id).size(), std::size_t(2));
        // Replayed steps produce no metric rows of their own on the new branch.
        for (auto& m : reg.metrics(reg.find_run("replay")->id))
            if (m.session_id == s.id && m.kind == MetricKind::TrainingStep) QVERIFY(m.global_step > 25);
    }

    void resumeAtEpochAndStepReplaysForwardAcrossAnEpochEnd() {
        const std::string h = newHome();
        train(h, "fwd", smallConfig(), 15);  // head at 14
        Collect obs;
        TrainResult done = resume(h, "fwd", atPosition(2, 3), 0, &obs);  // global 23
        QVERIFY2(obs.all().contains(
                     QLatin1String("resuming run 'fwd' from checkpoint #2 at epoch 1, step 14 (global step 14); "
                                   "replaying 9 steps to epoch 2, step 3; continuing at epoch 2, step 4")),
                 qPrintable(obs.all()));
        expectReference(done, h, "fwd");
        Registry reg(h);
        QCOMPARE(reg.branches(reg.find_run("fwd")->id).size(), std::size_t(1));  // ahead of the head: no rollback
    }

    void resumeAtEpochAndStepOnACheckpointNeedsNoReplay() {
        const std::string h = newHome();
        train(h, "exact", smallConfig(), 30);
        Collect obs;
        TrainResult done = resume(h, "exact", atPosition(2, 1), 0, &obs);  // global 21 has a checkpoint
        QVERIFY(!obs.all().contains(QLatin1String("replaying")));
        QVERIFY2(obs.all().contains(QLatin1String("(global step 21); continuing at epoch 2, step 2")),
                 qPrintable(obs.all()));
        expectReference(done, h, "exact");
    }

    void resumeAtEpochStepZero() {
        const std::string h = newHome();
        train(h, "zero", smallConfig(), 30);
        Collect obs;
        TrainResult done = resume(h, "zero", atPosition(2, 0), 0, &obs);  // after epoch 1 = global 20
        QVERIFY2(
            obs.all().contains(QLatin1String("replaying 6 steps to epoch 1, step 20; continuing at epoch 2, step 1")),
            qPrintable(obs.all()));
        expectReference(done, h, "zero");
    }

    // --- damaged checkpoints ---------------------------------------------------------------

    void corruptHeadFallsBackToThePreviousCheckpoint() {
        const std::string h = newHome();
        train(h, "flip", smallConfig(), 30);  // head #4 at 28, #3 at 21
        std::string headPath;
        {
            Registry reg(h);
            auto head = reg.checkpoint(*reg.find_run("flip")->head_checkpoint_id);
            QCOMPARE(head->id, std::int64_t(4));
            headPath = reg.absolute(head->path);
        }
        // One bit in the middle of the parameters: the footer still looks fine.
        QVERIFY(testsupport::flipByte(qs(headPath), QFileInfo(qs(headPath)).size() / 2));
        Collect obs;
        TrainResult done = resume(h, "flip", {}, 0, &obs);
        const QString all = obs.all();
        QVERIFY2(all.contains(QStringLiteral("checkpoint #4 (epoch 2, step 8) is damaged and was skipped: ") +
                              qs(headPath) + QStringLiteral(": SHA-256: footer says ")),
                 qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("resuming run 'flip' from checkpoint #3 at epoch 2, step 1 (global step "
                                            "21); continuing at epoch 2, step 2")),
                 qPrintable(all));
        expectReference(done, h, "flip");
        Registry reg(h);
        QCOMPARE(qs(savepoint::to_string(reg.checkpoint(4)->state)), QStringLiteral("corrupt"));
        QVERIFY(QFileInfo::exists(qs(headPath)));  // kept for inspection
        // The new checkpoints continue the lineage from #3, not from the damaged one.
        auto c28 = committedAt(reg, reg.find_run("flip")->id, 28);
        QVERIFY(c28 && c28->id != 4);
        QCOMPARE(c28->parent_id.value_or(-1), std::int64_t(3));
    }

    void truncatedHeadIsCaughtAtOpenAndSkipped() {
        const std::string h = newHome();
        train(h, "cut", smallConfig(), 30);
        std::string headPath;
        {
            Registry reg(h);
            headPath = reg.absolute(reg.checkpoint(*reg.find_run("cut")->head_checkpoint_id)->path);
        }
        QVERIFY(testsupport::truncateFile(qs(headPath), QFileInfo(qs(headPath)).size() - 1000));
        Collect obs;
        TrainResult done = resume(h, "cut", {}, 0, &obs);
        QVERIFY2(obs.all().contains(QLatin1String("head checkpoint #4 is not usable; training will resume from "
                                                  "checkpoint #3 at epoch 2, step 1 (global step 21)")),
                 qPrintable(obs.all()));
        expectReference(done, h, "cut");
    }

    void severalDamagedCheckpointsInARow() {
        const std::string h = newHome();
        train(h, "two", smallConfig(), 30);  // #1 7, #2 14, #3 21, #4 28
        {
            Registry reg(h);
            for (std::int64_t id : {3, 4}) {
                const QString p = qs(reg.absolute(reg.checkpoint(id)->path));
                QVERIFY(testsupport::flipByte(p, 100));
            }
        }
        Collect obs;
        TrainResult done = resume(h, "two", {}, 0, &obs);
        QVERIFY(obs.all().contains(QLatin1String("checkpoint #4 (epoch 2, step 8) is damaged and was skipped")));
        QVERIFY(obs.all().contains(QLatin1String("checkpoint #3 (epoch 2, step 1) is damaged and was skipped")));
        QVERIFY2(obs.all().contains(QLatin1String("from checkpoint #2 at epoch 1, step 14 (global step 14)")),
                 qPrintable(obs.all()));
        expectReference(done, h, "two");
    }

    void explicitDamagedCheckpointIsRefused() {
        const std::string h = newHome();
        train(h, "bad", smallConfig(), 30);
        std::string p;
        {
            Registry reg(h);
            p = reg.absolute(reg.checkpoint(2)->path);
        }
        QVERIFY(testsupport::flipByte(qs(p), 200));
        QString err;
        try {
            resume(h, "bad", atCheckpoint(2));
        } catch (const InputError& e) {
            err = QString::fromStdString(e.what());
        }
        QVERIFY2(err.startsWith(
                     QLatin1String("--checkpoint: checkpoint #2 (epoch 1, step 14) is damaged and was skipped: ")),
                 qPrintable(err));
        // Nothing was trained or branched.
        Registry reg(h);
        QCOMPARE(reg.branches(reg.find_run("bad")->id).size(), std::size_t(1));
        QCOMPARE(reg.sessions(reg.find_run("bad")->id).size(), std::size_t(1));
    }

    void resumeOfAFinishedRunHasNothingToDo() {
        const std::string h = newHome();
        train(h, "fin", smallConfig());
        TrainResult r = resume(h, "fin");
        QCOMPARE(int(r.outcome), int(Outcome::NothingToDo));
        QCOMPARE(exit_code(r.outcome), 0);
        const auto* why = std::get_if<savepoint::NothingToDoReason>(&r.reason);
        QVERIFY(why);
        QCOMPARE(qs(why->run), QStringLiteral("fin"));
        QCOMPARE(why->finished_at, r.global_step);
        QCOMPARE(qs(r.params_sha256), qs(ref_));
        Registry reg(h);
        QCOMPARE(reg.sessions(reg.find_run("fin")->id).size(), std::size_t(1));
    }

    // --- retention in a real run ------------------------------------------------------------

    void retentionKeepsNewestBestHeadAndPinned() {
        const std::string h = newHome();
        TrainConfig cfg = smallConfig();
        cfg.keep = 2;
        cfg.save_every_steps = 5;
        cfg.epochs = 3;
        QCOMPARE(int(train(h, "ret", cfg, 26).outcome), int(Outcome::Crashed));
        std::int64_t pinned = 0;
        {
            Registry reg(h);
            auto run = reg.find_run("ret");
            // keep 2 + best: at most 3 usable, the head among them.
            int usable = 0;
            for (auto& c : reg.checkpoints(run->id)) usable += c.usable();
            QVERIFY(usable >= 2 && usable <= 3);
            QVERIFY(reg.checkpoint(*run->head_checkpoint_id)->usable());
            QCOMPARE(reg.checkpoint(*run->head_checkpoint_id)->global_step, std::int64_t(25));
            pinned = committedAt(reg, run->id, 25)->id;
            reg.set_checkpoint_pinned(pinned, true);
            for (auto& c : reg.checkpoints(run->id)) {
                const bool exists = QFileInfo::exists(qs(reg.absolute(c.path)));
                QCOMPARE(exists, c.usable());
                if (c.state == savepoint::CheckpointState::Deleted)
                    QVERIFY(qs(c.state_detail).contains(QLatin1String("keep 2")));
            }
        }
        TrainResult done = resume(h, "ret");
        QCOMPARE(int(done.outcome), int(Outcome::Finished));
        QCOMPARE(qs(done.params_sha256), qs(ref_));
        Registry reg(h);
        auto run = reg.find_run("ret");
        QVERIFY(reg.checkpoint(pinned)->usable());
        QVERIFY(QFileInfo::exists(qs(reg.absolute(reg.checkpoint(pinned)->path))));
        // Newest two of the branch are usable.
        auto rows = reg.checkpoints(run->id);
        std::vector<CheckpointRow> committed;
        for (auto& c : rows)
            if (c.usable()) committed.push_back(c);
        std::sort(committed.begin(), committed.end(), [](auto& a, auto& b) { return a.global_step > b.global_step; });
        QCOMPARE(committed[0].global_step, std::int64_t(60));
        QCOMPARE(committed[1].global_step, std::int64_t(55));
        // The best by validation loss among all that were ever saved is still there.
        double best = INFINITY;
        for (auto& c : rows)
            if (!std::isnan(c.val_loss) && c.val_loss < best) best = c.val_loss;
        bool bestKept = false;
        for (auto& c : committed) bestKept = bestKept || c.val_loss == best;
        QVERIFY(bestKept);
        QVERIFY(committed.size() <= 4);  // 2 newest + best + pinned
    }

    // --- through the real savepoint-cli -------------------------------------------------------

    void tfGuideScenarioThroughTheCli() {
        const QString home = qs(newHome());
        // The uninterrupted run.
        CliResult full = testsupport::runCli(tfArgs(home, "full"));
        QVERIFY2(full.exitCode == 0, full.describe());
        tfRef_ = testsupport::paramsShaFromOutput(full.out);
        QCOMPARE(tfRef_.size(), 64);
        QJsonArray fullCks = testsupport::checkpointsJson(home, "full");
        // Keras save_freq=30 counted across epochs: 30, 60, ..., 990, then the final 1000.
        QList<qint64> steps;
        for (const auto& v : fullCks) steps << v.toObject().value("global_step").toInteger();
        QList<qint64> expected;
        for (qint64 g = 30; g < 1000; g += 30) expected << g;
        expected << 1000;
        QCOMPARE(steps, expected);
        QCOMPARE(testsupport::headOf(fullCks).value("params_sha256").toString(), tfRef_);

        // Interrupted at global step 140.
        CliResult crashed = testsupport::runCli(tfArgs(home, "tf", {"--interrupt-at-step", "140"}));
        QVERIFY2(crashed.exitCode == 3, crashed.describe());
        QVERIFY2(crashed.out.contains(QLatin1String("simulated crash after global step 140")), crashed.describe());
        QVERIFY(crashed.out.contains(QLatin1String("resume with: savepoint-cli resume --run tf")));
        QJsonArray cks = testsupport::checkpointsJson(home, "tf");
        QCOMPARE(cks.size(), 4);  // 30, 60, 90, 120: nothing beyond the regular checkpoints
        QJsonObject latest = testsupport::newestUsable(cks);
        QCOMPARE(latest.value("epoch").toInteger(), 2);
        QCOMPARE(latest.value("step").toInteger(), 20);
        QCOMPARE(latest.value("global_step").toInteger(), 120);
        QVERIFY(latest.value("head").toBool());
        // The run registry agrees.
        QJsonArray runs = testsupport::runsJson(home);
        QJsonObject tfRun;
        for (const auto& v : runs)
            if (v.toObject().value("name").toString() == "tf") tfRun = v.toObject();
        QCOMPARE(tfRun.value("status").toString(), QStringLiteral("interrupted"));
        QCOMPARE(tfRun.value("head").toInteger(), latest.value("id").toInteger());
        QCOMPARE(tfRun.value("global_step").toInteger(), 140);

        CliResult resumed = testsupport::runCli({"resume", "--home", home, "--run", "tf"});
        QVERIFY2(resumed.exitCode == 0, resumed.describe());
        QVERIFY2(resumed.out.contains(QLatin1String("continuing at epoch 2, step 21")), resumed.describe());
        QVERIFY2(resumed.out.contains(QLatin1String("at epoch 2, step 20 (global step 120)")), resumed.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(resumed.out), tfRef_);
        QJsonObject head = testsupport::headOf(testsupport::checkpointsJson(home, "tf"));
        QCOMPARE(head.value("global_step").toInteger(), 1000);
        QCOMPARE(head.value("params_sha256").toString(), tfRef_);
        // And verify finds every file intact.
        CliResult verify = testsupport::runCli({"verify", "--home", home});
        QVERIFY2(verify.exitCode == 0, verify.describe());
    }

    // smallConfig() through the CLI: its result must equal the engine API's bit for bit.
    QStringList smallArgs(const QString& home, const QString& run, const QStringList& extra = {}) {
        return testsupport::trainArgs(home, run, 3, 20, QStringLiteral("7"), extra);
    }

    void cliAndEngineApiAgree() {
        const QString home = qs(newHome());
        CliResult full = testsupport::runCli(smallArgs(home, "same", {"--keep", "100"}));
        QVERIFY2(full.exitCode == 0, full.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(full.out), qs(ref_));
        QCOMPARE(testsupport::headOf(testsupport::checkpointsJson(home, "same")).value("params_sha256").toString(),
                 qs(ref_));
    }

    void cliPreemptAtStep() {
        const QString home = qs(newHome());
        CliResult pre = testsupport::runCli(smallArgs(home, "pre", {"--preempt-at-step", "33"}));
        QVERIFY2(pre.exitCode == 3, pre.describe());
        QVERIFY2(pre.out.contains(
                     QLatin1String("preemption_notice: preemption notice at epoch 2, step 13 (global step 33)")),
                 pre.describe());
        QVERIFY2(pre.out.contains(QLatin1String("preempted: emergency checkpoint at epoch 2, step 13 written in ")),
                 pre.describe());
        QJsonObject head = testsupport::headOf(testsupport::checkpointsJson(home, "pre"));
        QCOMPARE(head.value("kind").toString(), QStringLiteral("emergency"));
        QCOMPARE(head.value("global_step").toInteger(), 33);
        QCOMPARE(head.value("epoch").toInteger(), 2);
        QCOMPARE(head.value("step").toInteger(), 13);
        QCOMPARE(head.value("params_sha256").toString(), testsupport::paramsShaFromOutput(pre.out));
        QCOMPARE(testsupport::runsJson(home).at(0).toObject().value("status").toString(), QStringLiteral("preempted"));
        CliResult resumed = testsupport::runCli({"resume", "--home", home, "--run", "pre"});
        QVERIFY2(resumed.exitCode == 0, resumed.describe());
        QVERIFY2(resumed.out.contains(QLatin1String("(global step 33); continuing at epoch 2, step 14")),
                 resumed.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(resumed.out), qs(ref_));
    }

    void cliSigtermMidRun() {
        QVERIFY2(!tfRef_.isEmpty(), "needs tfGuideScenarioThroughTheCli");
        const QString home = qs(newHome());
        QProcess p;
        p.setProcessEnvironment(testsupport::cliEnvironment());
        p.start(testsupport::cliPath(), tfArgs(home, "term"));
        QVERIFY(p.waitForStarted(30000));
        QByteArray out;
        // Wait until it is training (the first progress line), then give it a moment.
        const bool training = testsupport::waitUntil(
            [&] {
                p.waitForReadyRead(20);
                out += p.readAllStandardOutput();
                return out.contains(" global ");
            },
            120000);
        QVERIFY2(training, out.constData());
        QThread::msleep(50);
        p.terminate();  // SIGTERM
        QVERIFY(p.waitForFinished(120000));
        out += p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 3, (out + err).constData());
        QVERIFY2(out.contains("preemption_notice: preemption notice at"), out.constData());
        QJsonArray cks = testsupport::checkpointsJson(home, "term");
        QJsonObject head = testsupport::headOf(cks);
        const qint64 stoppedAt = head.value("global_step").toInteger();
        QVERIFY2(stoppedAt > 0 && stoppedAt < 1000, "SIGTERM must land mid-run for this test to mean anything");
        // Every completed step is saved: an emergency checkpoint, or (if the notice
        // came right after a regular save) that regular checkpoint.
        const QString kind = head.value("kind").toString();
        QVERIFY2(kind == "emergency" || (kind == "regular" && stoppedAt % 30 == 0), qPrintable(kind));
        QJsonObject run = testsupport::runsJson(home).at(0).toObject();
        QCOMPARE(run.value("status").toString(), QStringLiteral("preempted"));
        QCOMPARE(run.value("global_step").toInteger(), stoppedAt);
        CliResult resumed = testsupport::runCli({"resume", "--home", home, "--run", "term"});
        QVERIFY2(resumed.exitCode == 0, resumed.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(resumed.out), tfRef_);
    }

    void cliRollbackReplayAndCorruptHead() {
        const QString home = qs(newHome());
        CliResult crashed =
            testsupport::runCli(smallArgs(home, "cli", {"--interrupt-at-step", "50"}));  // keep 5 (default)
        QVERIFY2(crashed.exitCode == 3, crashed.describe());
        QJsonObject head = testsupport::headOf(testsupport::checkpointsJson(home, "cli"));
        QCOMPARE(head.value("global_step").toInteger(), 49);
        // Flip a byte in the head: resume must fall back to 42 and say so.
        QVERIFY(testsupport::flipByte(head.value("path").toString(), head.value("bytes").toInteger() / 3));
        CliResult fallback =
            testsupport::runCli({"resume", "--home", home, "--run", "cli", "--interrupt-at-step", "45"});
        QVERIFY2(fallback.exitCode == 3, fallback.describe());
        QVERIFY2(fallback.out.contains(QStringLiteral("checkpoint #%1 (epoch 3, step 9) is damaged and was skipped: ")
                                           .arg(head.value("id").toInteger()) +
                                       head.value("path").toString() + QStringLiteral(": SHA-256: footer says ")),
                 fallback.describe());
        QVERIFY2(
            fallback.out.contains(QLatin1String("at epoch 3, step 2 (global step 42); continuing at epoch 3, step 3")),
            fallback.describe());
        // verify names it.
        CliResult verify = testsupport::runCli({"verify", "--home", home, "--run", "cli"});
        QCOMPARE(verify.exitCode, 1);
        QVERIFY2(verify.err.contains(QStringLiteral("DAMAGED cli #%1 ").arg(head.value("id").toInteger()) +
                                     head.value("path").toString()),
                 verify.describe());
        // Roll back to epoch 2, step 5 (global 25): no checkpoint there, so from 21 with 4 steps replayed.
        CliResult rb = testsupport::runCli(
            {"resume", "--home", home, "--run", "cli", "--epoch", "2", "--step", "5", "--interrupt-at-step", "30"});
        QVERIFY2(rb.exitCode == 3, rb.describe());
        QVERIFY2(rb.out.contains(QLatin1String(
                     "rolling back run 'cli' from checkpoint #3 at epoch 2, step 1 (global step 21); replaying 4 steps "
                     "to epoch 2, step 5; continuing at epoch 2, step 6 on a new branch")),
                 rb.describe());
        // Then a plain resume continues the new branch to the end: identical to the uninterrupted run.
        CliResult fin = testsupport::runCli({"resume", "--home", home, "--run", "cli"});
        QVERIFY2(fin.exitCode == 0, fin.describe());
        QVERIFY2(fin.out.contains(QLatin1String("(global step 28); continuing at epoch 2, step 9")), fin.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(fin.out), qs(ref_));
        // Both branches are listed; the damaged checkpoint stays corrupt; the old branch's
        // committed checkpoints are still there, their files intact.
        QJsonArray after = testsupport::checkpointsJson(home, "cli");
        int corrupt = 0, oldCommitted = 0;
        QSet<qint64> branches;
        for (const auto& v : after) {
            QJsonObject c = v.toObject();
            branches.insert(c.value("branch").toInteger());
            if (c.value("state").toString() == "corrupt") ++corrupt;
            if (c.value("branch").toInteger() == 1 && c.value("state").toString() == "committed") {
                ++oldCommitted;
                QCOMPARE(testsupport::checkpointChecksum(c.value("path").toString()), c.value("sha256").toString());
            }
        }
        QCOMPARE(branches.size(), 2);
        QCOMPARE(corrupt, 1);
        QVERIFY(oldCommitted >= 4);  // 21, 28, 35, 42 (keep 5 minus the damaged one) at least
        QCOMPARE(testsupport::runCli({"verify", "--home", home, "--run", "cli"}).exitCode,
                 1);  // still names the damaged one
    }
};

QTEST_GUILESS_MAIN(TestResume)
#include "test_resume.moc"
