#include "bridge/trainer_worker.h"

#include "platform/errors.h"

#include <c10/util/Exception.h>

namespace savepoint::ui {

void registerEngineMetaTypes() {
    qRegisterMetaType<savepoint::Progress>();
    qRegisterMetaType<savepoint::EventRow>();
    qRegisterMetaType<savepoint::CheckpointRow>();
    qRegisterMetaType<savepoint::ui::MetricBatch>();
    qRegisterMetaType<savepoint::ui::WorkerOutcome>();
}

TrainerWorker::TrainerWorker(QObject* parent) : QObject(parent) { registerEngineMetaTypes(); }

TrainerWorker::~TrainerWorker() {
    if (running_ && trainer_) {
        trainer_->request_stop();
        if (thread_) thread_->wait();
        // The thread's last writes (outcome_, the trainer's state) were made before it
        // released this mutex; QThread::wait orders them too, but invisibly to TSan.
        std::lock_guard<std::mutex> l(outcome_mutex_);
    }
    if (thread_) {
        thread_->disconnect(this);
        delete thread_;
    }
}

bool TrainerWorker::start(const savepoint::TrainRequest& request) {
    if (running_) return false;
    if (thread_) {
        delete thread_;
        thread_ = nullptr;
    }
    trainer_ = std::make_unique<savepoint::Trainer>(request, static_cast<savepoint::TrainerObserver*>(this));
    run_name_ = QString::fromStdString(request.run_name);
    run_id_ = 0;
    running_ = true;
    paused_ = false;
    savepoint::Trainer* t = trainer_.get();
    thread_ = QThread::create([this, t] {
        WorkerOutcome o;
        // Every engine exception ends here as a message: the window stays up.
        try {
            savepoint::TrainResult r = t->run();
            o.outcome = r.outcome;
            o.message = r.message;
            o.reason = r.reason;
            o.run_id = r.run_id;
            o.global_step = r.global_step;
        } catch (const c10::Error& e) {
            o.threw = true;
            o.message = e.what_without_backtrace();
        } catch (const savepoint::InputError& e) {
            o.threw = true;
            o.message = e.what();
            o.field = e.field();
            o.expected = e.expected();
            o.found = e.found();
            o.says = e.says();
            o.rule = e.rule();
            o.remedy = e.remedy();
        } catch (const std::exception& e) {
            o.threw = true;
            o.message = e.what();
        }
        std::lock_guard<std::mutex> l(outcome_mutex_);
        outcome_ = o;
    });
    thread_->setObjectName(QStringLiteral("savepoint-trainer"));
    connect(thread_, &QThread::finished, this, &TrainerWorker::onThreadFinished);
    thread_->start();
    Q_EMIT started(run_name_);
    return true;
}

void TrainerWorker::onThreadFinished() {
    drainInbox();  // everything the run reported comes before finished()
    WorkerOutcome o;
    {
        std::lock_guard<std::mutex> l(outcome_mutex_);
        o = outcome_;
    }
    running_ = false;
    paused_ = false;
    trainer_.reset();
    Q_EMIT pausedChanged(false);
    Q_EMIT finished(o);
}

bool TrainerWorker::wait(unsigned long ms) { return !thread_ || thread_->wait(ms); }

void TrainerWorker::pause() {
    if (!trainer_) return;
    trainer_->request_pause();
    paused_ = true;
    Q_EMIT pausedChanged(true);
}
void TrainerWorker::resume() {
    if (!trainer_) return;
    trainer_->request_continue();
    paused_ = false;
    Q_EMIT pausedChanged(false);
}
void TrainerWorker::stop() {
    if (trainer_) trainer_->request_stop();
}
void TrainerWorker::crashNow() {
    if (trainer_) trainer_->request_crash();
}
void TrainerWorker::crashAt(std::int64_t gs) {
    if (trainer_) trainer_->request_crash_at(gs);
}
void TrainerWorker::preempt() {
    if (trainer_) trainer_->request_preempt();
}
void TrainerWorker::checkpointNow() {
    if (trainer_) trainer_->request_checkpoint();
}

// --- observer callbacks: other threads; copy into the inbox only ------------

void TrainerWorker::post(std::function<void()> deliver) {
    bool wake = false;
    {
        std::lock_guard<std::mutex> l(inbox_mutex_);
        wake = inbox_.empty();
        inbox_.push_back(std::move(deliver));
    }
    // One queued call drains everything posted until it runs.
    if (wake) QMetaObject::invokeMethod(this, "drainInbox", Qt::QueuedConnection);
}

void TrainerWorker::drainInbox() {
    std::deque<std::function<void()>> batch;
    {
        std::lock_guard<std::mutex> l(inbox_mutex_);
        batch.swap(inbox_);
    }
    for (auto& deliver : batch) deliver();
}

void TrainerWorker::on_message(const std::string& text) {
    post([this, text] { Q_EMIT message(QString::fromStdString(text)); });
}
void TrainerWorker::on_progress(const savepoint::Progress& p) {
    run_id_ = p.run_id;
    {
        std::lock_guard<std::mutex> l(inbox_mutex_);
        const bool queued = latest_progress_.has_value();
        latest_progress_ = p;
        if (queued) return;  // the entry already in the inbox will show this one
    }
    post([this] {
        savepoint::Progress newest;
        {
            std::lock_guard<std::mutex> l(inbox_mutex_);
            newest = std::move(*latest_progress_);
            latest_progress_.reset();
        }
        Q_EMIT progress(newest);
    });
}
void TrainerWorker::on_metrics(const std::vector<savepoint::MetricRow>& rows) {
    post([this, rows] { Q_EMIT metrics(rows); });
}
void TrainerWorker::on_event(const savepoint::EventRow& e) {
    run_id_ = e.run_id;
    post([this, e] { Q_EMIT event(e); });
}
void TrainerWorker::on_storage_error(const std::string& text) {
    post([this, text] { Q_EMIT storageError(QString::fromStdString(text)); });
}
void TrainerWorker::on_checkpoint_saved(const savepoint::CheckpointRow& row) {
    post([this, row] { Q_EMIT checkpointSaved(row); });
}

}  // namespace savepoint::ui
