// Shared helpers for the engine and CLI tests: a temporary home, running the
// real savepoint-cli with QProcess, reading its JSON output, fingerprinting a
// directory tree (to prove that bad input changes nothing on disk) and
// damaging files on purpose. Header-only; every test links Qt6::Core/Test.
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>

#include <functional>

namespace testsupport {

inline QString cliPath() { return QStringLiteral(SAVEPOINT_CLI_PATH); }

struct CliResult {
    int exitCode = -1;
    bool crashed = false;  // killed by a signal / did not exit normally
    bool timedOut = false;
    QString out;
    QString err;
    QString all() const { return out + err; }
    // For QVERIFY2 messages.
    QByteArray describe() const {
        return QStringLiteral("exit %1%2%3\n--- stdout ---\n%4\n--- stderr ---\n%5")
            .arg(exitCode)
            .arg(crashed ? QStringLiteral(" (crashed)") : QString())
            .arg(timedOut ? QStringLiteral(" (timed out)") : QString())
            .arg(out.right(4000), err.right(4000))
            .toLocal8Bit();
    }
};

// The environment every CLI call gets: no inherited SAVEPOINT_* settings (a
// stray SAVEPOINT_HOME or fault injection) except SAVEPOINT_PLANT_BUG, so a
// negative control reaches the CLI too, and SAVEPOINT_CACHE_DIR (CTest points
// it into the build tree); and one thread, so runs are reproducible and fast
// on a shared machine.
inline QProcessEnvironment cliEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& k : env.keys())
        if (k.startsWith(QLatin1String("SAVEPOINT_")) && k != QLatin1String("SAVEPOINT_PLANT_BUG") &&
            k != QLatin1String("SAVEPOINT_CACHE_DIR"))
            env.remove(k);
    env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
    env.insert(QStringLiteral("OPENBLAS_NUM_THREADS"), QStringLiteral("1"));
    return env;
}

inline CliResult runCli(const QStringList& args, int timeoutMs = 240000,
                        const QProcessEnvironment& env = cliEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(cliPath(), args);
    CliResult r;
    if (!p.waitForStarted(30000)) {
        r.err = QStringLiteral("could not start ") + cliPath();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        r.timedOut = true;
        p.kill();
        p.waitForFinished(10000);
    }
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = r.crashed ? -1 : p.exitCode();
    return r;
}

// The arguments of a small, fast synthetic run.
inline QStringList trainArgs(const QString& home, const QString& run, int epochs, int stepsPerEpoch,
                             const QString& saveFreq, const QStringList& extra = {}) {
    QStringList a{QStringLiteral("train"),
                  QStringLiteral("--home"),
                  home,
                  QStringLiteral("--run"),
                  run,
                  QStringLiteral("--data"),
                  QStringLiteral("synthetic"),
                  QStringLiteral("--epochs"),
                  QString::number(epochs),
                  QStringLiteral("--steps-per-epoch"),
                  QString::number(stepsPerEpoch),
                  QStringLiteral("--save-freq"),
                  saveFreq,
                  QStringLiteral("--threads"),
                  QStringLiteral("1"),
                  QStringLiteral("--device"),
                  QStringLiteral("cpu")};
    return a + extra;
}

inline QJsonArray parseJsonArray(const QString& text, bool* ok = nullptr) {
    QJsonParseError e{};
    QJsonDocument d = QJsonDocument::fromJson(text.toUtf8(), &e);
    if (ok) *ok = e.error == QJsonParseError::NoError && d.isArray();
    return d.array();
}

inline QJsonArray checkpointsJson(const QString& home, const QString& run, CliResult* raw = nullptr) {
    CliResult r = runCli({QStringLiteral("checkpoints"), QStringLiteral("--home"), home, QStringLiteral("--run"), run,
                          QStringLiteral("--json")});
    if (raw) *raw = r;
    return parseJsonArray(r.out);
}

inline QJsonArray runsJson(const QString& home, CliResult* raw = nullptr) {
    CliResult r = runCli({QStringLiteral("runs"), QStringLiteral("--home"), home, QStringLiteral("--json")});
    if (raw) *raw = r;
    return parseJsonArray(r.out);
}

// "params_sha256 <hex>" as printed by train/resume; empty if absent.
inline QString paramsShaFromOutput(const QString& out) {
    static const QRegularExpression re(QStringLiteral("params_sha256 ([0-9a-f]{64})"));
    QString last;
    auto it = re.globalMatch(out);
    while (it.hasNext()) last = it.next().captured(1);
    return last;
}

