// A local data-parallel job started from the window: PyTorch's own launcher,
// `torchrun --standalone --nproc_per_node N --max_restarts M --no_python
// savepoint-cli train …`, runs N workers that train one run together; the
// window follows that run from the registry as it follows any other process's.
// This class owns the torchrun process, finds its workers (to kill one on
// purpose: the lesson that one lost worker stops the whole job) and passes
// torchrun's output on line by line. GUI thread only.
#pragma once

#include "bridge/engine_types.h"

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <vector>

namespace savepoint::ui {

struct DataParallelSpec {
    int workers = 2;       // processes on this machine (torchrun's --nproc_per_node)
    int max_restarts = 3;  // how often torchrun restarts every worker after one is lost
    QString remote;        // s3://BUCKET/PREFIX or empty: rank 0 uploads the job's checkpoints (train --remote)
};

// One worker of the job as the system sees it.
struct JobWorker {
    qint64 pid = 0;
    int local_rank = -1;  // from the worker's LOCAL_RANK
};

class DataParallelJob : public QObject {
    Q_OBJECT
public:
    explicit DataParallelJob(QObject* parent = nullptr);
    ~DataParallelJob() override;  // a job still running is stopped (SIGTERM, then SIGKILL after 30 s)

    // torchrun's arguments for `spec` workers training run `run` of `home` with `config`;
    // `cli` is the savepoint-cli to start.
    static QStringList arguments(const QString& cli, const QString& home, const QString& run,
                                 const savepoint::TrainConfig& config, const DataParallelSpec& spec);
    // The savepoint-cli beside this program, else the one on PATH; empty when there is none.
    static QString findCli();
    // Debian's python3-torch puts torchrun on PATH; empty when it is missing.
    static QString findTorchrun();

    // Starts the job; false with `error` set (in the user's words) when it cannot.
    bool start(const QString& home, const QString& run, const savepoint::TrainConfig& config,
               const DataParallelSpec& spec, QString* error);
    bool isRunning() const { return proc_.state() != QProcess::NotRunning; }
    QString runName() const { return run_; }
    // The workers alive now, by local rank (empty between a loss and torchrun's restart).
    std::vector<JobWorker> workers() const;
    // SIGKILL to the worker with this local rank: what a lost machine does. False if none is alive.
    bool killWorker(int local_rank);
    // The spot notice to the whole job: torchrun passes SIGTERM on to every worker,
    // which stop at the same step boundary and write one emergency checkpoint.
    void stop();

Q_SIGNALS:
    void outputLine(const QString& line);  // torchrun's and the workers' output ("[default0]:…")
    void finished(int exit_code);          // 0: trained to the end; 3: stopped with a checkpoint

private:
    void readOutput();

    QProcess proc_;
    QString run_;
    QByteArray pending_;  // a line not yet ended
};

}  // namespace savepoint::ui
