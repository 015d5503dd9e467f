#include "bridge/background_jobs.h"

#include <QPointer>

#include <system_error>

namespace savepoint::ui {

BackgroundJobs::BackgroundJobs(QObject* parent) : QObject(parent) {}

BackgroundJobs::~BackgroundJobs() {
    std::list<Worker> workers;
    {
        std::lock_guard<std::mutex> l(mutex_);
        closing_ = true;
        workers.swap(workers_);
    }
    for (auto& w : workers) w.thread.join();
    std::lock_guard<std::mutex> l(mutex_);
    inbox_.clear();  // their closures would reach a window that is going away
}

void BackgroundJobs::start(Job job) {
    reapFinished();
    std::unique_lock<std::mutex> l(mutex_);
    workers_.emplace_back();
    Worker* w = &workers_.back();  // list nodes do not move
    auto shared_job = std::make_shared<Job>(std::move(job));
    try {
        w->thread = std::thread([this, w, shared_job] { finish(w, runGuarded(*shared_job)); });
    } catch (const std::system_error&) {
        // No thread to be had (resource limits): do the work here, late but not lost.
        workers_.pop_back();
        l.unlock();
        if (Deliver deliver = runGuarded(*shared_job)) deliver();
    }
}

BackgroundJobs::Deliver BackgroundJobs::runGuarded(const Job& job) {
    // An exception must not end the process from a worker thread (std::terminate);
    // a job reports its own failures through its closure, so this is a last resort.
    try {
        return job();
    } catch (...) {
        return {};
    }
}

void BackgroundJobs::finish(Worker* w, Deliver deliver) {
    bool wake = false;
    {
        std::lock_guard<std::mutex> l(mutex_);
        w->done = true;
        if (!closing_ && deliver) {
            wake = inbox_.empty();
            inbox_.push_back(std::move(deliver));
        }
    }
    // One queued call drains everything delivered until it runs.
    if (wake) QMetaObject::invokeMethod(this, "drain", Qt::QueuedConnection);
}

int BackgroundJobs::running() const {
    std::lock_guard<std::mutex> l(mutex_);
    int n = 0;
    for (const auto& w : workers_) n += w.done ? 0 : 1;
    return n;
}

void BackgroundJobs::reapFinished() {
    std::list<Worker> finished;
    {
        std::lock_guard<std::mutex> l(mutex_);
        for (auto it = workers_.begin(); it != workers_.end();) {
            auto next = std::next(it);
            if (it->done) finished.splice(finished.end(), workers_, it);
            it = next;
        }
    }
    for (auto& w : finished) w.thread.join();  // returns at once: the job is over
}

void BackgroundJobs::drain() {
    std::deque<Deliver> batch;
    {
        std::lock_guard<std::mutex> l(mutex_);
        batch.swap(inbox_);
    }
    // A closure may end up deleting this object's owner, and so this object.
    QPointer<BackgroundJobs> alive(this);
    for (auto& deliver : batch) {
        deliver();
        if (!alive) return;
    }
    reapFinished();
}

}  // namespace savepoint::ui
