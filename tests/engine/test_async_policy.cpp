// Tests for the async checkpoint policies (TrainConfig::async_policy, the
// trainer's checkpoint() and regular_save()): what happens when a save falls
// due while the previous one is still being written. A save is made slow the
// way a slow disk would: the observer's on_checkpoint_saved runs on the I/O
// thread before the save stops being "in flight", and it sleeps there. Each
// policy is checked in the registry the CLI and the GUI read (checkpoint rows
// and events), for the training thread's stall, and for bits: no policy may
// change what is trained, and a checkpoint taken late resumes bit-exactly.
// Also here: what the trainer says about where that I/O runs.
#include "platform/io_affinity.h"
#include "platform/io_thread_policy.h"
#include "registry/registry.h"
#include "train_configs.h"
#include "training/trainer.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

using namespace savepoint;

namespace {

// A save stays in flight for about twelve steps while one falls due every
// eight: the next is always due before the previous commits, and (with
// 'defer') can still be taken before the one after it is due. That holds for
// a save of 8 to 16 steps, so the pattern survives steps a third slower or
// faster than measured (a loaded machine, a sanitizer build). In steps, not
// milliseconds: the step time is measured before the run and then followed
// through the run's own progress reports.
constexpr double kSaveSteps = 12;
constexpr std::int64_t kSaveEvery = 8;

class SlowDisk : public TrainerObserver {
public:
    explicit SlowDisk(double step_ms) : step_ms_(step_ms) {}
    void on_progress(const Progress& p) override {
        if (p.steps_per_second > 0 && p.global_step >= kSaveEvery) step_ms_ = 1000 / p.steps_per_second;
    }
    void on_checkpoint_saved(const CheckpointRow&) override {
        std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(step_ms_ * kSaveSteps));
    }
    double stepMs() const { return step_ms_; }

private:
    std::atomic<double> step_ms_;
};

class Messages : public TrainerObserver {
public:
    void on_message(const std::string& m) override {
        std::lock_guard<std::mutex> l(mutex_);
        all.push_back(m);
    }
    std::vector<std::string> all;

private:
    std::mutex mutex_;
};

// Which scheduling policy the I/O thread (on_checkpoint_saved) and the
// training thread (on_progress) run under.
class PolicyProbe : public TrainerObserver {
public:
    void on_progress(const Progress&) override {
        if (runs_as_batch()) training_batch = true;
    }
    void on_checkpoint_saved(const CheckpointRow&) override {
        ++saves;
        if (runs_as_batch()) ++io_batch;
    }
    std::atomic<int> saves{0}, io_batch{0};
    std::atomic<bool> training_batch{false};
};

TrainConfig config(const std::string& policy) {
    // Batch 256: a step of a few ms, well above a capture's stall.
    TrainConfig c = testsupport::syntheticMlp(2, 48, 256, kSaveEvery);
    c.keep = 1000;
    c.device = "cpu";
    c.seed = 7;
    c.async_policy = policy;
    return c;
}

struct PolicyRun {
    TrainResult result;
    std::vector<CheckpointRow> regular;  // committed, in order
    std::vector<EventRow> skipped, deferred;
};

PolicyRun trainWith(const std::string& home, const std::string& policy, TrainerObserver* obs,
                    std::int64_t save_blocks = 0, CaptureMode capture = CaptureMode::Auto, std::int64_t threads = 1) {
    TrainRequest r;
    r.hooks.save_blocks = save_blocks;
    r.capture = capture;
    r.home = home;
    r.run_name = "r";
    r.config = config(policy);
    r.config.threads = threads;
    r.hooks.record_step_times = true;
    PolicyRun o;
    {
        Trainer t(r, obs);
        o.result = t.run();
    }
    Registry reg(home);
    for (auto& c : reg.checkpoints(o.result.run_id))
        if (c.state == savepoint::CheckpointState::Committed && c.kind == savepoint::CheckpointKind::Regular)
            o.regular.push_back(c);
    std::sort(o.regular.begin(), o.regular.end(),
              [](const auto& a, const auto& b) { return a.global_step < b.global_step; });
    for (auto& e : reg.events(o.result.run_id)) {
        if (e.kind == savepoint::EventKind::SaveSkipped) o.skipped.push_back(e);
        if (e.kind == savepoint::EventKind::SaveDeferred) o.deferred.push_back(e);
    }
    return o;
}

// Global steps at which a regular save falls due (the last step saves as 'final').
std::vector<std::int64_t> duePoints() {
    const TrainConfig c = config("wait");
    std::vector<std::int64_t> out;
    for (std::int64_t gs = c.save_every_steps; gs < c.epochs * c.steps_per_epoch; gs += c.save_every_steps)
        out.push_back(gs);
    return out;
}

}  // namespace

