// Slow reads off the GUI thread (a run's metric history, hashing a checkpoint),
// with their results applied back on it.
//
// A job runs on its own std::thread and returns a closure; the closure runs on
// the GUI thread. The hand-off goes through a std::mutex, and the GUI thread is
// woken by a named queued call that carries no data: Qt's event queue
// synchronises through futexes ThreadSanitizer cannot see. A job must not touch
// the window (it may be closing); only its closure may. The destructor waits
// for the jobs still running and drops closures not yet delivered, so no
// thread outlives the window and no closure runs on a half-destroyed one.
#pragma once

#include <QObject>

#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace savepoint::ui {

class BackgroundJobs : public QObject {
    Q_OBJECT
public:
    using Deliver = std::function<void()>;  // GUI thread
    using Job = std::function<Deliver()>;   // a worker thread; reports its failures through its closure

    explicit BackgroundJobs(QObject* parent = nullptr);
    ~BackgroundJobs() override;

    void start(Job job);
    int running() const;  // jobs not finished yet (tests)

private Q_SLOTS:
    void drain();

private:
    struct Worker {
        std::thread thread;
        bool done = false;  // under mutex_
    };
    static Deliver runGuarded(const Job& job);  // an exception delivers nothing
    void finish(Worker* w, Deliver deliver);    // on the worker thread: queue the closure
    void reapFinished();                        // joins the threads whose job has returned

    mutable std::mutex mutex_;
    std::list<Worker> workers_;
    std::deque<Deliver> inbox_;
    bool closing_ = false;
};

}  // namespace savepoint::ui
