// Shared helpers for the fault harnesses in tests/reliability/: running the
// real savepoint-cli with fault-seam settings, parsing what it reported as
// saved and where a resume started, and checking the durability invariants of
// a home in-process (recovery, PRAGMA integrity_check, full verification of
// every committed checkpoint, no row left half-written).
// Header-only; links savepoint_engine, Qt6::Core and Qt6::Test.
#pragma once

#include "test_home.h"

#include "checkpoint/recovery.h"
#include "formats/checkpoint_format.h"
#include "registry/registry.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QSet>

#include <sys/mount.h>
#include <csignal>
#include <optional>

namespace reliability {

using testsupport::CliResult;

// Environment for one CLI call: clean SAVEPOINT_*, one thread, plus `extra`.
// SAVEPOINT_PLANT_BUG passes through, so a negative control planted in the
// test's environment reaches the CLI too (docs/RELIABILITY.md).
inline QProcessEnvironment envWith(const QMap<QString, QString>& extra = {}) {
    QProcessEnvironment env = testsupport::cliEnvironment();
    if (qEnvironmentVariableIsSet("SAVEPOINT_PLANT_BUG"))
        env.insert(QStringLiteral("SAVEPOINT_PLANT_BUG"), qEnvironmentVariable("SAVEPOINT_PLANT_BUG"));
    for (auto it = extra.begin(); it != extra.end(); ++it) env.insert(it.key(), it.value());
    return env;
}

inline CliResult runCli(const QStringList& args, int timeoutMs = 240000, const QProcessEnvironment& env = envWith()) {
    return testsupport::runCli(args, timeoutMs, env);
}

struct Saved {
    qint64 id = 0;
    qint64 globalStep = 0;
};

// Every "saved checkpoint #N at epoch E, step S (global step G), ..." line.
inline QList<Saved> savedLines(const QString& out) {
    static const QRegularExpression re(
        QStringLiteral("saved checkpoint #(\\d+) at epoch \\d+, step \\d+ \\(global step (\\d+)\\)"));
    QList<Saved> list;
    auto it = re.globalMatch(out);
    while (it.hasNext()) {
        auto m = it.next();
        list.append({m.captured(1).toLongLong(), m.captured(2).toLongLong()});
    }
    return list;
}

// Where a resume started: the checkpoint id and global step it names, or
// id 0 / step 0 for "the beginning". nullopt if there is no such line.
inline std::optional<Saved> resumedFrom(const QString& out) {
    static const QRegularExpression re(
        QStringLiteral("resuming run '[^']*' from (?:checkpoint #(\\d+) at epoch \\d+, step \\d+ \\(global step "
                       "(\\d+)\\)|the beginning)"));
    auto m = re.match(out);
    if (!m.hasMatch()) return std::nullopt;
    return Saved{m.captured(1).toLongLong(), m.captured(2).toLongLong()};
}

struct HomeState {
    bool ok = false;
    QString why;                                // first violated invariant
    QList<savepoint::CheckpointRow> committed;  // verified, usable checkpoints
    std::optional<savepoint::CheckpointRow> head;
    QStringList recovery;  // what recovery did
    bool runExists = false;
};

// Opens the registry (which runs recovery, as every CLI command does), then
// checks: integrity_check ok; no 'writing'/'deleting' row; every committed
// row's file verifies in full (size, footer, SHA-256 against footer and
// registry, structure, header names this checkpoint); the head is usable.
//
// With `beforeRecovery` (the default) it first checks, on the registry exactly
// as the killed process left it, that every 'committed' row's file already
// verifies: the protocol commits a row only after the file is durable under
// its final name, so recovery must never be needed to hide a committed row
// whose file is absent or damaged (this is what catches "commit before rename").
inline HomeState checkHome(const QString& home, const QString& runName, bool beforeRecovery = true) {
    HomeState s;
    try {
        savepoint::Registry reg(home.toStdString());
        if (beforeRecovery)
            if (auto run = reg.find_run(runName.toStdString()))
                for (const auto& c : reg.checkpoints(run->id)) {
                    if (c.state != savepoint::CheckpointState::Committed) continue;
                    auto v = savepoint::verify_checkpoint_file(reg.absolute(c.path), c.sha256);
                    if (!v.ok) {
                        s.why = QStringLiteral("before recovery: committed checkpoint #%1 does not verify: %2")
                                    .arg(c.id)
                                    .arg(QString::fromStdString(v.error));
                        return s;
                    }
                }
        for (const auto& a : savepoint::reconcile_registry(reg).actions) s.recovery << QString::fromStdString(a);
        const std::string ic = reg.integrity_check();
        if (ic != "ok") {
            s.why = QStringLiteral("integrity_check: ") + QString::fromStdString(ic);
            return s;
        }
        auto run = reg.find_run(runName.toStdString());
        if (!run) {
            s.ok = true;  // the run was never created (killed before): nothing to check
            return s;
        }
        s.runExists = true;
        for (const auto& c : reg.checkpoints(run->id)) {
            if (c.state == savepoint::CheckpointState::Writing || c.state == savepoint::CheckpointState::Deleting) {
                s.why = QStringLiteral("checkpoint #%1 left in state '%2' after recovery")
                            .arg(c.id)
                            .arg(QString::fromLatin1(savepoint::to_string(c.state)));
                return s;
            }
            if (c.state != savepoint::CheckpointState::Committed) continue;
            auto v = savepoint::verify_checkpoint_file(reg.absolute(c.path), c.sha256);
            if (!v.ok || v.meta.value("checkpoint_id", -1) != c.id ||
                v.meta.value("global_step", -1) != c.global_step) {
                s.why = QStringLiteral("committed checkpoint #%1 does not verify: %2")
                            .arg(c.id)
                            .arg(QString::fromStdString(v.ok ? std::string("header mismatch") : v.error));
                return s;
            }
            s.committed.append(c);
        }
        if (run->head_checkpoint_id) {
            auto h = reg.checkpoint(*run->head_checkpoint_id);
            if (!h || !h->usable()) {
                s.why = QStringLiteral("head #%1 is not usable after recovery").arg(*run->head_checkpoint_id);
                return s;
            }
            s.head = h;
        }
        s.ok = true;
    } catch (const std::exception& e) {
        s.why = QStringLiteral("opening the registry failed: ") + QString::fromUtf8(e.what());
    }
    return s;
}

inline bool hasCommitted(const HomeState& s, qint64 id) {
    for (const auto& c : s.committed)
        if (c.id == id) return true;
    return false;
}

// Two committed checkpoints of one branch at the same global step: a save
// retried after a storage error must not be taken a second time. Empty if none.
inline QString duplicateSaves(const HomeState& s) {
    QSet<QPair<qint64, qint64>> seen;
    for (const auto& c : s.committed) {
        const QPair<qint64, qint64> key(c.branch_id, c.global_step);
        if (seen.contains(key))
            return QStringLiteral("two committed checkpoints at global step %1 of branch %2 (one is #%3)")
                .arg(c.global_step)
                .arg(c.branch_id)
                .arg(c.id);
        seen.insert(key);
    }
    return {};
}

// Runs the CLI asynchronously and SIGKILLs it when `killWhen` (polled about
// every millisecond with the output so far) returns true or after
// `killAfterMs` (whichever first; <0: never by time). `afterKill` runs right
// after the process is reaped (killed or not) (the power-loss harness copies its disk image
// there). `killed` tells whether it really died of the kill.
struct KilledRun {
    CliResult result;
    bool killed = false;
    qint64 elapsedMs = 0;
};

inline KilledRun runAndKill(const QStringList& args, const QProcessEnvironment& env, int killAfterMs,
                            const std::function<bool(const QString& out)>& killWhen = {},
                            const std::function<void()>& afterKill = {}, int timeoutMs = 180000) {
    KilledRun k;
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(testsupport::cliPath(), args);
    if (!p.waitForStarted(30000)) {
        k.result.err = QStringLiteral("could not start ") + testsupport::cliPath();
        return k;
    }
    QElapsedTimer t;
    t.start();
    bool sent = false;
    while (p.state() != QProcess::NotRunning) {
        k.result.out += QString::fromUtf8(p.readAllStandardOutput());
        const bool due = (killAfterMs >= 0 && t.elapsed() >= killAfterMs) || (killWhen && killWhen(k.result.out));
        if (due) {
            ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
            sent = true;
            break;
        }
        if (t.elapsed() > timeoutMs) {
            p.kill();
            k.result.timedOut = true;
            break;
        }
        p.waitForFinished(1);
    }
    p.waitForFinished(30000);
    if (afterKill) afterKill();
    k.elapsedMs = t.elapsed();
    k.result.out += QString::fromUtf8(p.readAllStandardOutput());
    k.result.err = QString::fromUtf8(p.readAllStandardError());
    k.result.crashed = p.exitStatus() != QProcess::NormalExit;
    k.result.exitCode = k.result.crashed ? -1 : p.exitCode();
    k.killed = sent && k.result.crashed;  // else it had already exited on its own
    return k;
}

// True while a checkpoint temp file exists in the run's checkpoint directory.
inline bool tempFilePresent(const QString& home, const QString& run) {
    return !QDir(home + QStringLiteral("/checkpoints/") + run)
                .entryList({QStringLiteral("*.tmp")}, QDir::Files)
                .isEmpty();
}

// Arguments of the tiny deterministic run every harness uses.
inline QStringList tinyTrain(const QString& home, const QString& run, int epochs = 2, int spe = 6, int saveFreq = 3,
                             const QStringList& extra = {}) {
    return testsupport::trainArgs(
        home, run, epochs, spe, QString::number(saveFreq),
        QStringList{QStringLiteral("--model"), QStringLiteral("mlp"), QStringLiteral("--batch"), QStringLiteral("16")} +
            extra);
}

inline QStringList resumeArgs(const QString& home, const QString& run, const QStringList& extra = {}) {
    return QStringList{QStringLiteral("resume"), QStringLiteral("--home"), home, QStringLiteral("--run"), run} + extra;
}

// Copies a directory tree (for forking a prepared home per trial).
inline bool copyTree(const QString& from, const QString& to) {
    return QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), from, to}) == 0;
}

inline bool envFlag(const char* name) {
    return qEnvironmentVariableIsSet(name) && qEnvironmentVariable(name) != QLatin1String("0");
}
inline int envInt(const char* name, int def) {
    bool ok = false;
    int v = qEnvironmentVariableIntValue(name, &ok);
    return ok ? v : def;
}

}  // namespace reliability

// QTEST_GUILESS_MAIN with Qt Test's watchdog (300 s per test function by
// default) raised to an hour unless QTEST_FUNCTION_TIMEOUT is already set: a
// kill storm or power-loss series is one long test function on purpose.
#define RELIABILITY_TEST_MAIN(TestObject)                                                                       \
    int main(int argc, char** argv) {                                                                           \
        if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) qputenv("QTEST_FUNCTION_TIMEOUT", "3600000"); \
        QCoreApplication app(argc, argv);                                                                       \
        TestObject tc;                                                                                          \
        QTEST_SET_MAIN_SOURCE_PATH                                                                              \
        return QTest::qExec(&tc, argc, argv);                                                                   \
    }