class TestAsyncPolicy : public QObject {
    Q_OBJECT

private:
    QTemporaryDir root_;
    std::string reference_;  // final params_sha256, saves quick and policy 'wait'
    double stepMs_ = 0;      // median step time of that run

    std::string home(const char* name) { return root_.path().toStdString() + "/" + name; }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(root_.isValid());
        PolicyRun o = trainWith(home("quick"), "wait", nullptr);
        QCOMPARE(int(o.result.outcome), int(Outcome::Finished));
        reference_ = o.result.params_sha256;
        // The median gap between step starts: a step, without the odd wait for a save.
        std::vector<double> gaps;
        const auto& t = o.result.step_started_at;
        for (std::size_t i = 1; i < t.size(); ++i) gaps.push_back(1000 * (t[i] - t[i - 1]));
        QVERIFY(gaps.size() > 10);
        std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
        stepMs_ = gaps[gaps.size() / 2];
        qInfo("a step takes %.2f ms; a slow save %.1f ms", stepMs_, stepMs_ * kSaveSteps);
        QCOMPARE(qsizetype(o.regular.size()), qsizetype(duePoints().size()));
    }

    // bench_train's interleaved schedule: due points save only inside the odd-numbered
    // blocks of global steps (1..N, 2N+1..3N, ...), and the bits do not change.
    void saveBlocksSaveOnlyEveryOtherBlock() {
        const std::int64_t block = 2 * kSaveEvery;
        PolicyRun o = trainWith(home("blocks"), "wait", nullptr, block);
        QCOMPARE(int(o.result.outcome), int(Outcome::Finished));
        QCOMPARE(o.result.params_sha256, reference_);
        std::vector<std::int64_t> expected, at;
        for (std::int64_t gs : duePoints())
            if (((gs - 1) / block) % 2 == 0) expected.push_back(gs);
        for (const auto& c : o.regular) at.push_back(c.global_step);
        QVERIFY(!expected.empty() && expected.size() < duePoints().size());
        QCOMPARE(at, expected);
        QCOMPARE(o.result.checkpoints_requested, std::int64_t(expected.size()) + 1);  // and the final one
    }

    // Auto copies the snapshot when training leaves a CPU to the I/O thread and
    // keeps the live buffers when training uses them all; either way, the bits are the same.
    void captureFollowsTheCpusLeftToTheIoThread() {
        QVERIFY(!capture_is_copy_free(CaptureMode::Auto, 1, 2));
        QVERIFY(!capture_is_copy_free(CaptureMode::Auto, 3, 8));
        QVERIFY(capture_is_copy_free(CaptureMode::Auto, 2, 2));
        QVERIFY(capture_is_copy_free(CaptureMode::Auto, 1, 1));
        QVERIFY(capture_is_copy_free(CaptureMode::CopyFree, 1, 2));
        QVERIFY(!capture_is_copy_free(CaptureMode::Copying, 2, 2));

        const int cpus = available_cpus();
        const PolicyRun spare = trainWith(home("capture-spare"), "wait", nullptr, 0, CaptureMode::Auto, 1);
        const PolicyRun all = trainWith(home("capture-all"), "wait", nullptr, 0, CaptureMode::Auto, cpus);
        const PolicyRun forced = trainWith(home("capture-forced"), "wait", nullptr, 0, CaptureMode::CopyFree, 1);
        const PolicyRun copying = trainWith(home("capture-copying"), "wait", nullptr, 0, CaptureMode::Copying, 1);
        for (const PolicyRun* o : {&spare, &all, &forced, &copying}) {
            QCOMPARE(int(o->result.outcome), int(Outcome::Finished));
            QVERIFY(o->result.checkpoints_requested > 1);
        }
        QCOMPARE(spare.result.copy_free_captures, cpus > 1 ? std::int64_t(0) : spare.result.checkpoints_requested);
        QCOMPARE(all.result.copy_free_captures, all.result.checkpoints_requested);
        QCOMPARE(forced.result.copy_free_captures, forced.result.checkpoints_requested);
        QCOMPARE(copying.result.copy_free_captures, std::int64_t(0));
        // Same config, so the same bits; the thread count can change them, so that run only with itself.
        std::vector<std::string> want;
        for (const auto& c : copying.regular) want.push_back(c.params_sha256);
        for (const PolicyRun* o : {&spare, &forced, &copying}) {
            QCOMPARE(o->result.params_sha256, reference_);
            std::vector<std::string> got;
            for (const auto& c : o->regular) got.push_back(c.params_sha256);
            QCOMPARE(got, want);  // each checkpoint holds the parameters of its own step
        }
    }

    // 'wait': every due point is saved on time, and the training thread pays for the slow disk.
    void waitSavesEveryDuePoint() {
        SlowDisk slow(stepMs_);
        PolicyRun o = trainWith(home("wait"), "wait", &slow);
        QCOMPARE(o.result.params_sha256, reference_);
        std::vector<std::int64_t> at;
        for (const auto& c : o.regular) at.push_back(c.global_step);
        QCOMPARE(at, duePoints());
        QVERIFY(o.skipped.empty());
        QVERIFY(o.deferred.empty());
        QCOMPARE(o.result.saves_skipped, std::int64_t(0));
        QCOMPARE(o.result.saves_deferred, std::int64_t(0));
        // A save is due every 8 steps and takes about 12: captures wait ~4 steps.
        double longest = 0;
        for (const auto& c : o.regular) longest = std::max(longest, c.stall_ms);
        QVERIFY2(longest > stepMs_, qPrintable(QString::number(longest)));
        // Those waits are counted apart from the capture itself: most captures waited,
        // and the waiting is part of the stall, not more than it.
        QVERIFY2(o.result.saves_waited * 2 > o.result.checkpoints_requested,
                 qPrintable(QString("%1 of %2").arg(o.result.saves_waited).arg(o.result.checkpoints_requested)));
        QVERIFY(o.result.saves_waited <= o.result.checkpoints_requested);
        QVERIFY(o.result.save_wait_seconds * 1000 > stepMs_);
        QVERIFY(o.result.save_wait_seconds <= o.result.checkpoint_stall_seconds);
    }

    // 'skip': saves only at due points; every due point is saved or recorded as skipped.
    void skipRecordsWhatItDrops() {
        SlowDisk slow(stepMs_);
        PolicyRun o = trainWith(home("skip"), "skip", &slow);
        QCOMPARE(o.result.params_sha256, reference_);
        const auto due = duePoints();
        for (const auto& c : o.regular) QVERIFY(std::find(due.begin(), due.end(), c.global_step) != due.end());
        QVERIFY(!o.skipped.empty());
        QCOMPARE(std::int64_t(o.skipped.size()), o.result.saves_skipped);
        QCOMPARE(qsizetype(o.regular.size() + o.skipped.size()), qsizetype(due.size()));
        QVERIFY(o.deferred.empty());
        for (const auto& c : o.regular) QVERIFY2(c.stall_ms < 3 * stepMs_, qPrintable(QString::number(c.stall_ms)));
        // Only the final checkpoint, which is never skipped, may wait.
        QVERIFY2(o.result.saves_waited <= 1, qPrintable(QString::number(o.result.saves_waited)));
    }

    // 'defer': a save due while one is writing is taken at a later step boundary, never waited
    // for; each due point is on time, deferred or (overtaken by the next) skipped, and says so.
    void deferTakesTheSaveLate() {
        SlowDisk slow(stepMs_);
        PolicyRun o = trainWith(home("defer"), "defer", &slow);
        QCOMPARE(o.result.params_sha256, reference_);
        const auto due = duePoints();
        std::int64_t onTime = 0, late = 0;
        for (const auto& c : o.regular) {
            (std::find(due.begin(), due.end(), c.global_step) != due.end() ? onTime : late) += 1;
            QVERIFY2(c.stall_ms < 3 * stepMs_, qPrintable(QString::number(c.stall_ms)));
        }
        qInfo("%lld due points: %lld saved on time, %lld deferred (%lld steps late in all), %lld skipped",
              static_cast<long long>(due.size()), static_cast<long long>(onTime),
              static_cast<long long>(o.result.saves_deferred), static_cast<long long>(o.result.steps_deferred),
              static_cast<long long>(o.result.saves_skipped));
        QVERIFY2(late > 0, "no checkpoint was taken between due points");
        QCOMPARE(std::int64_t(o.deferred.size()), o.result.saves_deferred);
        QCOMPARE(std::int64_t(o.skipped.size()), o.result.saves_skipped);
        // A late regular checkpoint is a deferred one; the final one may carry the last deferral.
        QVERIFY(o.result.saves_deferred == late || o.result.saves_deferred == late + 1);
        QCOMPARE(onTime + o.result.saves_deferred + o.result.saves_skipped, std::int64_t(due.size()));
        QVERIFY(o.result.steps_deferred >= o.result.saves_deferred);
        QVERIFY2(o.result.saves_waited <= 1, qPrintable(QString::number(o.result.saves_waited)));  // the final one
        // Defer keeps more checkpoints than skip would have: each one it takes is one skip drops.
        QVERIFY(o.result.saves_deferred > 0);
        for (const auto& e : o.deferred) {
            QVERIFY2(QString::fromStdString(e.message).contains(QLatin1String("(policy: defer)")), e.message.c_str());
            QVERIFY2(QString::fromStdString(e.message).startsWith(QLatin1String("checkpoint due at epoch ")),
                     e.message.c_str());
        }
    }

    // A checkpoint taken late is as exact as one on time: resuming from it ends with the same bits.
    void deferredCheckpointResumesBitExactly() {
        Registry reg(home("defer"));
        const auto due = duePoints();
        std::optional<CheckpointRow> lateOne;
        for (auto& c : reg.checkpoints(reg.find_run("r")->id))
            if (c.state == savepoint::CheckpointState::Committed && c.kind == savepoint::CheckpointKind::Regular &&
                std::find(due.begin(), due.end(), c.global_step) == due.end()) {
                lateOne = c;
                break;
            }
        QVERIFY(lateOne.has_value());
        TrainRequest r;
        r.home = home("defer");
        r.run_name = "r";
        r.resume = true;
        r.target.checkpoint_id = lateOne->id;
        Trainer t(r, nullptr);
        const TrainResult res = t.run();
        QCOMPARE(int(res.outcome), int(Outcome::Finished));
        QCOMPARE(res.params_sha256, reference_);
    }

    // Where the I/O thread runs is said at the start, and so is the cost when training
    // leaves it no CPU of its own (SAVEPOINT_IO_CPUS stands in for the disk's interrupt CPU).
    // The I/O thread runs as SCHED_BATCH, which keeps it from preempting the
    // thread that hands it a save, only when training leaves it no CPU of its
    // own, pinned or not; the training thread never changes policy.
    void ioThreadDefersToTrainingOnlyWithoutACpuOfItsOwn() {
        QVERIFY(!io_shares_training_cpus(1, 1, 2));
        QVERIFY(!io_shares_training_cpus(1, 0, 2));
        QVERIFY(io_shares_training_cpus(2, 1, 2));
        QVERIFY(io_shares_training_cpus(2, 0, 2));
        QVERIFY(io_shares_training_cpus(3, 2, 4));
        QVERIFY(!io_shares_training_cpus(3, 1, 4));
        QVERIFY(io_shares_training_cpus(1, 0, 1));

        const int cpus = available_cpus();
        int run = 0;
        for (const char* io_cpus : {"0", "off"}) {
            qputenv("SAVEPOINT_IO_CPUS", io_cpus);
            for (std::int64_t threads : {std::int64_t(cpus), std::int64_t(cpus - 1)}) {
                if (threads < 1) continue;
                PolicyProbe probe;
                const PolicyRun o = trainWith(home(("policy" + std::to_string(run++)).c_str()), "wait", &probe, 0,
                                              CaptureMode::Auto, threads);
                QCOMPARE(int(o.result.outcome), int(Outcome::Finished));
                QVERIFY(probe.saves.load() > 1);
                const bool shares = threads == cpus;
                QCOMPARE(probe.io_batch.load(), shares ? probe.saves.load() : 0);
                QVERIFY(!probe.training_batch.load());
                if (threads == 1) QCOMPARE(o.result.params_sha256, reference_);  // the policy changes no bits
            }
        }
        qunsetenv("SAVEPOINT_IO_CPUS");
        QVERIFY(!runs_as_batch());
    }

    void ioPlacementIsSaid() {
        const int cpus = available_cpus();
        qputenv("SAVEPOINT_IO_CPUS", "0");
        auto startMessage = [&](std::int64_t threads) {
            Messages m;
            TrainRequest r;
            r.home = home("placement");
            r.run_name = "t" + std::to_string(threads);
            r.config = config("wait");
            r.config.epochs = 1;
            r.config.steps_per_epoch = 2;
            r.config.threads = threads;
            Trainer t(r, &m);
            t.run();
            for (const auto& s : m.all)
                if (s.rfind("checkpoint I/O on CPU ", 0) == 0) return s;
            return std::string();
        };
        const std::string shared = startMessage(cpus);
        const std::string own = cpus > 1 ? startMessage(cpus - 1) : std::string();
        qunsetenv("SAVEPOINT_IO_CPUS");
        if (cpus == 1) {
            // Nothing to leave the I/O: the message says where it runs and suggests nothing.
            QCOMPARE(QString::fromStdString(shared),
                     QStringLiteral("checkpoint I/O on CPU 0 (where the disk's interrupts land)"));
            return;
        }
        QCOMPARE(QString::fromStdString(shared),
                 QStringLiteral(
                     "checkpoint I/O on CPU 0 (where the disk's interrupts land); training uses every CPU, so each "
                     "save takes CPU time from it (%1 would leave CPU 0 to checkpoint I/O)")
                     .arg(cpus - 1 == 1 ? QStringLiteral("1 training thread")
                                        : QStringLiteral("%1 training threads").arg(cpus - 1)));
        QCOMPARE(QString::fromStdString(own),
                 QStringLiteral("checkpoint I/O on CPU 0 (where the disk's interrupts land); training kept off it"));
    }
};

QTEST_GUILESS_MAIN(TestAsyncPolicy)
#include "test_async_policy.moc"
