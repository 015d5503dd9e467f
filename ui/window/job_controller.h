// A data-parallel job in this window: the New run dialog's "Workers" above 1
// starts torchrun with that many savepoint-cli workers (DataParallelJob); the
// window follows the job's run from the registry, as it follows any other
// process's. While the job runs, Stop and Simulate preemption send the spot
// notice (SIGTERM) to the whole job, and "Kill a worker" SIGKILLs one worker:
// the others stop with it, and torchrun restarts them all from the last
// checkpoint while restarts are left. Owned by MainWindow. GUI thread only.
#pragma once

#include "bridge/data_parallel_job.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace savepoint {
class Registry;
}

namespace savepoint::ui {

class JobController : public QObject {
    Q_OBJECT
public:
    // Which worker to kill, asked of the user: the workers' labels in, the index chosen out (-1: cancelled).
    using ChooseWorker = std::function<int(const QStringList& workers)>;

    JobController(savepoint::Registry* reg, QString home, QWidget* window, QObject* parent = nullptr);

    bool isRunning() const { return job_.isRunning(); }
    DataParallelJob& job() { return job_; }
    void setWorkerChooser(ChooseWorker c) { choose_ = std::move(c); }

public Q_SLOTS:
    bool start(const QString& name, const savepoint::TrainConfig& config, const DataParallelSpec& spec);
    // Asks which worker (when there are several) and kills it.
    void killWorker();
    void stop();

Q_SIGNALS:
    void message(const QString& text);       // for the Events pane
    void errorMessage(const QString& text);  // for the banner and the Events pane
    void actionsChanged();                   // started or finished
    void runAppeared(qint64 run_id);         // the job's run is in the registry: show it
    void finished(int exit_code);

private:
    void onOutput(const QString& line);
    void onFinished(int exit_code);
    void lookForRun();

    savepoint::Registry* reg_;
    QString home_;
    QWidget* window_;
    DataParallelJob job_;
    ChooseWorker choose_;
    QTimer find_run_;  // until the job's first worker has registered the run
    int workers_ = 0;
};

}  // namespace savepoint::ui
