// Registry upgrades.
//  - A v1 registry (made the way an older Savepoint made it: WAL, v1 schema,
//    rows in it) opens, migrates (v2 ... v7, each in one transaction), keeps its rows, and
//    the CLI lists it.
//  - A v5 registry (the last before telemetry) gains v6's checkpoints.device_json and
//    telemetry table, keeps every row, and takes telemetry rows; its event gains
//    v7's empty fields ({}), and a new event keeps the fields it is given.
//  - A failed migration (fault point "registry.migrate", and a real SQL error
//    half-way through the v2 script) leaves the file byte-identical.
//  - A registry from a newer Savepoint (user_version 99) is refused with a
//    clear message, in-process and by the CLI (exit 2), and left untouched.
//
//   ctest --test-dir build -R test_registry_upgrade --output-on-failure
#include "reliability_support.h"

#include "platform/errors.h"
#include "registry/checkpoint_remotes.h"
#include "registry/registry_schema.h"
#include "storage/durable_io.h"

#include <QtTest>

#include <sqlite3.h>

using namespace reliability;

namespace {

void exec(sqlite3* db, const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        QString m = QString::fromUtf8(err ? err : "?");
        sqlite3_free(err);
        QFAIL(qPrintable(m));
    }
}

// A registry as Savepoint schema v1 left it.
void makeV1(const QString& home, bool wal = true, int userVersion = 0, const char* extraSql = nullptr) {
    QDir().mkpath(home);
    const QString path = home + QStringLiteral("/registry.sqlite");
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    if (wal) exec(db, "PRAGMA journal_mode=WAL");
    savepoint::migrate_registry(db, path.toStdString(), 1);
    exec(db,
         "INSERT INTO runs(name, config_json, steps_per_epoch, total_steps, status, created_at, updated_at) "
         "VALUES ('old', '{}', 10, 100, 'stopped', 1, 1);"
         "INSERT INTO branches(run_id, fork_global_step, created_at) VALUES (1, 0, 1);"
         "UPDATE runs SET active_branch_id=1;"
         "INSERT INTO checkpoints(run_id, branch_id, epoch, step, global_step, kind, state, path, created_at) "
         "VALUES (1, 1, 1, 5, 5, 'regular', 'deleted', 'checkpoints/old/ckpt-00000001.svpt', 1);");
    if (extraSql) exec(db, extraSql);
    if (userVersion) exec(db, qPrintable(QStringLiteral("PRAGMA user_version=%1").arg(userVersion)));
    QCOMPARE(sqlite3_close(db), SQLITE_OK);
}

// A registry as Savepoint schema v5 left it: a run, its checkpoint, a session,
// metrics, an event and the checkpoint's remote copy.
void makeV5(const QString& home) {
    QDir().mkpath(home);
    const QString path = home + QStringLiteral("/registry.sqlite");
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    exec(db, "PRAGMA journal_mode=WAL");
    savepoint::migrate_registry(db, path.toStdString(), 5);
    exec(
        db,
        "INSERT INTO runs(name, config_json, steps_per_epoch, total_steps, status, created_at, updated_at) "
        "VALUES ('five', '{}', 10, 100, 'interrupted', 1, 1);"
        "INSERT INTO branches(run_id, fork_global_step, created_at, lr) VALUES (1, 0, 1, 0.01);"
        "UPDATE runs SET active_branch_id=1;"
        "INSERT INTO checkpoints(run_id, branch_id, epoch, step, global_step, kind, state, path, created_at, "
        "write_ms, file_id) VALUES (1, 1, 1, 5, 5, 'regular', 'committed', 'checkpoints/five/ckpt-00000001.svpt', 1, "
        "12.5, 7);"
        "UPDATE runs SET head_checkpoint_id=1;"
        "INSERT INTO sessions(run_id, branch_id, kind, start_global_step, target_global_step, started_at, world_size) "
        "VALUES (1, 1, 'train', 0, 100, 1, 2);"
        "INSERT INTO metrics(run_id, session_id, branch_id, kind, global_step, epoch, step, loss, accuracy, wall_time) "
        "VALUES (1, 1, 1, 0, 5, 1, 5, 0.5, 0.8, 1), (1, 1, 1, 1, 5, 1, 5, 0.6, 0.7, 1);"
        "INSERT INTO events(run_id, session_id, kind, global_step, epoch, step, message, created_at) "
        "VALUES (1, 1, 'interruption', 5, 1, 5, 'killed', 1);"
        "INSERT INTO checkpoint_remotes(checkpoint_id, run_id, remote, state, etag, attempts, updated_at) "
        "VALUES (1, 1, 's3://bucket/prefix', 'uploaded', 'abc', 1, 1);");
    QCOMPARE(sqlite3_close(db), SQLITE_OK);
}

