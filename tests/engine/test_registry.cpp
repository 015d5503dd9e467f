// Tests for the run registry (engine/registry/registry.cpp, registry_schema.cpp): the
// schema version and its migrations, the durability pragmas actually in force
// on every connection, foreign keys enforced, every table's round trip, and
// commit_checkpoint moving the head in the same transaction as the state
// change (checked by failing the commit and seeing neither happen).
#include "platform/errors.h"
#include "registry/checkpoint_remotes.h"
#include "registry/registry.h"
#include "registry/registry_schema.h"
#include "storage/durable_io.h"

#include "test_home.h"

#include <QtTest>

#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <functional>

using namespace savepoint;

namespace {

std::string pragmaText(sqlite3* db, const char* sql) {
    sqlite3_stmt* st = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        auto* t = sqlite3_column_text(st, 0);
        out = t ? reinterpret_cast<const char*>(t) : "";
    }
    sqlite3_finalize(st);
    return out;
}

bool execRaw(sqlite3* db, const char* sql, std::string* err = nullptr) {
    char* e = nullptr;
    int rc = sqlite3_exec(db, sql, nullptr, nullptr, &e);
    if (err) *err = e ? e : "";
    sqlite3_free(e);
    return rc == SQLITE_OK;
}

template <typename E>
QString errorOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const E& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("WRONG EXCEPTION TYPE: ") + QString::fromStdString(e.what());
    }
    return QString();
}

CheckpointRow newRow(std::int64_t run, std::int64_t branch, std::int64_t gs, std::optional<std::int64_t> parent = {}) {
    CheckpointRow c;
    c.run_id = run;
    c.branch_id = branch;
    c.parent_id = parent;
    c.epoch = (gs - 1) / 10 + 1;
    c.step = (gs - 1) % 10 + 1;
    c.global_step = gs;
    c.kind = savepoint::CheckpointKind::Regular;
    c.path = "checkpoints/r/";
    c.params_sha256 = std::string(64, 'a');
    c.train_loss = 0.5;
    c.train_accuracy = 0.75;
    c.val_loss = NAN;
    c.val_accuracy = NAN;
    return c;
}

}  // namespace

class TestRegistry : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> dir_;
    std::string home() const { return dir_->path().toStdString() + "/home"; }

