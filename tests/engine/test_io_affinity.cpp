// io_affinity (engine/platform/io_affinity.cpp): the SAVEPOINT_IO_CPUS override and its
// refusals, the storage lookup on this machine's real disk, a pinned thread
// getting its old mask back, and the checkpoint writer's I/O thread running
// on the CPUs it was given, as SCHED_BATCH when it shares them with training
// (io_thread_policy.h).
#include "checkpoint/checkpoint_writer.h"
#include "platform/io_affinity.h"
#include "platform/io_thread_policy.h"

#include <QtTest>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

using namespace savepoint;

namespace {

std::vector<int> current_mask() {
    cpu_set_t set;
    CPU_ZERO(&set);
    pthread_getaffinity_np(pthread_self(), sizeof set, &set);
    std::vector<int> out;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) out.push_back(c);
    return out;
}

struct EnvOverride {
    explicit EnvOverride(const char* value) { ::setenv("SAVEPOINT_IO_CPUS", value, 1); }
    ~EnvOverride() { ::unsetenv("SAVEPOINT_IO_CPUS"); }
};

}  // namespace

class TestIoAffinity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void overrideListsCpusOrTurnsItOff() {
        {
            EnvOverride e("1,3-4");
            QCOMPARE(storage_interrupt_cpus("/"), (std::vector<int>{1, 3, 4}));
        }
        {
            EnvOverride e("off");
            QVERIFY(storage_interrupt_cpus("/").empty());
        }
        for (const char* bad : {"x", "2-1", "1,,z", "-3", "99999"}) {
            EnvOverride e(bad);
            QVERIFY2(storage_interrupt_cpus("/").empty(), bad);
        }
    }

    void lookupNamesOnlyCpusThisProcessMayUse() {
        // Whatever this machine's disk does: never every CPU, never one we cannot run on.
        const std::vector<int> mine = current_mask();
        const std::vector<int> io = storage_interrupt_cpus(QDir::tempPath().toStdString());
        for (int c : io) QVERIFY(std::find(mine.begin(), mine.end(), c) != mine.end());
        QVERIFY(io.size() < mine.size());
        QVERIFY(storage_interrupt_cpus("/no/such/path").empty());
        QVERIFY(storage_interrupt_cpus("/proc").empty());  // not a block device
    }

    void pinnedThreadGetsItsMaskBack() {
        const std::vector<int> before = current_mask();
        if (before.size() < 2) QSKIP("needs two CPUs");
        {
            ThreadAffinity pin({before.back()});
            QCOMPARE(current_mask(), std::vector<int>{before.back()});
            QCOMPARE(sched_getcpu(), before.back());
            QCOMPARE(cpus_except({before.back()}).size(), before.size() - 1);
        }
        QCOMPARE(current_mask(), before);
    }

    void writerRunsItsJobsOnTheGivenCpu() {
        const std::vector<int> mine = current_mask();
        if (mine.size() < 2) QSKIP("needs two CPUs");
        QTemporaryDir dir;
        std::atomic<int> cpu{-1};
        std::vector<int> mask;
        {
            CheckpointWriter writer(dir.path().toStdString(), {mine.back()}, nullptr);
            writer.post([&](Registry&) {
                cpu = sched_getcpu();
                mask = current_mask();
            });
            writer.drain();
        }
        QCOMPARE(cpu.load(), mine.back());
        QCOMPARE(mask, std::vector<int>{mine.back()});
    }

    // A writer told it shares the training CPUs runs its jobs as SCHED_BATCH;
    // the thread that made it, and a writer not told so, stay as they were.
    void writerSharingTrainingCpusRunsAsBatch() {
        QTemporaryDir dir;
        for (bool shares : {true, false}) {
            std::atomic<int> batch{-1};
            {
                CheckpointWriter writer(dir.path().toStdString(), {}, nullptr, shares);
                writer.post([&](Registry&) { batch = runs_as_batch() ? 1 : 0; });
                writer.drain();
            }
            QCOMPARE(batch.load(), shares ? 1 : 0);
            QVERIFY(!runs_as_batch());
        }
        // What the policy is and is not: the calling thread only, and reversible by no one but itself.
        int result = -1;
        std::thread([&] { result = defer_wakeups_to_running_threads() && runs_as_batch() ? 1 : 0; }).join();
        QCOMPARE(result, 1);
        QVERIFY(!runs_as_batch());
    }
};

QTEST_APPLESS_MAIN(TestIoAffinity)
#include "test_io_affinity.moc"
