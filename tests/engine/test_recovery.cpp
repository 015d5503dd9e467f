// Tests for recovery (engine/checkpoint/recovery.cpp): every half-written state a crash,
// a power loss or a hand can leave is built by hand here, then the registry
// is reconciled with the files on disk. Each case asserts the end state of the
// row, the file, the run's head and the event that explains it; and a second
// reconcile changes nothing at all (full table dumps compared).
#include "checkpoint/recovery.h"
#include "formats/checkpoint_format.h"
#include "registry/home.h"
#include "registry/registry.h"
#include "registry/run_lock.h"
#include "storage/durable_io.h"

#include "test_home.h"

#include <QtTest>

#include <sqlite3.h>

using namespace savepoint;

namespace {

// All rows of all tables, as text, in a stable order.
QString dumpTables(Registry& reg) {
    QString out;
    for (const char* table : {"runs", "branches", "sessions", "checkpoints", "metrics", "events"}) {
        out += QStringLiteral("== %1\n").arg(QLatin1String(table));
        sqlite3_stmt* st = nullptr;
        const std::string sql = std::string("SELECT * FROM ") + table + " ORDER BY rowid";
        if (sqlite3_prepare_v2(reg.db(), sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
            return QStringLiteral("prepare failed");
        while (sqlite3_step(st) == SQLITE_ROW) {
            QStringList cols;
            for (int i = 0; i < sqlite3_column_count(st); ++i) {
                auto* t = sqlite3_column_text(st, i);
                cols << (t ? QString::fromUtf8(reinterpret_cast<const char*>(t)) : QStringLiteral("NULL"));
            }
            out += cols.join(QLatin1Char('|')) + QLatin1Char('\n');
        }
        sqlite3_finalize(st);
    }
    return out;
}

QMap<QString, QByteArray> filesExceptRegistry(const QString& home) {
    auto fp = testsupport::treeFingerprint(home);
    for (auto it = fp.begin(); it != fp.end();) {
        // The registry changes are compared table by table; lock files are empty and
        // advisory (the first reconcile creates them).
        if (it.key().startsWith(QLatin1String("registry.sqlite")) || it.key().startsWith(QLatin1String("locks")))
            it = fp.erase(it);
        else
            ++it;
    }
    return fp;
}

}  // namespace

class TestRecovery : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<Registry> reg_;
    std::int64_t run_ = 0, branch_ = 0;
    const std::string name_ = "r";

    std::string home() const { return dir_->path().toStdString() + "/home"; }
    QString qhome() const { return QString::fromStdString(home()); }
    QString abs(const CheckpointRow& c) const { return QString::fromStdString(reg_->absolute(c.path)); }
    QString runDir() const { return QString::fromStdString(reg_->absolute(checkpoint_dir_relative(name_))); }

    CheckpointRow row(std::int64_t gs, std::optional<std::int64_t> parent) {
        CheckpointRow c;
        c.run_id = run_;
        c.branch_id = branch_;
        c.parent_id = parent;
        c.epoch = (gs - 1) / 10 + 1;
        c.step = (gs - 1) % 10 + 1;
        c.global_step = gs;
        c.path = checkpoint_dir_relative(name_);
        c.params_sha256 = std::string(64, '0');
        return c;
    }

    // Writes a complete, valid checkpoint file for row `id` (durably, like the writer).
    std::pair<std::string, std::uint64_t> writeFile(std::int64_t id, std::int64_t metaId = 0,
                                                    const std::string& run = "") {
        auto c = *reg_->checkpoint(id);
        make_directories(parent_directory(reg_->absolute(c.path)));
        nlohmann::json meta = {{"format", "savepoint-checkpoint"},
                               {"run", run.empty() ? name_ : run},
                               {"checkpoint_id", metaId ? metaId : id},
                               {"global_step", c.global_step},
                               {"params_sha256", std::string(64, 'c')}};
        std::vector<std::uint8_t> payload(256);
        for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = std::uint8_t(i + id);
        RawTensor t;
        t.name = "model/w";
        t.dtype = DType::U8;
        t.dims = {256};
        t.data = payload.data();
        t.nbytes = payload.size();
        const std::string m = meta.dump();
        const std::uint64_t size = checkpoint_file_size(m, {t});
        DurableWriter w(reg_->absolute(c.path), size);
        std::string sha = write_checkpoint(m, {t}, [&](const void* p, std::size_t n) { w.write(p, n); });
        w.commit();
        return {sha, size};
    }

    std::int64_t committed(std::int64_t gs, std::optional<std::int64_t> parent) {
        const auto id = reg_->insert_writing_checkpoint(row(gs, parent));
        auto [sha, size] = writeFile(id);
        reg_->commit_checkpoint(id, std::int64_t(size), sha, 1, 1);
        return id;
    }

    std::vector<EventRow> eventsOfKind(const std::string& kind) {
        std::vector<EventRow> out;
        for (auto& e : reg_->events(run_))
            if (savepoint::to_string(e.kind) == kind) out.push_back(e);
        return out;
    }

    static bool anyContains(const RecoveryReport& r, const QString& text) {
        for (const auto& a : r.actions)
            if (QString::fromStdString(a).contains(text)) return true;
        return false;
    }

private Q_SLOTS:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
        reg_ = std::make_unique<Registry>(home());
        run_ = reg_->create_run(name_, "{}", 10, 100, "cpu");
        branch_ = reg_->find_run(name_)->active_branch_id;
    }
    void cleanup() {
        reg_.reset();
        dir_.reset();
    }

