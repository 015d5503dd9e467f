#include "background_jobs.h"

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
    std::lock_guard<std::mutex> l(mutex_);
    workers_.emplace_back();
    Worker* w = &workers_.back();  // list nodes do not move
    w->thread = std::thread([this, w, job = std::move(job)] {
        Deliver deliver = job();
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
    });
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
    for (auto& deliver : batch) deliver();
    reapFinished();
}

}  // namespace savepoint::ui