int count(sqlite3* db, const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) return -1;
    const int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
}

int userVersion(const QString& path) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
    int v = savepoint::registry_schema_version(db);
    sqlite3_close(db);
    return v;
}

}  // namespace

class TestRegistryUpgrade : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { savepoint::set_fault_hook(nullptr); }

    void v1OpensAndMigrates() {
        QTemporaryDir tmp;
        const QString home = tmp.filePath(QStringLiteral("h"));
        makeV1(home);
        QCOMPARE(userVersion(home + QStringLiteral("/registry.sqlite")), 1);
        {
            savepoint::Registry reg(home.toStdString());
            QCOMPARE(savepoint::registry_schema_version(reg.db()), 7);
            auto run = reg.find_run("old");
            QVERIFY(run);
            auto rows = reg.checkpoints(run->id);  // reads the v2 and v3 columns
            QCOMPARE(rows.size(), std::size_t(1));
            QVERIFY(std::isnan(rows[0].write_ms));
            QVERIFY(std::isnan(rows[0].branch_lr));  // v3: no branch has a rate of its own
            for (const auto& b : reg.branches(run->id)) QVERIFY(!b.lr);
            // v5: the checkpoint_remotes table exists, empty, and takes a row for the old checkpoint.
            QVERIFY(savepoint::checkpoint_remotes(reg, run->id).empty());
            savepoint::CheckpointRemote cr;
            cr.checkpoint_id = rows[0].id;
            cr.run_id = run->id;
            cr.remote = "s3://bucket/prefix";
            cr.state = savepoint::RemoteState::Failed;
            cr.detail = "no route to host";
            savepoint::set_checkpoint_remote(reg, cr);
            auto remotes = savepoint::checkpoint_remotes(reg, run->id);
            QCOMPARE(remotes.size(), std::size_t(1));
            QCOMPARE(remotes[0].state, savepoint::RemoteState::Failed);
            QCOMPARE(QString::fromStdString(remotes[0].detail), QStringLiteral("no route to host"));
            QCOMPARE(QString::fromStdString(reg.integrity_check()), QStringLiteral("ok"));
        }
        CliResult r = reliability::runCli({QStringLiteral("runs"), QStringLiteral("--home"), home});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QLatin1String("old")), r.describe().constData());
    }

    void v5GainsTelemetryAndDeviceColumn() {
        QTemporaryDir tmp;
        const QString home = tmp.filePath(QStringLiteral("h"));
        makeV5(home);
        const QString path = home + QStringLiteral("/registry.sqlite");
        QCOMPARE(userVersion(path), 5);
        {
            savepoint::Registry reg(home.toStdString());
            QCOMPARE(savepoint::registry_schema_version(reg.db()), 7);
            // Every v5 row is still there, as it was.
            auto run = reg.find_run("five");
            QVERIFY(run);
            QCOMPARE(run->status, savepoint::RunStatus::Interrupted);
            QCOMPARE(run->head_checkpoint_id, std::optional<std::int64_t>(1));
            auto rows = reg.checkpoints(run->id);
            QCOMPARE(rows.size(), std::size_t(1));
            QCOMPARE(rows[0].write_ms, 12.5);
            QCOMPARE(rows[0].file_id, std::optional<std::int64_t>(7));
            QCOMPARE(rows[0].branch_lr, 0.01);
            QCOMPARE(reg.sessions(run->id).size(), std::size_t(1));
            QCOMPARE(reg.sessions(run->id)[0].world_size, std::int64_t(2));
            QCOMPARE(reg.metrics(run->id).size(), std::size_t(2));
            QCOMPARE(reg.events(run->id).size(), std::size_t(1));
            // v7: the old event has no data (its message stays what it said).
            QCOMPARE(QString::fromStdString(reg.events(run->id)[0].fields), QStringLiteral("{}"));
            QCOMPARE(QString::fromStdString(reg.events(run->id)[0].message), QStringLiteral("killed"));
            savepoint::EventRow lost;
            lost.run_id = run->id;
            lost.kind = savepoint::EventKind::Restart;
            lost.fields = R"({"lost_worker":1})";
            reg.add_event(lost);
            QCOMPARE(QString::fromStdString(reg.events(run->id).back().fields), QStringLiteral(R"({"lost_worker":1})"));
            auto remotes = savepoint::checkpoint_remotes(reg, run->id);
            QCOMPARE(remotes.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(remotes[0].etag), QStringLiteral("abc"));
            // v6: the checkpoint's device is unknown (NULL), and the telemetry table is there, empty.
            QCOMPARE(count(reg.db(), "SELECT count(*) FROM checkpoints WHERE device_json IS NULL"), 1);
            QCOMPARE(count(reg.db(), "SELECT count(*) FROM telemetry"), 0);
            QVERIFY(reg.telemetry(run->id).empty());
            savepoint::TelemetrySample t;
            t.t = 1.5;
            t.session_id = reg.sessions(run->id)[0].id;
            t.rss_bytes = 4096;
            savepoint::GpuSample g;
            g.mem_total_bytes = 1 << 30;
            g.power_w = 99.5;
            t.gpu = g;
            reg.append_telemetry(run->id, {t});
            const auto back = reg.telemetry(run->id);
            QCOMPARE(back.size(), std::size_t(1));
            QCOMPARE(back[0].rss_bytes, std::int64_t(4096));
            QVERIFY(back[0].gpu);
            QCOMPARE(back[0].gpu->power_w, 99.5);
            QCOMPARE(QString::fromStdString(reg.integrity_check()), QStringLiteral("ok"));
        }
        QCOMPARE(userVersion(path), 7);
        CliResult r = reliability::runCli({QStringLiteral("telemetry"), QStringLiteral("--home"), home,
                                           QStringLiteral("--run"), QStringLiteral("five"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QLatin1String("\"power_w\": 99.5")), r.describe().constData());
    }

    void failedMigrationLeavesFileIdentical_data() {
        QTest::addColumn<QString>("how");
        QTest::newRow("fault point registry.migrate") << "fault";
        QTest::newRow("SQL error half-way through the v2 script") << "sql";
    }

    void failedMigrationLeavesFileIdentical() {
        QFETCH(QString, how);
        QTemporaryDir tmp;
        const QString home = tmp.filePath(QStringLiteral("h"));
        // For the SQL error: a v1 file that already has one of the two v2 columns makes the
        // second ALTER fail after the first succeeded inside the migration transaction.
        makeV1(home, true, 0,
               how == QLatin1String("sql") ? "ALTER TABLE checkpoints ADD COLUMN stall_ms REAL" : nullptr);
        const QString path = home + QStringLiteral("/registry.sqlite");
        const QByteArray before = testsupport::fileSha256(path);
        if (how == QLatin1String("fault"))
            savepoint::set_fault_hook(
                [](const char* op, const std::string&) { return std::string(op) == "registry.migrate" ? EIO : 0; });
        try {
            savepoint::Registry reg(home.toStdString());
            QFAIL("the migration should have failed");
        } catch (const savepoint::StorageError& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.contains(path), qPrintable(msg));
            if (how == QLatin1String("fault"))
                QVERIFY2(msg.contains(QLatin1String("migration to version 2 failed")), qPrintable(msg));
            else
                QVERIFY2(msg.contains(QLatin1String("duplicate column name")), qPrintable(msg));
        }
        savepoint::set_fault_hook(nullptr);
        QCOMPARE(testsupport::fileSha256(path), before);
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")) ||
                QFileInfo(path + QStringLiteral("-wal")).size() == 0);
        QCOMPARE(userVersion(path), 1);
        if (how == QLatin1String("fault")) {
            // Once the cause is gone the same file migrates.
            savepoint::Registry reg(home.toStdString());
            QCOMPARE(savepoint::registry_schema_version(reg.db()), 7);
        }
    }

    void newerVersionRefused_data() {
        QTest::addColumn<bool>("wal");
        QTest::newRow("WAL file") << true;
        QTest::newRow("rollback-journal file") << false;
    }

    void newerVersionRefused() {
        QFETCH(bool, wal);
        QTemporaryDir tmp;
        const QString home = tmp.filePath(QStringLiteral("h"));
        makeV1(home, wal, 99);
        const QString path = home + QStringLiteral("/registry.sqlite");
        const QByteArray before = testsupport::fileSha256(path);
        const QString expected = path + QStringLiteral(
                                            ": registry schema version: expected at most 7, found 99 (made by a newer "
                                            "Savepoint; nothing was changed)");
        try {
            savepoint::Registry reg(home.toStdString());
            QFAIL("a newer registry must be refused");
        } catch (const savepoint::InputError& e) {
            QCOMPARE(QString::fromUtf8(e.what()), expected);
        }
        QCOMPARE(testsupport::fileSha256(path), before);
        CliResult r = reliability::runCli({QStringLiteral("runs"), QStringLiteral("--home"), home});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected), r.describe().constData());
        QCOMPARE(testsupport::fileSha256(path), before);
        QCOMPARE(userVersion(path), 99);
    }
};

QTEST_GUILESS_MAIN(TestRegistryUpgrade)
#include "test_registry_upgrade.moc"