    void cleanStateIsLeftAlone() {
        const auto a = committed(10, std::nullopt);
        committed(20, a);
        const QString before = dumpTables(*reg_);
        const auto files = filesExceptRegistry(qhome());
        RecoveryReport r = reconcile_registry(*reg_);
        QVERIFY2(r.actions.empty(), r.actions.empty() ? "" : r.actions.front().c_str());
        QCOMPARE(dumpTables(*reg_), before);
        QCOMPARE(testsupport::diffFingerprints(files, filesExceptRegistry(qhome())), QString());
    }

    void writingRowWithoutFileBecomesFailed() {
        const auto good = committed(10, std::nullopt);
        const auto id = reg_->insert_writing_checkpoint(row(20, good));  // crash right after transaction A
        RecoveryReport r = reconcile_registry(*reg_);
        auto c = reg_->checkpoint(id);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("failed"));
        QVERIFY(!c->state_detail.empty());
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), good);  // head untouched
        QVERIFY(anyContains(
            r, QStringLiteral("checkpoint #%1 at epoch 2, step 10 (global step 20) was only half written").arg(id)));
        auto ev = eventsOfKind("recovery");
        QCOMPARE(ev.size(), std::size_t(1));
        QCOMPARE(ev[0].checkpoint_id.value_or(-1), id);
        QVERIFY(!QFileInfo::exists(abs(*c)));
    }

    void writingRowWithCompleteFileIsRolledForward() {
        const auto good = committed(10, std::nullopt);
        const auto id = reg_->insert_writing_checkpoint(row(20, good));
        auto [sha, size] = writeFile(id);  // crash after rename, before transaction B
        RecoveryReport r = reconcile_registry(*reg_);
        auto c = reg_->checkpoint(id);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("committed"));
        QCOMPARE(QString::fromStdString(c->sha256), QString::fromStdString(sha));
        QCOMPARE(c->bytes, std::int64_t(size));
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), id);  // head moved with it
        QVERIFY(QFileInfo::exists(abs(*c)));
        QVERIFY(anyContains(r, QStringLiteral("checkpoint #%1 at epoch 2, step 10 (global step 20) was fully written "
                                              "before the process stopped; committed it")
                                   .arg(id)));
        QCOMPARE(eventsOfKind("recovery").size(), std::size_t(1));
        // The committed file passes full verification against the registry's hash.
        QVERIFY(verify_checkpoint_file(reg_->absolute(c->path), c->sha256).ok);
    }

    void rolledForwardRowTakesTheParametersHashFromTheFile() {
        // The I/O thread hashes the parameters after transaction A: a row it
        // left 'writing' may have no hash yet. Rolled forward, it gets the file's.
        const auto good = committed(10, std::nullopt);
        CheckpointRow r = row(20, good);
        r.params_sha256.clear();
        const auto id = reg_->insert_writing_checkpoint(r);
        QVERIFY(reg_->checkpoint(id)->params_sha256.empty());
        writeFile(id);
        reconcile_registry(*reg_);
        auto c = reg_->checkpoint(id);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("committed"));
        QCOMPARE(QString::fromStdString(c->params_sha256), QString(64, QLatin1Char('c')));
        // A row that had its hash keeps it (the file's says the same in practice).
        QCOMPARE(QString::fromStdString(reg_->checkpoint(good)->params_sha256), QString(64, QLatin1Char('0')));
    }

    void writingRowWithAnotherCheckpointsFileIsDiscarded() {
        const auto id = reg_->insert_writing_checkpoint(row(20, std::nullopt));
        writeFile(id, /*metaId=*/id + 100);  // a valid file, but its header names another checkpoint
        reconcile_registry(*reg_);
        auto c = reg_->checkpoint(id);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("failed"));
        QVERIFY(!QFileInfo::exists(abs(*c)));
        QVERIFY(!reg_->run_by_id(run_)->head_checkpoint_id.has_value());
    }

    void writingRowWithTruncatedFileIsDiscarded() {
        const auto good = committed(10, std::nullopt);
        const auto id = reg_->insert_writing_checkpoint(row(20, good));
        writeFile(id);
        auto c = *reg_->checkpoint(id);
        const qint64 full = QFileInfo(abs(c)).size();
        QVERIFY(testsupport::truncateFile(abs(c), full / 2));
        // and the temp file of the same attempt
        QVERIFY(testsupport::writeAll(abs(c) + ".tmp", QByteArray("partial")));
        reconcile_registry(*reg_);
        c = *reg_->checkpoint(id);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c.state)), QStringLiteral("failed"));
        QVERIFY(!QFileInfo::exists(abs(c)));
        QVERIFY(!QFileInfo::exists(abs(c) + ".tmp"));
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), good);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(good)->state)), QStringLiteral("committed"));
    }

    void leftoverTempFilesAreRemoved() {
        const auto good = committed(10, std::nullopt);
        const QString tmp1 = runDir() + "ckpt-00000099.svpt.tmp";
        const QString tmp2 = runDir() + QString::fromStdString(checkpoint_file_name(good)) + ".tmp";
        QVERIFY(testsupport::writeAll(tmp1, QByteArray(1000, 'x')));
        QVERIFY(testsupport::writeAll(tmp2, QByteArray()));
        RecoveryReport r = reconcile_registry(*reg_);
        QVERIFY(!QFileInfo::exists(tmp1));
        QVERIFY(!QFileInfo::exists(tmp2));
        QVERIFY(anyContains(r, QStringLiteral("removed temp file ") + tmp1));
        // Temp files are never quarantined and the real checkpoint is untouched.
        QVERIFY(!QFileInfo::exists(qhome() + "/quarantine/r-ckpt-00000099.svpt.tmp"));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(good)->state)), QStringLiteral("committed"));
        QVERIFY(QFileInfo::exists(abs(*reg_->checkpoint(good))));
    }

    void deletingRowIsFinished() {
        const auto a = committed(10, std::nullopt);
        const auto b = committed(20, a);
        committed(30, b);
        // Retention marked #a 'deleting' and the process died before (or after) the unlink.
        reg_->set_checkpoint_state(a, savepoint::CheckpointState::Deleting);
        reg_->set_checkpoint_state(b, savepoint::CheckpointState::Deleting);
        QVERIFY(QFile::remove(abs(*reg_->checkpoint(b))));  // unlinked, row not updated yet
        RecoveryReport r = reconcile_registry(*reg_);
        for (auto id : {a, b}) {
            auto c = reg_->checkpoint(id);
            QVERIFY(c.has_value());  // the row stays as a tombstone: children's parent ids must stay valid
            QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("deleted"));
            QVERIFY(!QFileInfo::exists(abs(*c)));
        }
        QVERIFY(anyContains(r, QStringLiteral("finished deleting checkpoint #%1").arg(a)));
        QVERIFY(reg_->checkpoints_in_state(savepoint::CheckpointState::Deleting).empty());
    }

    void committedRowWithMissingFileBecomesMissing() {
        const auto a = committed(10, std::nullopt);
        const auto b = committed(20, a);
        const QString path = abs(*reg_->checkpoint(a));
        QVERIFY(QFile::remove(path));
        RecoveryReport r = reconcile_registry(*reg_);
        auto c = reg_->checkpoint(a);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("missing"));
        QCOMPARE(QString::fromStdString(c->state_detail), path + ": file is missing");
        QVERIFY(anyContains(
            r, QStringLiteral("checkpoint #%1 at epoch 1, step 10 (global step 10) is missing: ").arg(a) + path));
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), b);  // the head was fine
        QCOMPARE(eventsOfKind("recovery").size(), std::size_t(1));
    }

    void committedRowWithCorruptFileBecomesCorrupt_data() {
        QTest::addColumn<QString>("damage");
        QTest::newRow("truncated") << "truncate";
        QTest::newRow("zero length") << "zero";
        QTest::newRow("footer flipped") << "footer";
        QTest::newRow("swapped") << "swap";
    }
    void committedRowWithCorruptFileBecomesCorrupt() {
        QFETCH(QString, damage);
        const auto a = committed(10, std::nullopt);
        const auto b = committed(20, a);
        const QString path = abs(*reg_->checkpoint(a));
        if (damage == "truncate")
            QVERIFY(testsupport::truncateFile(path, QFileInfo(path).size() - 5));
        else if (damage == "zero")
            QVERIFY(testsupport::truncateFile(path, 0));
        else if (damage == "footer")
            QVERIFY(testsupport::flipByte(path, -20));
        else
            QVERIFY(QFile::remove(path) && QFile::copy(abs(*reg_->checkpoint(b)), path));
        reconcile_registry(*reg_);
        auto c = reg_->checkpoint(a);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("corrupt"));
        QVERIFY2(QString::fromStdString(c->state_detail).startsWith(path + ": "), c->state_detail.c_str());
        QVERIFY(QFileInfo::exists(path));  // damaged files are kept for inspection, just never offered
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(b)->state)), QStringLiteral("committed"));
    }

    void orphanFilesAreQuarantined() {
        const auto a = committed(10, std::nullopt);
        // A valid checkpoint file the registry does not know (its row was lost) and a stray garbage file.
        const QString orphan = runDir() + "ckpt-00000050.svpt";
        QVERIFY(QFile::copy(abs(*reg_->checkpoint(a)), orphan));
        const QString junk = runDir() + "notes.txt";
        QVERIFY(testsupport::writeAll(junk, QByteArray("hello")));
        const QByteArray orphanSha = testsupport::fileSha256(orphan);
        RecoveryReport r = reconcile_registry(*reg_);
        QVERIFY(!QFileInfo::exists(orphan));
        QVERIFY(!QFileInfo::exists(junk));
        const QString q1 = qhome() + "/quarantine/r-ckpt-00000050.svpt";
        const QString q2 = qhome() + "/quarantine/r-notes.txt";
        QVERIFY(QFileInfo::exists(q1));
        QVERIFY(QFileInfo::exists(q2));
        QCOMPARE(testsupport::fileSha256(q1), orphanSha);  // moved, not rewritten
        QVERIFY(anyContains(r, QStringLiteral("file ") + orphan +
                                   QStringLiteral(" is not in the registry (it verifies); moved it to ") + q1));
        QVERIFY(anyContains(r, QStringLiteral("file ") + junk + QStringLiteral(" is not in the registry (")));
        // The registry gained no rows for them, and the known checkpoint is untouched.
        QCOMPARE(reg_->checkpoints(run_).size(), std::size_t(1));
        QVERIFY(QFileInfo::exists(abs(*reg_->checkpoint(a))));

        // After another power loss the same id (so the same file name) can turn up orphaned
        // again: it is quarantined beside the first one, which stays as it was.
        const QByteArray second("another orphan under a reused name");
        QVERIFY(testsupport::writeAll(orphan, second));
        RecoveryReport r2 = reconcile_registry(*reg_);
        QVERIFY(!QFileInfo::exists(orphan));
        QCOMPARE(testsupport::fileSha256(q1), orphanSha);
        const QString q1b = q1 + QStringLiteral(".2");
        QVERIFY(QFileInfo::exists(q1b));
        QFile f(q1b);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), second);
        QVERIFY(anyContains(r2, QStringLiteral("; moved it to ") + q1b));
    }

    // The registry was lost or replaced: a directory under checkpoints/ names
    // no run. Its files go to quarantine/ before a run of that name gets its
    // ids (and so its file names) again — unless a live writer holds it.
    void directoryOfNoRunIsQuarantined() {
        const auto a = committed(10, std::nullopt);
        const QString lost = qhome() + "/checkpoints/gone/";
        QVERIFY(QDir().mkpath(lost));
        QVERIFY(QFile::copy(abs(*reg_->checkpoint(a)), lost + "ckpt-00000001.svpt"));
        QVERIFY(testsupport::writeAll(lost + "ckpt-00000002.svpt.tmp", QByteArray("half written")));
        const QByteArray sha1 = testsupport::fileSha256(lost + "ckpt-00000001.svpt");
        const QByteArray sha2 = testsupport::fileSha256(lost + "ckpt-00000002.svpt.tmp");

        // Held by a live writer: left alone.
        int fd = -1;
        make_directories(locks_dir(home()));
        QVERIFY(FileLock::try_hold(run_lock_path(home(), "gone"), &fd));
        RecoveryReport held = reconcile_registry(*reg_);
        FileLock::release(fd);
        QVERIFY(QFileInfo::exists(lost + "ckpt-00000001.svpt"));
        QVERIFY(!anyContains(held, QStringLiteral("gone")));

        RecoveryReport r = reconcile_registry(*reg_);
        QCOMPARE(QDir(lost).entryList(QDir::Files).size(), 0);
        QCOMPARE(testsupport::fileSha256(qhome() + "/quarantine/gone-ckpt-00000001.svpt"), sha1);
        QCOMPARE(testsupport::fileSha256(qhome() + "/quarantine/gone-ckpt-00000002.svpt.tmp"), sha2);
        QVERIFY(anyContains(
            r, QStringLiteral("checkpoint directory ") + lost + QStringLiteral(" belongs to no run in the registry")));
        QVERIFY(anyContains(r, QStringLiteral("moved 2 files to ") + qhome() + QStringLiteral("/quarantine")));
        // The known run's checkpoint is untouched, and a second pass has nothing to say.
        QVERIFY(QFileInfo::exists(abs(*reg_->checkpoint(a))));
        QVERIFY(!anyContains(reconcile_registry(*reg_), QStringLiteral("gone")));
    }

    void runLeftRunningBecomesInterrupted() {
        committed(10, std::nullopt);
        reg_->set_run_status(run_, savepoint::RunStatus::Running);
        reg_->set_run_progress(run_, 17);
        SessionRow s;
        s.run_id = run_;
        s.branch_id = branch_;
        s.kind = savepoint::SessionKind::Train;
        s.id = reg_->begin_session(s);
        RecoveryReport r = reconcile_registry(*reg_);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->run_by_id(run_)->status)),
                 QStringLiteral("interrupted"));
        auto ev = eventsOfKind("interruption");
        QCOMPARE(ev.size(), std::size_t(1));
        QCOMPARE(ev[0].global_step, std::int64_t(17));
        QVERIFY(QString::fromStdString(ev[0].message).contains(QLatin1String("ended without closing the run")));
        auto sessions = reg_->sessions(run_);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(sessions[0].ended_by)), QStringLiteral("killed"));
        QCOMPARE(sessions[0].end_global_step.value_or(-1), std::int64_t(17));
        QVERIFY(!r.actions.empty());
    }

    void runWithALiveWriterIsSkipped() {
        const auto a = committed(10, std::nullopt);
        reg_->set_run_status(run_, savepoint::RunStatus::Running);
        const auto id = reg_->insert_writing_checkpoint(row(20, a));  // being written right now
        const QString tmp = runDir() + QString::fromStdString(checkpoint_file_name(id)) + ".tmp";
        QVERIFY(testsupport::writeAll(tmp, QByteArray("in progress")));
        {
            // Another writer holds the run's lock (a separate open file description
            // conflicts with flock even inside this process).
            FileLock writer(run_lock_path(home(), name_), false, "run");
            const QString before = dumpTables(*reg_);
            RecoveryReport r = reconcile_registry(*reg_);
            QVERIFY(r.actions.empty());
            QCOMPARE(dumpTables(*reg_), before);
            QVERIFY(QFileInfo::exists(tmp));
            QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(id)->state)), QStringLiteral("writing"));
        }
        // Once the writer is gone, the same state is recovered.
        reconcile_registry(*reg_);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->run_by_id(run_)->status)),
                 QStringLiteral("interrupted"));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(id)->state)), QStringLiteral("failed"));
        QVERIFY(!QFileInfo::exists(tmp));
    }

    void unusableHeadFallsBackToNewestUsableAncestor() {
        const auto a = committed(10, std::nullopt);
        const auto b = committed(20, a);
        const auto c = committed(35, b);
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), c);
        QVERIFY(testsupport::truncateFile(abs(*reg_->checkpoint(c)), 10));
        RecoveryReport r = reconcile_registry(*reg_);
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), b);
        const QString msg = QStringLiteral(
                                "run 'r': head checkpoint #%1 is not usable; training will resume from checkpoint #%2 "
                                "at epoch 2, step 10 (global step 20)")
                                .arg(c)
                                .arg(b);
        QVERIFY2(anyContains(r, msg), qPrintable(msg));
        bool evented = false;
        for (auto& e : eventsOfKind("recovery"))
            evented = evented || (QString::fromStdString(e.message) == msg && e.checkpoint_id.value_or(-1) == b &&
                                  e.global_step == 20);
        QVERIFY(evented);
    }

    void fallbackPassesThroughDeletedAndDamagedAncestors() {
        const auto a = committed(10, std::nullopt);
        const auto b = committed(20, a);
        const auto c = committed(30, b);
        const auto d = committed(40, c);
        reg_->set_checkpoint_state(b, savepoint::CheckpointState::Deleted);  // removed by retention long ago
        QVERIFY(QFile::remove(abs(*reg_->checkpoint(b))));
        QVERIFY(QFile::remove(abs(*reg_->checkpoint(c))));              // missing
        QVERIFY(testsupport::flipByte(abs(*reg_->checkpoint(d)), -1));  // footer magic damaged
        reconcile_registry(*reg_);
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), a);
        QCOMPARE(newest_usable_ancestor(*reg_, d)->id, a);
        QVERIFY(!newest_usable_ancestor(*reg_, std::nullopt).has_value());
    }

    void noUsableAncestorMeansFromTheBeginning() {
        const auto a = committed(10, std::nullopt);
        const auto b = committed(20, a);
        QVERIFY(QFile::remove(abs(*reg_->checkpoint(a))));
        QVERIFY(QFile::remove(abs(*reg_->checkpoint(b))));
        RecoveryReport r = reconcile_registry(*reg_);
        QVERIFY(!reg_->run_by_id(run_)->head_checkpoint_id.has_value());
        QVERIFY(anyContains(
            r, QStringLiteral(
                   "head checkpoint #%1 is not usable; training will resume from the beginning (no usable checkpoint)")
                   .arg(b)));
    }

    void reconcileIsIdempotent() {
        // Every damage at once, across two runs.
        const auto other = reg_->create_run("other", "{}", 10, 100, "cpu");
        Q_UNUSED(other);
        const auto a = committed(10, std::nullopt);
        const auto b = committed(20, a);
        const auto c = committed(30, b);
        const auto d = committed(40, c);
        const auto w1 = reg_->insert_writing_checkpoint(row(50, d));
        writeFile(w1);                                                        // roll forward
        const auto w2 = reg_->insert_writing_checkpoint(row(60, w1));         // no file -> failed
        reg_->set_checkpoint_state(a, savepoint::CheckpointState::Deleting);  // finish deleting
        QVERIFY(QFile::remove(abs(*reg_->checkpoint(b))));                    // missing
        QVERIFY(testsupport::truncateFile(abs(*reg_->checkpoint(c)), 100));   // corrupt
        QVERIFY(testsupport::writeAll(runDir() + "ckpt-00000077.svpt", QByteArray("orphan")));
        QVERIFY(testsupport::writeAll(runDir() + "ckpt-00000078.svpt.tmp", QByteArray("tmp")));
        reg_->set_run_status(run_, savepoint::RunStatus::Running);
        Q_UNUSED(w2);

        RecoveryReport first = reconcile_registry(*reg_);
        QVERIFY(first.actions.size() >= 6);
        const QString tables = dumpTables(*reg_);
        const auto files = filesExceptRegistry(qhome());
        RecoveryReport second = reconcile_registry(*reg_);
        QVERIFY2(second.actions.empty(), second.actions.empty() ? "" : second.actions.front().c_str());
        QCOMPARE(dumpTables(*reg_), tables);
        QCOMPARE(testsupport::diffFingerprints(files, filesExceptRegistry(qhome())), QString());
        // And from a brand-new connection, as the next process would see it.
        reg_.reset();
        reg_ = std::make_unique<Registry>(home());
        RecoveryReport third = reconcile_registry(*reg_);
        QVERIFY(third.actions.empty());
        QCOMPARE(dumpTables(*reg_), tables);
        // The outcome itself.
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), w1);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(w1)->state)), QStringLiteral("committed"));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(a)->state)), QStringLiteral("deleted"));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(b)->state)), QStringLiteral("missing"));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(c)->state)), QStringLiteral("corrupt"));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(d)->state)), QStringLiteral("committed"));
    }
};

QTEST_APPLESS_MAIN(TestRecovery)
#include "test_recovery.moc"