private Q_SLOTS:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
    }
    void cleanup() { set_fault_hook(nullptr); }

    void createsHomeAndSchema() {
        Registry reg(home());
        QVERIFY(QFileInfo(QString::fromStdString(home() + "/registry.sqlite")).isFile());
        QCOMPARE(QString::fromStdString(reg.path()), QString::fromStdString(home() + "/registry.sqlite"));
        QCOMPARE(registry_schema_version(reg.db()), kRegistrySchemaVersion);
        QCOMPARE(kRegistrySchemaVersion, 7);
        for (const char* table : {"runs", "branches", "checkpoints", "sessions", "metrics", "events"}) {
            std::string sql =
                std::string("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='") + table + "'";
            QCOMPARE(QString::fromStdString(pragmaText(reg.db(), sql.c_str())), QStringLiteral("1"));
        }
        QCOMPARE(QString::fromStdString(reg.integrity_check()), QStringLiteral("ok"));
    }

    void durabilityPragmasOnEveryConnection() {
        { Registry first(home()); }
        // Pragmas other than journal_mode are per connection: check a fresh one on an existing file.
        Registry reg(home());
        QCOMPARE(QString::fromStdString(pragmaText(reg.db(), "PRAGMA journal_mode")), QStringLiteral("wal"));
        QCOMPARE(QString::fromStdString(pragmaText(reg.db(), "PRAGMA synchronous")), QStringLiteral("2"));  // FULL
        QCOMPARE(QString::fromStdString(pragmaText(reg.db(), "PRAGMA foreign_keys")), QStringLiteral("1"));
        // And a connection made by someone else sees WAL as the file's mode (it is persistent).
        sqlite3* raw = nullptr;
        QCOMPARE(sqlite3_open((home() + "/registry.sqlite").c_str(), &raw), SQLITE_OK);
        QCOMPARE(QString::fromStdString(pragmaText(raw, "PRAGMA journal_mode")), QStringLiteral("wal"));
        sqlite3_close(raw);
    }

    void foreignKeysAreEnforced() {
        Registry reg(home());
        CheckpointRow orphan = newRow(999, 999, 1);
        const QString err = errorOf<StorageError>([&] { reg.insert_writing_checkpoint(orphan); });
        QVERIFY2(err.contains(QLatin1String("FOREIGN KEY constraint failed")), qPrintable(err));
        QVERIFY2(err.startsWith(QString::fromStdString(reg.path())), qPrintable(err));
        QCOMPARE(QString::fromStdString(pragmaText(reg.db(), "SELECT count(*) FROM checkpoints")), QStringLiteral("0"));
    }

    void checkConstraintsRefuseUnknownStates() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        // The API can only write the words of the enums (row_states.h); the schema refuses any other.
        QVERIFY(!execRaw(reg.db(), ("UPDATE runs SET status='exploded' WHERE id=" + std::to_string(run)).c_str()));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg.run_by_id(run)->status)), QStringLiteral("created"));
        const auto id = reg.insert_writing_checkpoint(newRow(run, reg.run_by_id(run)->active_branch_id, 1));
        QVERIFY(
            !execRaw(reg.db(), ("UPDATE checkpoints SET state='half-done' WHERE id=" + std::to_string(id)).c_str()));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg.checkpoint(id)->state)), QStringLiteral("writing"));
    }

    void newerSchemaIsRefusedAndLeftAlone() {
        { Registry reg(home()); }
        sqlite3* raw = nullptr;
        QCOMPARE(sqlite3_open((home() + "/registry.sqlite").c_str(), &raw), SQLITE_OK);
        QVERIFY(execRaw(raw, "PRAGMA user_version = 99"));
        sqlite3_close(raw);
        const QString db = QString::fromStdString(home() + "/registry.sqlite");
        const QByteArray before = testsupport::fileSha256(db);
        const QString err = errorOf<InputError>([&] { Registry reg(home()); });
        QCOMPARE(err, db + QStringLiteral(": registry schema version: expected at most 7, found 99 (made by a newer "
                                          "Savepoint; nothing was changed)"));
        QCOMPARE(testsupport::fileSha256(db), before);
    }

    void migratesVersion1AndKeepsData() {
        make_directories(home());
        sqlite3* raw = nullptr;
        const std::string path = home() + "/registry.sqlite";
        QCOMPARE(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
        migrate_registry(raw, path, 1);
        QCOMPARE(registry_schema_version(raw), 1);
        QVERIFY(
            execRaw(raw,
                    "INSERT INTO runs(name, config_json, steps_per_epoch, total_steps, status, created_at, updated_at) "
                    "VALUES ('old', '{\"epochs\":2}', 5, 10, 'finished', 1, 2)"));
        std::string err;
        QVERIFY(!execRaw(raw, "SELECT write_ms FROM checkpoints", &err));  // v1 has no timing columns
        sqlite3_close(raw);

        Registry reg(home());
        QCOMPARE(registry_schema_version(reg.db()), kRegistrySchemaVersion);
        auto old = reg.find_run("old");
        QVERIFY(old.has_value());
        QCOMPARE(QString::fromLatin1(savepoint::to_string(old->status)), QStringLiteral("finished"));
        QCOMPARE(old->total_steps, std::int64_t(10));
        QVERIFY(execRaw(reg.db(), "SELECT write_ms, stall_ms FROM checkpoints"));
        QVERIFY(execRaw(reg.db(), "SELECT lr FROM branches"));  // v3
    }

    void failedMigrationLeavesTheFileAsItWas() {
        make_directories(home());
        sqlite3* raw = nullptr;
        const std::string path = home() + "/registry.sqlite";
        QCOMPARE(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
        migrate_registry(raw, path, 1);
        sqlite3_close(raw);
        set_fault_hook(
            [](const char* op, const std::string&) { return std::string(op) == "registry.migrate" ? EIO : 0; });
        const QString err = errorOf<StorageError>([&] { Registry reg(home()); });
        QVERIFY2(err.contains(QLatin1String("registry migration to version 2 failed")), qPrintable(err));
        set_fault_hook(nullptr);
        QCOMPARE(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
        QCOMPARE(registry_schema_version(raw), 1);
        sqlite3_close(raw);
        Registry reg(home());  // and a later open completes it
        QCOMPARE(registry_schema_version(reg.db()), kRegistrySchemaVersion);
    }

    void notADatabaseIsRefusedAndLeftAlone() {
        make_directories(home());
        const QString db = QString::fromStdString(home() + "/registry.sqlite");
        QVERIFY(testsupport::writeAll(db, QByteArray("this is not a database, it is a note to self\n").repeated(100)));
        const QByteArray before = testsupport::fileSha256(db);
        const QString err = errorOf<StorageError>([&] { Registry reg(home()); });
        QVERIFY2(err.startsWith(db + QStringLiteral(": registry: ")), qPrintable(err));
        QVERIFY2(err.contains(QLatin1String("not a database")), qPrintable(err));
        QCOMPARE(testsupport::fileSha256(db), before);
    }

    void runsRoundTrip() {
        Registry reg(home());
        const double t0 = now_seconds();
        const auto id = reg.create_run("alpha", "{\"model\":\"mlp\"}", 100, 1000, "cpu (1 threads)");
        const auto id2 = reg.create_run("beta", "{}", 7, 14, "cuda");
        QVERIFY(id != id2);
        auto r = reg.find_run("alpha");
        QVERIFY(r.has_value());
        QCOMPARE(r->id, id);
        QCOMPARE(QString::fromStdString(r->name), QStringLiteral("alpha"));
        QCOMPARE(QString::fromStdString(r->config_json), QStringLiteral("{\"model\":\"mlp\"}"));
        QCOMPARE(r->steps_per_epoch, std::int64_t(100));
        QCOMPARE(r->total_steps, std::int64_t(1000));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(r->status)), QStringLiteral("created"));
        QCOMPARE(QString::fromStdString(r->device), QStringLiteral("cpu (1 threads)"));
        QVERIFY(!r->head_checkpoint_id.has_value());
        QCOMPARE(r->global_step, std::int64_t(0));
        QVERIFY(r->created_at >= t0 - 1 && r->created_at <= now_seconds() + 1);
        // Its first branch exists and is active.
        auto br = reg.branches(id);
        QCOMPARE(br.size(), std::size_t(1));
        QCOMPARE(r->active_branch_id, br[0].id);
        QVERIFY(!br[0].parent_branch_id.has_value());
        QVERIFY(!reg.find_run("gamma").has_value());
        QVERIFY(!reg.run_by_id(12345).has_value());
        auto all = reg.list_runs();
        QCOMPARE(all.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(all[0].name), QStringLiteral("alpha"));
        QCOMPARE(QString::fromStdString(all[1].name), QStringLiteral("beta"));

        reg.set_run_status(id, savepoint::RunStatus::Running);
        reg.set_run_progress(id, 42);
        reg.set_run_device(id, "cuda");
        r = reg.run_by_id(id);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(r->status)), QStringLiteral("running"));
        QCOMPARE(r->global_step, std::int64_t(42));
        QCOMPARE(QString::fromStdString(r->device), QStringLiteral("cuda"));
        QVERIFY(r->updated_at >= r->created_at);
        // The other run is untouched.
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg.run_by_id(id2)->status)), QStringLiteral("created"));
    }

    void duplicateRunNameIsAnInputError() {
        Registry reg(home());
        reg.create_run("dup", "{\"a\":1}", 1, 1, "cpu");
        const QString err = errorOf<InputError>([&] { reg.create_run("dup", "{\"b\":2}", 2, 2, "cpu"); });
        QVERIFY2(err.contains(QLatin1String("--run: a run named 'dup' already exists")), qPrintable(err));
        QCOMPARE(reg.list_runs().size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(reg.find_run("dup")->config_json), QStringLiteral("{\"a\":1}"));
        QCOMPARE(reg.branches(reg.find_run("dup")->id).size(), std::size_t(1));
    }

    void checkpointLifecycleAndHead() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        const auto branch = reg.find_run("r")->active_branch_id;
        CheckpointRow row = newRow(run, branch, 12);
        const auto id = reg.insert_writing_checkpoint(row);
        auto c = reg.checkpoint(id);
        QVERIFY(c.has_value());
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("writing"));
        QCOMPARE(QString::fromStdString(c->path),
                 QStringLiteral("checkpoints/r/") + QString::fromStdString(checkpoint_file_name(id)));
        QCOMPARE(QString::fromStdString(checkpoint_file_name(12)), QStringLiteral("ckpt-00000012.svpt"));
        QCOMPARE(c->epoch, std::int64_t(2));
        QCOMPARE(c->step, std::int64_t(2));
        QCOMPARE(c->global_step, std::int64_t(12));
        QCOMPARE(c->train_loss, 0.5);
        QCOMPARE(c->train_accuracy, 0.75);
        QVERIFY(std::isnan(c->val_loss));  // NaN is stored as NULL and read back as NaN
        QVERIFY(std::isnan(c->write_ms));
        QCOMPARE(QString::fromStdString(c->params_sha256), QString(64, QLatin1Char('a')));
        QVERIFY(!c->usable());
        QVERIFY(!reg.run_by_id(run)->head_checkpoint_id.has_value());  // a writing row is never the head

        reg.commit_checkpoint(id, 1234, std::string(64, 'b'), 5.5, 0.25);
        c = reg.checkpoint(id);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("committed"));
        QVERIFY(c->usable());
        QCOMPARE(c->bytes, std::int64_t(1234));
        QCOMPARE(QString::fromStdString(c->sha256), QString(64, QLatin1Char('b')));
        QCOMPARE(c->write_ms, 5.5);
        QCOMPARE(c->stall_ms, 0.25);
        QCOMPARE(reg.run_by_id(run)->head_checkpoint_id.value_or(-1), id);

        // A second commit of the same row is refused and changes nothing.
        const auto id2 = reg.insert_writing_checkpoint(newRow(run, branch, 20, id));
        reg.commit_checkpoint(id2, 99, std::string(64, 'c'), 1, 1);
        QCOMPARE(reg.run_by_id(run)->head_checkpoint_id.value_or(-1), id2);
        QCOMPARE(reg.checkpoint(id2)->parent_id.value_or(-1), id);
        const QString err = errorOf<StorageError>([&] { reg.commit_checkpoint(id, 1, std::string(64, 'd'), 1, 1); });
        QVERIFY2(err.contains(QLatin1String("is no longer in state 'writing'")), qPrintable(err));
        QCOMPARE(reg.run_by_id(run)->head_checkpoint_id.value_or(-1), id2);
        QCOMPARE(QString::fromStdString(reg.checkpoint(id)->sha256), QString(64, QLatin1Char('b')));

        reg.set_checkpoint_state(id, savepoint::CheckpointState::Corrupt, "footer damaged");
        QCOMPARE(QString::fromStdString(reg.checkpoint(id)->state_detail), QStringLiteral("footer damaged"));
        reg.set_checkpoint_pinned(id, true);
        QVERIFY(reg.checkpoint(id)->pinned);
        reg.set_checkpoint_pinned(id, false);
        QVERIFY(!reg.checkpoint(id)->pinned);
        QCOMPARE(reg.checkpoints_in_state(savepoint::CheckpointState::Corrupt).size(), std::size_t(1));
        QCOMPARE(reg.checkpoints_in_state(savepoint::CheckpointState::Committed).size(), std::size_t(1));
        QCOMPARE(reg.checkpoints(run).size(), std::size_t(2));
        QVERIFY(!reg.checkpoint(777).has_value());
        reg.set_run_head(run, std::nullopt);
        QVERIFY(!reg.run_by_id(run)->head_checkpoint_id.has_value());
    }

    // The remote column and the status bar's backlog (registry/checkpoint_remotes.h).
    void remoteStatesAndBacklog() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        const auto branch = reg.find_run("r")->active_branch_id;
        std::vector<std::int64_t> ids;
        for (int i = 1; i <= 4; ++i) {
            ids.push_back(reg.insert_writing_checkpoint(newRow(run, branch, i * 10)));
            reg.commit_checkpoint(ids.back(), 1000 * i, std::string(64, 'a'), 1, 1);
        }
        QCOMPARE(remote_backlog(reg, run).pending, std::int64_t(0));  // not synced: nothing owed
        CheckpointRemote r;
        r.run_id = run;
        r.remote = "s3://b/p";
        r.checkpoint_id = ids[0];
        r.state = RemoteState::Uploaded;
        r.etag = "e1";
        set_checkpoint_remote(reg, r);
        r.checkpoint_id = ids[1];
        r.state = RemoteState::Failed;
        r.etag.clear();
        r.detail = "503 SlowDown";
        set_checkpoint_remote(reg, r);
        // #3 and #4 have no row yet: the sync has not looked, they are pending all the same.
        const RemoteBacklog b = remote_backlog(reg, run);
        QCOMPARE(b.uploaded, std::int64_t(1));
        QCOMPARE(b.failed, std::int64_t(1));
        QCOMPARE(b.pending, std::int64_t(2));
        QCOMPARE(b.pending_bytes, std::int64_t(2000 + 3000 + 4000));
        const auto rows = checkpoint_remotes(reg, run);
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(rows[0].etag), QStringLiteral("e1"));
        QCOMPARE(rows[1].state, RemoteState::Failed);
        QCOMPARE(QString::fromStdString(rows[1].detail), QStringLiteral("503 SlowDown"));
    }

    void commitMovesHeadAtomically() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        const auto branch = reg.find_run("r")->active_branch_id;
        const auto first = reg.insert_writing_checkpoint(newRow(run, branch, 10));
        reg.commit_checkpoint(first, 10, std::string(64, '1'), 1, 1);
        const auto second = reg.insert_writing_checkpoint(newRow(run, branch, 20, first));
        // The commit of transaction B fails: neither the state nor the head may move.
        set_fault_hook(
            [](const char* op, const std::string&) { return std::string(op) == "registry.commit" ? EIO : 0; });
        QVERIFY(
            !errorOf<StorageError>([&] { reg.commit_checkpoint(second, 20, std::string(64, '2'), 1, 1); }).isEmpty());
        set_fault_hook(nullptr);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg.checkpoint(second)->state)), QStringLiteral("writing"));
        QVERIFY(reg.checkpoint(second)->sha256.empty());
        QCOMPARE(reg.run_by_id(run)->head_checkpoint_id.value_or(-1), first);
        // Seen from another connection too (nothing half-committed is visible).
        {
            Registry other(home());
            QCOMPARE(other.run_by_id(run)->head_checkpoint_id.value_or(-1), first);
            QCOMPARE(QString::fromLatin1(savepoint::to_string(other.checkpoint(second)->state)),
                     QStringLiteral("writing"));
        }
        // Then it can still be committed.
        reg.commit_checkpoint(second, 20, std::string(64, '2'), 1, 1);
        QCOMPARE(reg.run_by_id(run)->head_checkpoint_id.value_or(-1), second);
    }

    void checkpointIdsAreNeverReused() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        const auto branch = reg.find_run("r")->active_branch_id;
        std::int64_t last = 0;
        for (int i = 1; i <= 3; ++i) last = reg.insert_writing_checkpoint(newRow(run, branch, i * 10));
        QCOMPARE(reg.max_checkpoint_id(), last);
        QVERIFY(execRaw(reg.db(), ("DELETE FROM checkpoints WHERE id=" + std::to_string(last)).c_str()));
        const auto next = reg.insert_writing_checkpoint(newRow(run, branch, 40));
        QCOMPARE(next, last + 1);
        QCOMPARE(reg.max_checkpoint_id(), next);
    }

    void branchesRoundTrip() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        const auto root = reg.find_run("r")->active_branch_id;
        const auto c = reg.insert_writing_checkpoint(newRow(run, root, 30));
        reg.commit_checkpoint(c, 1, std::string(64, 'e'), 1, 1);
        const auto later = reg.insert_writing_checkpoint(newRow(run, root, 60, c));
        reg.commit_checkpoint(later, 1, std::string(64, 'f'), 1, 1);
        reg.set_run_progress(run, 65);
        const auto b = reg.create_branch(run, root, c, 35);
        auto r = reg.run_by_id(run);
        QCOMPARE(r->active_branch_id, b);
        QCOMPARE(r->head_checkpoint_id.value_or(-1), c);  // the fork point becomes the head
        QCOMPARE(r->global_step, std::int64_t(35));
        auto br = reg.branches(run);
        QCOMPARE(br.size(), std::size_t(2));
        QCOMPARE(br[1].id, b);
        QCOMPARE(br[1].parent_branch_id.value_or(-1), root);
        QCOMPARE(br[1].fork_checkpoint_id.value_or(-1), c);
        QCOMPARE(br[1].fork_global_step, std::int64_t(35));
        // The old branch's checkpoint is untouched.
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg.checkpoint(later)->state)), QStringLiteral("committed"));
        QCOMPARE(reg.checkpoint(later)->branch_id, root);
    }

    void sessionsRoundTrip() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        SessionRow s;
        s.run_id = run;
        s.branch_id = reg.find_run("r")->active_branch_id;
        s.kind = savepoint::SessionKind::Resume;
        s.from_checkpoint_id = std::nullopt;
        s.start_global_step = 20;
        s.target_global_step = 25;
        s.id = reg.begin_session(s);
        auto all = reg.sessions(run);
        QCOMPARE(all.size(), std::size_t(1));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(all[0].kind)), QStringLiteral("resume"));
        QCOMPARE(all[0].pid, std::int64_t(::getpid()));
        QVERIFY(all[0].ended_by == SessionEnd::None);
        QVERIFY(!all[0].end_global_step.has_value());
        s.end_global_step = 77;
        s.ended_by = savepoint::SessionEnd::Preempted;
        s.steps_computed = 57;
        s.steps_replayed = 5;
        s.train_seconds = 1.5;
        s.checkpoint_seconds = 0.25;
        s.checkpoint_stall_seconds = 0.125;
        reg.end_session(s);
        all = reg.sessions(run);
        QCOMPARE(all[0].end_global_step.value_or(-1), std::int64_t(77));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(all[0].ended_by)), QStringLiteral("preempted"));
        QCOMPARE(all[0].steps_computed, std::int64_t(57));
        QCOMPARE(all[0].steps_replayed, std::int64_t(5));
        QCOMPARE(all[0].start_global_step, std::int64_t(20));
        QCOMPARE(all[0].target_global_step, std::int64_t(25));
        QCOMPARE(all[0].train_seconds, 1.5);
        QCOMPARE(all[0].checkpoint_seconds, 0.25);
        QCOMPARE(all[0].checkpoint_stall_seconds, 0.125);
        QVERIFY(all[0].ended_at >= all[0].started_at);
    }

    void metricsAndEventsRoundTrip() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        const auto other = reg.create_run("o", "{}", 10, 100, "cpu");
        std::vector<MetricRow> rows;
        for (int i = 1; i <= 5; ++i)
            rows.push_back({3, 4, i == 5 ? MetricKind::Validation : MetricKind::TrainingStep, i, 1, i, 0.1 * i, 0.2 * i,
                            1000.0 + i});
        reg.append_metrics(run, rows);
        reg.append_metrics(other, {{1, 1, MetricKind::TrainingStep, 1, 1, 1, 9, 9, 9}});
        reg.append_metrics(run, {});
        std::int64_t last = 0;
        auto got = reg.metrics(run, 0, &last);
        QCOMPARE(got.size(), std::size_t(5));
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(got[i].global_step, std::int64_t(i + 1));
            QCOMPARE(got[i].loss, 0.1 * (i + 1));
            QCOMPARE(got[i].accuracy, 0.2 * (i + 1));
            QCOMPARE(got[i].session_id, std::int64_t(3));
            QCOMPARE(got[i].branch_id, std::int64_t(4));
            QCOMPARE(static_cast<int>(got[i].kind), i == 4 ? 1 : 0);
        }
        // Incremental reads: nothing new after the last rowid, then only what was added.
        QVERIFY(reg.metrics(run, last).empty());
        reg.append_metrics(run, {{3, 4, MetricKind::TrainingStep, 6, 1, 6, 0.6, 0.6, 1006}});
        std::int64_t last2 = 0;
        auto more = reg.metrics(run, last, &last2);
        QCOMPARE(more.size(), std::size_t(1));
        QCOMPARE(more[0].global_step, std::int64_t(6));
        QVERIFY(last2 > last);

        EventRow e;
        e.run_id = run;
        e.session_id = 3;
        e.branch_id = std::nullopt;
        e.checkpoint_id = 9;
        e.kind = savepoint::EventKind::Rollback;
        e.global_step = 120;
        e.epoch = 2;
        e.step = 20;
        e.message = "rolling back; quote ' and unicode \xc3\xa9";
        const auto eid = reg.add_event(e);
        EventRow e2 = e;
        e2.kind = savepoint::EventKind::Finish;
        e2.checkpoint_id = std::nullopt;
        reg.add_event(e2);
        auto ev = reg.events(run);
        QCOMPARE(ev.size(), std::size_t(2));
        QCOMPARE(ev[0].id, eid);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(ev[0].kind)), QStringLiteral("rollback"));
        QCOMPARE(QString::fromStdString(ev[0].message),
                 QString::fromUtf8("rolling back; quote ' and unicode \xc3\xa9"));
        QCOMPARE(ev[0].session_id.value_or(-1), std::int64_t(3));
        QVERIFY(!ev[0].branch_id.has_value());
        QCOMPARE(ev[0].checkpoint_id.value_or(-1), std::int64_t(9));
        QCOMPARE(ev[0].global_step, std::int64_t(120));
        QCOMPARE(ev[0].epoch, std::int64_t(2));
        QCOMPARE(ev[0].step, std::int64_t(20));
        QVERIFY(ev[0].created_at > 0);
        QVERIFY(!ev[1].checkpoint_id.has_value());
        QCOMPARE(reg.events(run, eid).size(), std::size_t(1));
        QVERIFY(reg.events(other).empty());
        // Counted by kind and run (the GUI's skipped / taken-late figures).
        reg.add_event(e2);
        const auto counts = reg.event_counts(run);
        QCOMPARE(counts.size(), std::size_t(2));
        QCOMPARE(counts.at(EventKind::Finish), std::int64_t(2));
        QCOMPARE(counts.at(EventKind::Rollback), std::int64_t(1));
        QCOMPARE(counts.count(EventKind::SaveSkipped), std::size_t(0));
        QVERIFY(reg.event_counts(other).empty());
    }

    void explicitTransactionsRollBack() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        {
            Registry::Transaction tx(reg);  // ends without commit(): rolled back
            reg.set_run_status(run, savepoint::RunStatus::Running);
            reg.set_run_progress(run, 50);
        }
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg.run_by_id(run)->status)), QStringLiteral("created"));
        QCOMPARE(reg.run_by_id(run)->global_step, std::int64_t(0));
        {
            Registry::Transaction tx(reg);
            reg.set_run_progress(run, 51);
            tx.commit();
        }
        QCOMPARE(reg.run_by_id(run)->global_step, std::int64_t(51));
    }

    void twoConnectionsSeeEachOther() {
        Registry a(home());
        Registry b(home());
        const auto run = a.create_run("shared", "{}", 1, 1, "cpu");
        QVERIFY(b.find_run("shared").has_value());
        b.set_run_status(run, savepoint::RunStatus::Finished);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(a.run_by_id(run)->status)), QStringLiteral("finished"));
    }
};

QTEST_APPLESS_MAIN(TestRegistry)
#include "test_registry.moc"
