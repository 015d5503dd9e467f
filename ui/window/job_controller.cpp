#include "window/job_controller.h"

#include "registry/registry.h"

#include <QInputDialog>
#include <QRegularExpression>

#include <optional>

namespace savepoint::ui {

JobController::JobController(savepoint::Registry* reg, QString home, QWidget* window, QObject* parent)
    : QObject(parent), reg_(reg), home_(std::move(home)), window_(window) {
    connect(&job_, &DataParallelJob::outputLine, this, &JobController::onOutput);
    connect(&job_, &DataParallelJob::finished, this, &JobController::onFinished);
    find_run_.setInterval(300);
    connect(&find_run_, &QTimer::timeout, this, &JobController::lookForRun);
    choose_ = [this](const QStringList& workers) {
        bool ok = false;
        const QString w = QInputDialog::getItem(window_, tr("Kill a worker"),
                                                tr("SIGKILL, as if its machine were lost. The other workers stop "
                                                   "too; torchrun restarts the job from its last checkpoint."),
                                                workers, 0, false, &ok);
        return ok ? int(workers.indexOf(w)) : -1;
    };
}

bool JobController::start(const QString& name, const savepoint::TrainConfig& config, const DataParallelSpec& spec) {
    QString error;
    if (!job_.start(home_, name, config, spec, &error)) {
        Q_EMIT errorMessage(error);
        return false;
    }
    workers_ = spec.workers;
    Q_EMIT message(
        tr("Starting run “%1” with %n worker(s) under torchrun (up to %2 restart(s))…", nullptr, spec.workers)
            .arg(name)
            .arg(spec.max_restarts));
    find_run_.start();
    Q_EMIT actionsChanged();
    return true;
}

void JobController::killWorker() {
    const std::vector<JobWorker> workers = job_.workers();
    if (workers.empty()) {
        Q_EMIT message(tr("No worker is running right now (the job may be restarting)."));
        return;
    }
    QStringList labels;
    for (const JobWorker& w : workers) labels << tr("Worker %1 (process %2)").arg(w.local_rank).arg(w.pid);
    const int i = workers.size() == 1 ? 0 : choose_(labels);
    if (i < 0 || i >= int(workers.size())) return;
    if (job_.killWorker(workers[std::size_t(i)].local_rank))
        Q_EMIT message(tr("Killed worker %1 (SIGKILL to process %2).")
                           .arg(workers[std::size_t(i)].local_rank)
                           .arg(workers[std::size_t(i)].pid));
}

void JobController::stop() {
    if (!job_.isRunning()) return;
    job_.stop();
    Q_EMIT message(
        tr("Preemption notice (SIGTERM) sent to the job: every worker stops at the same step and one "
           "emergency checkpoint is written."));
}

// Workers' lines, without the progress lines each prints every two seconds;
// torchrun's own only when they say a worker failed or the job restarts.
void JobController::onOutput(const QString& line) {
    static const QRegularExpression worker(QStringLiteral("^\\[default(\\d+)\\]:(.*)$"));
    static const QRegularExpression progress(QStringLiteral("^epoch \\d+/\\d+ +step "));
    const QRegularExpressionMatch m = worker.match(line);
    if (m.hasMatch()) {
        const QString text = m.captured(2);
        if (!progress.match(text).hasMatch() && !text.trimmed().isEmpty())
            Q_EMIT message(tr("worker %1: %2").arg(m.captured(1), text));
        return;
    }
    if (line.contains(QLatin1String("restart"), Qt::CaseInsensitive) ||
        line.contains(QLatin1String("failed"), Qt::CaseInsensitive))
        Q_EMIT message(tr("torchrun: %1").arg(line));
}

// torchrun's own exit status says little (1 after a SIGTERM it passed on); the run's row says how it ended.
void JobController::onFinished(int exit_code) {
    find_run_.stop();
    lookForRun();
    std::optional<savepoint::RunStatus> status;
    try {
        if (const auto run = reg_ ? reg_->find_run(job_.runName().toStdString()) : std::nullopt) status = run->status;
    } catch (const std::exception&) {
    }
    using S = savepoint::RunStatus;
    if (status == S::Finished)
        Q_EMIT message(tr("The job of run “%1” finished.").arg(job_.runName()));
    else if (status == S::Preempted || status == S::Stopped)
        Q_EMIT message(tr("The job of run “%1” stopped with a checkpoint; Resume continues it.").arg(job_.runName()));
    else
        Q_EMIT errorMessage(tr("The job of run “%1” ended with exit status %2 (a worker failed and no restart was "
                               "left, or a worker refused the settings: see the Events pane).")
                                .arg(job_.runName())
                                .arg(exit_code));
    Q_EMIT finished(exit_code);
    Q_EMIT actionsChanged();
}

void JobController::lookForRun() {
    if (!reg_) return;
    try {
        if (const auto run = reg_->find_run(job_.runName().toStdString())) {
            find_run_.stop();
            Q_EMIT runAppeared(run->id);
        }
    } catch (const std::exception&) {
        // A worker is creating the registry; look again.
    }
}

}  // namespace savepoint::ui