// The committed checkpoint with the highest global step (ties: highest id).
inline QJsonObject newestUsable(const QJsonArray& checkpoints) {
    QJsonObject best;
    for (const auto& v : checkpoints) {
        QJsonObject c = v.toObject();
        if (c.value(QStringLiteral("state")).toString() != QLatin1String("committed")) continue;
        if (best.isEmpty() ||
            c.value(QStringLiteral("global_step")).toInteger() >
                best.value(QStringLiteral("global_step")).toInteger() ||
            (c.value(QStringLiteral("global_step")).toInteger() ==
                 best.value(QStringLiteral("global_step")).toInteger() &&
             c.value(QStringLiteral("id")).toInteger() > best.value(QStringLiteral("id")).toInteger()))
            best = c;
    }
    return best;
}

inline QJsonObject headOf(const QJsonArray& checkpoints) {
    for (const auto& v : checkpoints)
        if (v.toObject().value(QStringLiteral("head")).toBool()) return v.toObject();
    return {};
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return QByteArray();
    return f.readAll();
}

inline QByteArray fileSha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return QByteArray();
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

// The checksum a checkpoint's footer (and `checkpoints --json`'s "sha256") holds,
// from the definition in engine/formats/checkpoint_format.h, with Qt's SHA-256: for
// version 1 the SHA-256 of everything before the 48-byte footer; for version 2
// the SHA-256 of a label and of the SHA-256s of the head and the body's halves.
inline QString checkpointChecksum(const QString& path) {
    const QByteArray b = readAll(path);
    if (b.size() < 80) return QString();
    auto le = [&](int at, int n) {
        quint64 v = 0;
        for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
        return v;
    };
    auto sha = [](const QByteArray& x) { return QCryptographicHash::hash(x, QCryptographicHash::Sha256); };
    const qsizetype bodyEnd = b.size() - 48;
    if (le(8, 4) == 1) return QString::fromLatin1(sha(b.left(bodyEnd)).toHex());
    const qsizetype bodyStart = 32 + static_cast<qsizetype>(le(16, 8));
    if (le(8, 4) != 2 || bodyStart > bodyEnd) return QString();
    const qsizetype mid = bodyStart + 64 * ((bodyEnd - bodyStart) / 128);
    const QByteArray root = QByteArray("savepoint-ckpt-2") + sha(b.left(bodyStart)) +
                            sha(b.mid(bodyStart, mid - bodyStart)) + sha(b.mid(mid, bodyEnd - mid));
    return QString::fromLatin1(sha(root).toHex());
}

// Relative path -> SHA-256 of the contents ("<dir>" for directories) of
// everything under `root`, hidden files included. Missing root: empty map,
// and `exists` (if given) is false.
inline QMap<QString, QByteArray> treeFingerprint(const QString& root, bool* exists = nullptr) {
    QMap<QString, QByteArray> out;
    QFileInfo ri(root);
    if (exists) *exists = ri.exists();
    if (!ri.exists()) return out;
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    const QDir base(root);
    while (it.hasNext()) {
        const QString p = it.next();
        const QFileInfo fi(p);
        const QString rel = base.relativeFilePath(p);
        out.insert(rel, fi.isDir() ? QByteArray("<dir>") : fileSha256(p) + " " + QByteArray::number(fi.size()));
    }
    return out;
}

inline QString diffFingerprints(const QMap<QString, QByteArray>& a, const QMap<QString, QByteArray>& b) {
    QStringList lines;
    for (auto it = a.begin(); it != a.end(); ++it) {
        if (!b.contains(it.key()))
            lines << QStringLiteral("removed: ") + it.key();
        else if (b.value(it.key()) != it.value())
            lines << QStringLiteral("changed: ") + it.key();
    }
    for (auto it = b.begin(); it != b.end(); ++it)
        if (!a.contains(it.key())) lines << QStringLiteral("added: ") + it.key();
    return lines.join(QLatin1Char('\n'));
}

inline bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return f.write(bytes) == bytes.size();
}

// XORs one byte of a file in place (mask 0x01 by default).
inline bool flipByte(const QString& path, qint64 offset, char mask = 0x01) {
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite)) return false;
    if (offset < 0) offset += f.size();
    if (offset < 0 || offset >= f.size() || !f.seek(offset)) return false;
    char c = 0;
    if (f.read(&c, 1) != 1) return false;
    c ^= mask;
    return f.seek(offset) && f.write(&c, 1) == 1;
}

inline bool truncateFile(const QString& path, qint64 size) {
    QFile f(path);
    return f.resize(size);
}

// Waits (processing nothing else) until `pred` holds or `ms` passes.
inline bool waitUntil(const std::function<bool()>& pred, int ms) {
    QElapsedTimer t;
    t.start();
    while (!pred()) {
        if (t.elapsed() > ms) return false;
        QThread::msleep(10);
    }
    return true;
}

}  // namespace testsupport
