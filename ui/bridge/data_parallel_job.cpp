#include "bridge/data_parallel_job.h"

#include "training/train_config.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <map>

namespace savepoint::ui {

namespace {

QString number(double v) { return QString::number(v, 'g', 17); }  // the exact double, as the dialog holds it

// A loopback port free now, for the job's rendezvous: --standalone always takes
// 29400, so a second job on the machine would fail to start.
int freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 29400;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 29400;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

// /proc/PID/stat's parent pid (the field after the parenthesised command, which may hold spaces).
qint64 parentOf(const QString& pid) {
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return -1;
    const QByteArray s = f.readAll();
    const int close = s.lastIndexOf(')');
    if (close < 0) return -1;
    const QList<QByteArray> fields = s.mid(close + 2).split(' ');  // state, ppid, …
    return fields.size() > 1 ? fields[1].toLongLong() : -1;
}

int localRankOf(qint64 pid) {
    QFile f(QStringLiteral("/proc/%1/environ").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& kv : f.readAll().split('\0'))
        if (kv.startsWith("LOCAL_RANK=")) return kv.mid(11).toInt();
    return -1;
}

}  // namespace

DataParallelJob::DataParallelJob(QObject* parent) : QObject(parent) {
    proc_.setProcessChannelMode(QProcess::MergedChannels);
    connect(&proc_, &QProcess::readyReadStandardOutput, this, &DataParallelJob::readOutput);
    connect(&proc_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readOutput();
        if (!pending_.isEmpty()) Q_EMIT outputLine(QString::fromUtf8(pending_));
        pending_.clear();
        Q_EMIT finished(status == QProcess::NormalExit ? code : 128 + SIGKILL);
    });
}

DataParallelJob::~DataParallelJob() {
    if (!isRunning()) return;
    disconnect(&proc_, nullptr, this, nullptr);
    stop();
    if (!proc_.waitForFinished(30000)) {
        for (const JobWorker& w : workers()) ::kill(pid_t(w.pid), SIGKILL);
        proc_.kill();
        proc_.waitForFinished(5000);
    }
}

QStringList DataParallelJob::arguments(const QString& cli, const QString& home, const QString& run,
                                       const savepoint::TrainConfig& c, const DataParallelSpec& spec) {
    // What --standalone does, on a port of its own and with an id of its own.
    QStringList a{QStringLiteral("--rdzv_backend"), QStringLiteral("c10d"), QStringLiteral("--rdzv_endpoint"),
                  QStringLiteral("127.0.0.1:%1").arg(freeLoopbackPort()), QStringLiteral("--rdzv_id"),
                  QStringLiteral("%1-%2").arg(run).arg(QCoreApplication::applicationPid()), QStringLiteral("--nnodes"),
                  QStringLiteral("1"), QStringLiteral("--nproc_per_node"), QString::number(spec.workers),
                  QStringLiteral("--max_restarts"), QString::number(spec.max_restarts),
                  QStringLiteral("--monitor_interval"), QStringLiteral("1"),
                  // Debian's torchrun (PyTorch 1.13 on Python 3.11) fails at start with its default redirects.
                  QStringLiteral("--redirects"), QStringLiteral("1"), QStringLiteral("--tee"), QStringLiteral("1"),
                  QStringLiteral("--no_python"), cli, QStringLiteral("train")};
    const auto opt = [&a](const char* flag, const QString& value) { a << QLatin1String(flag) << value; };
    opt("--home", home);
    opt("--run", run);
    opt("--data", QString::fromStdString(c.data));
    opt("--model", QString::fromStdString(c.model));
    opt("--loss", QString::fromStdString(c.loss));
    opt("--optimizer", QString::fromStdString(c.optimizer));
    opt("--epochs", QString::number(c.epochs));
    if (c.steps_per_epoch > 0) opt("--steps-per-epoch", QString::number(c.steps_per_epoch));
    opt("--batch", QString::number(c.batch));
    opt("--lr", number(c.lr));
    opt("--seed", QString::number(c.seed));
    opt("--save-freq", QString::fromStdString(savepoint::save_freq_text(c.save_every_steps)));
    opt("--keep", QString::number(c.keep));
    opt("--device", QString::fromStdString(c.device));
    if (!spec.remote.isEmpty()) {
        opt("--remote", spec.remote);
        // torchrun kills rank 0 30 s after another worker exits: its uploads must finish before (docs/REMOTE.md).
        opt("--remote-grace-seconds", QStringLiteral("25"));
    }
    if (c.threads > 0) opt("--threads", QString::number(c.threads));
    opt("--async-policy", QString::fromStdString(c.async_policy));
    return a;
}

