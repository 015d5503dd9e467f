// BackgroundJobs: jobs run off the GUI thread, their closures run on it, and
// destroying the owner waits for running jobs and drops undelivered closures
// (the CI sanitizer run once caught a detached loader thread reaching a window
// that was being destroyed).
#include "bridge/background_jobs.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using namespace savepoint::ui;
using namespace std::chrono_literals;

class TestBackgroundJobs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void jobRunsOffThreadAndDeliversOnIt();
    void destructionWaitsForRunningJobsAndDropsTheirResults();
    void manyJobsAllDeliverAndThreadsAreReaped();
    void aThrowingJobDeliversNothingAndTheProcessLives();
};

void TestBackgroundJobs::jobRunsOffThreadAndDeliversOnIt() {
    BackgroundJobs jobs;
    const auto gui = std::this_thread::get_id();
    std::thread::id job_thread, deliver_thread;
    int value = 0;
    jobs.start([&]() -> BackgroundJobs::Deliver {
        job_thread = std::this_thread::get_id();
        return [&, v = 42] {
            deliver_thread = std::this_thread::get_id();
            value = v;
        };
    });
    QTRY_COMPARE(value, 42);
    QVERIFY(job_thread != gui);
    QCOMPARE(deliver_thread, gui);
    QTRY_COMPARE(jobs.running(), 0);
}

void TestBackgroundJobs::destructionWaitsForRunningJobsAndDropsTheirResults() {
    std::atomic<bool> started{false}, finished{false};
    bool delivered = false;
    {
        BackgroundJobs jobs;
        jobs.start([&]() -> BackgroundJobs::Deliver {
            started = true;
            std::this_thread::sleep_for(300ms);
            finished = true;
            return [&] { delivered = true; };
        });
        while (!started) std::this_thread::sleep_for(1ms);
        QCOMPARE(jobs.running(), 1);
    }  // the destructor joins: the job has finished by the time it returns
    QVERIFY(finished.load());
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents();
    QVERIFY2(!delivered, "a closure ran after its owner was destroyed");
}

void TestBackgroundJobs::manyJobsAllDeliverAndThreadsAreReaped() {
    BackgroundJobs jobs;
    int delivered = 0;
    for (int i = 0; i < 50; ++i)
        jobs.start([&, i]() -> BackgroundJobs::Deliver {
            if (i % 10 == 0) return {};  // a job may have nothing to deliver
            return [&] { ++delivered; };
        });
    QTRY_COMPARE(delivered, 45);
    QTRY_COMPARE(jobs.running(), 0);
}

void TestBackgroundJobs::aThrowingJobDeliversNothingAndTheProcessLives() {
    BackgroundJobs jobs;
    int delivered = 0;
    jobs.start([]() -> BackgroundJobs::Deliver { throw std::runtime_error("out of memory, say"); });
    jobs.start([&]() -> BackgroundJobs::Deliver { return [&] { ++delivered; }; });
    QTRY_COMPARE(delivered, 1);  // (std::terminate would have ended the test before)
    QTRY_COMPARE(jobs.running(), 0);
}

QTEST_MAIN(TestBackgroundJobs)
#include "test_background_jobs.moc"
