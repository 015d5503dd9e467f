// The Qt adapter around savepoint::Trainer. Owns one trainer at a time and the
// QThread it runs on. Observer callbacks arrive on the training thread and the
// engine's I/O thread; they copy their values into an inbox and never touch a
// widget. The GUI thread drains the inbox and emits the signals itself, so
// every signal below is emitted on the GUI thread, in the order the engine
// reported. (The inbox, not Qt's queued-signal copies, carries the values
// across threads: its std::mutex is one ThreadSanitizer can see, and a burst
// of progress reports reaches the window as the newest one only.) Commands (pause, stop, crash...) go straight to the
// engine's thread-safe request_*() calls, because the training loop blocks its thread's event loop. Create and call
// from the GUI thread.
#pragma once

#include "bridge/engine_types.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <climits>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace savepoint::ui {

class TrainerWorker : public QObject, private savepoint::TrainerObserver {
    Q_OBJECT
public:
    explicit TrainerWorker(QObject* parent = nullptr);
    ~TrainerWorker() override;  // stops a running trainer (graceful) and waits

    // Starts a new run or a resume. Returns false if a trainer is already running.
    bool start(const savepoint::TrainRequest& request);
    bool isRunning() const { return running_; }
    QString runName() const { return run_name_; }
    std::int64_t runId() const { return run_id_.load(); }
    bool isPaused() const { return paused_; }

    void pause();
    void resume();  // continue after pause or a storage error
    void stop();    // graceful: checkpoint, then stop
    void crashNow();
    void crashAt(std::int64_t global_step);
    void preempt();
    void checkpointNow();
    // Blocks until the thread is done (tests and shutdown).
    bool wait(unsigned long ms = ULONG_MAX);

Q_SIGNALS:
    void started(QString run);
    void progress(savepoint::Progress p);
    void metrics(savepoint::ui::MetricBatch rows);
    void event(savepoint::EventRow e);
    void message(QString text);
    void storageError(QString text);
    void checkpointSaved(savepoint::CheckpointRow row);
    void finished(savepoint::ui::WorkerOutcome outcome);
    void pausedChanged(bool paused);

private:
    void on_message(const std::string& text) override;
    void on_progress(const savepoint::Progress& p) override;
    void on_metrics(const std::vector<savepoint::MetricRow>& rows) override;
    void on_event(const savepoint::EventRow& e) override;
    void on_storage_error(const std::string& text) override;
    void on_checkpoint_saved(const savepoint::CheckpointRow& row) override;

    void onThreadFinished();
    void post(std::function<void()> deliver);  // any thread
    // GUI thread. Invoked by name, not through a functor: Qt's functor slot
    // objects are reference-counted inside uninstrumented Qt code, which
    // ThreadSanitizer reports as a race on their deletion.
    Q_INVOKABLE void drainInbox();

    std::mutex inbox_mutex_;
    std::deque<std::function<void()>> inbox_;
    std::optional<savepoint::Progress> latest_progress_;  // delivered by the inbox entry already queued

    std::unique_ptr<savepoint::Trainer> trainer_;
    QThread* thread_ = nullptr;
    bool running_ = false;
    bool paused_ = false;
    QString run_name_;
    std::atomic<std::int64_t> run_id_{0};
    std::mutex outcome_mutex_;
    WorkerOutcome outcome_;
};

}  // namespace savepoint::ui