QString DataParallelJob::findCli() {
    const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("savepoint-cli"));
    if (QFileInfo(beside).isExecutable()) return beside;
    return QStandardPaths::findExecutable(QStringLiteral("savepoint-cli"));
}

QString DataParallelJob::findTorchrun() { return QStandardPaths::findExecutable(QStringLiteral("torchrun")); }

bool DataParallelJob::start(const QString& home, const QString& run, const savepoint::TrainConfig& config,
                            const DataParallelSpec& spec, QString* error) {
    if (isRunning()) {
        *error = tr("A data-parallel job is already running from this window; stop it first.");
        return false;
    }
    const QString torchrun = findTorchrun();
    if (torchrun.isEmpty()) {
        *error =
            tr("torchrun was not found on PATH: data-parallel jobs use PyTorch's launcher "
               "(on Debian: apt install python3-torch).");
        return false;
    }
    const QString cli = findCli();
    if (cli.isEmpty()) {
        *error = tr("savepoint-cli was not found beside this program or on PATH: each worker of the job is one.");
        return false;
    }
    run_ = run;
    pending_.clear();
    proc_.start(torchrun, arguments(cli, home, run, config, spec));
    if (!proc_.waitForStarted(10000)) {
        *error = tr("torchrun (%1) did not start: %2").arg(torchrun, proc_.errorString());
        return false;
    }
    return true;
}

std::vector<JobWorker> DataParallelJob::workers() const {
    std::vector<JobWorker> out;
    if (!isRunning()) return out;
    // Every process below torchrun (its workers are its children; a launcher in between is looked through).
    std::map<qint64, qint64> parent;
    for (const QString& p : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const qint64 pid = p.toLongLong(&ok);
        if (ok) parent[pid] = parentOf(p);
    }
    const qint64 root = proc_.processId();
    for (const auto& [pid, ppid] : parent) {
        qint64 up = ppid;
        for (int depth = 0; depth < 4 && up > 1 && up != root; ++depth) up = parent.count(up) ? parent[up] : -1;
        if (up != root) continue;
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        if (!comm.open(QIODevice::ReadOnly) || comm.readAll().trimmed() != "savepoint-cli") continue;
        out.push_back({pid, localRankOf(pid)});
    }
    std::sort(out.begin(), out.end(),
              [](const JobWorker& a, const JobWorker& b) { return a.local_rank < b.local_rank; });
    return out;
}

bool DataParallelJob::killWorker(int local_rank) {
    for (const JobWorker& w : workers())
        if (w.local_rank == local_rank) return ::kill(pid_t(w.pid), SIGKILL) == 0;
    return false;
}

void DataParallelJob::stop() {
    if (isRunning()) ::kill(pid_t(proc_.processId()), SIGTERM);
}

void DataParallelJob::readOutput() {
    pending_ += proc_.readAllStandardOutput();
    int nl;
    while ((nl = pending_.indexOf('\n')) >= 0) {
        Q_EMIT outputLine(QString::fromUtf8(pending_.left(nl)).remove(QLatin1Char('\r')));
        pending_.remove(0, nl + 1);
    }
}

}  // namespace savepoint::ui
