// Tests for the checkpoint writer (engine/checkpoint/checkpoint_writer.cpp): the save
// protocol (row 'writing' -> durable file -> row 'committed' + head, in that
// order), a failure injected at every single file and registry operation
// leaving the previous checkpoint and head untouched and nothing half-written
// behind, retention (newest K per branch + best + head + pinned + protected;
// other branches never touched), and the asynchronous I/O thread.
#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/state_snapshot.h"
#include "formats/checkpoint_format.h"
#include "platform/errors.h"
#include "registry/home.h"
#include "registry/registry.h"
#include "storage/durable_io.h"

#include "test_home.h"

#include <QtTest>

#include <chrono>
#include <functional>
#include <thread>

#include <torch/torch.h>

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>

using namespace savepoint;

class TestCheckpointWriter : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<Registry> reg_;
    std::int64_t run_ = 0, branch_ = 0;
    torch::nn::Linear model_{nullptr};
    std::unique_ptr<torch::optim::Adam> opt_;
    std::shared_ptr<StateSnapshot> snap_;

    std::string home() const { return dir_->path().toStdString() + "/home"; }

    void trainStep() {
        auto x = torch::randn({8, 6});
        auto loss = model_->forward(x).pow(2).mean();
        opt_->zero_grad();
        loss.backward();
        opt_->step();
    }

    SaveRequest request(std::int64_t gs, double valLoss = NAN, std::int64_t keep = 100, std::int64_t branch = 0) {
        SaveRequest r;
        r.row.run_id = run_;
        r.row.branch_id = branch ? branch : branch_;
        r.row.parent_id = reg_->run_by_id(run_)->head_checkpoint_id;
        r.row.epoch = (gs - 1) / 10 + 1;
        r.row.step = (gs - 1) % 10 + 1;
        r.row.global_step = gs;
        r.row.path = checkpoint_dir_relative("w");
        r.row.params_sha256 = snap_->params_sha256();
        r.row.val_loss = valLoss;
        r.row.train_loss = 1.0;
        r.run_name = "w";
        r.session_meta = std::make_shared<const nlohmann::json>(nlohmann::json{{"config", {{"model", "linear"}}}});
        r.keep = keep;
        return r;
    }

    SaveOutcome save(std::int64_t gs, double valLoss = NAN, std::int64_t keep = 100, std::int64_t branch = 0,
                     std::set<std::int64_t> protect = {}) {
        trainStep();
        snap_->capture(*model_, *opt_);
        SaveRequest r = request(gs, valLoss, keep, branch);
        r.protected_ids = std::move(protect);
        return save_checkpoint_now(*reg_, *snap_, r);
    }

    QStringList tempFiles() const {
        QStringList out;
        QDirIterator it(QString::fromStdString(home()), QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString p = it.next();
            if (p.endsWith(".tmp")) out << p;
        }
        return out;
    }

private Q_SLOTS:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
        reg_ = std::make_unique<Registry>(home());
        run_ = reg_->create_run("w", "{}", 10, 1000, "cpu");
        branch_ = reg_->find_run("w")->active_branch_id;
        torch::manual_seed(1);
        model_ = torch::nn::Linear(6, 5);
        opt_ = std::make_unique<torch::optim::Adam>(model_->parameters(), torch::optim::AdamOptions(1e-2));
        snap_ = std::make_shared<StateSnapshot>();
    }
    void cleanup() {
        set_fault_hook(nullptr);
        reg_.reset();
        dir_.reset();
    }

    void saveCommitsFileRowAndHead() {
        SaveOutcome out = save(10, 0.5);
        const CheckpointRow& c = out.row;
        QCOMPARE(QString::fromLatin1(savepoint::to_string(c.state)), QStringLiteral("committed"));
        auto stored = reg_->checkpoint(c.id);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(stored->state)), QStringLiteral("committed"));
        QCOMPARE(QString::fromStdString(stored->path),
                 QStringLiteral("checkpoints/w/") + QString::fromStdString(checkpoint_file_name(c.id)));
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), c.id);
        const std::string path = reg_->absolute(stored->path);
        QCOMPARE(QFileInfo(QString::fromStdString(path)).size(), qint64(stored->bytes));
        CheckpointContents contents;
        std::vector<std::uint8_t> bytes;
        VerifyResult v = verify_checkpoint_file(path, stored->sha256, &bytes, &contents);
        QVERIFY2(v.ok, v.error.c_str());
        // The header says which checkpoint this is, so a swapped file is detectable.
        QCOMPARE(v.meta.value("checkpoint_id", -1), c.id);
        QCOMPARE(QString::fromStdString(v.meta.value("run", "")), QStringLiteral("w"));
        QCOMPARE(v.meta.value("global_step", -1), 10);
        QCOMPARE(v.meta.value("epoch", -1), 1);
        QCOMPARE(v.meta.value("step", -1), 10);
        QCOMPARE(QString::fromStdString(v.meta.value("params_sha256", "")),
                 QString::fromStdString(snap_->params_sha256()));
        QCOMPARE(QString::fromStdString(stored->params_sha256), QString::fromStdString(params_sha256(*model_)));
        QCOMPARE(v.meta.value("val_loss", -1.0), 0.5);
        QVERIFY(v.meta.contains("config"));
        QVERIFY(tempFiles().isEmpty());
        QVERIFY(stored->write_ms >= 0);
        // Parent of the next one is this one.
        SaveOutcome next = save(20);
        QCOMPARE(reg_->checkpoint(next.row.id)->parent_id.value_or(-1), c.id);
        QVERIFY(std::isnan(reg_->checkpoint(next.row.id)->val_loss));
    }

    void failureAtEveryOperationLeavesThePreviousCheckpointIntact() {
        const SaveOutcome first = save(10);
        const QString firstPath = QString::fromStdString(reg_->absolute(first.row.path));
        const QByteArray firstSha = testsupport::fileSha256(firstPath);
        // Which operations does one save perform?
        QStringList ops;
        set_fault_hook([&](const char* op, const std::string&) {
            ops << QString::fromLatin1(op);
            return 0;
        });
        save(20);
        set_fault_hook(nullptr);
        for (const char* needed : {"registry.insert_writing", "statvfs", "open", "write", "fsync", "close", "rename",
                                   "fsync_dir", "registry.commit"})
            QVERIFY2(ops.contains(QLatin1String(needed)), qPrintable(ops.join(' ')));
        const std::int64_t goodHead = reg_->run_by_id(run_)->head_checkpoint_id.value();
        const QByteArray goodSha =
            testsupport::fileSha256(QString::fromStdString(reg_->absolute(reg_->checkpoint(goodHead)->path)));

        for (int k = 1; k <= ops.size(); ++k) {
            const std::int64_t maxBefore = reg_->max_checkpoint_id();
            int count = 0;
            set_fault_hook([&](const char* op, const std::string&) {
                if (++count != k) return 0;
                return std::string(op) == "statvfs" ? ENOSPC : EIO;
            });
            bool threw = false;
            QString message;
            try {
                save(30 + k);
            } catch (const StorageError& e) {
                threw = true;
                message = QString::fromStdString(e.what());
            }
            set_fault_hook(nullptr);
            const QString ctx = QStringLiteral("fault at op %1 (%2): %3").arg(k).arg(ops.value(k - 1), message);
            QVERIFY2(threw, qPrintable(ctx));
            QVERIFY2(!message.isEmpty(), qPrintable(ctx));
            // The previous head and its file are untouched...
            QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), goodHead);
            QCOMPARE(testsupport::fileSha256(QString::fromStdString(reg_->absolute(reg_->checkpoint(goodHead)->path))),
                     goodSha);
            QCOMPARE(testsupport::fileSha256(firstPath), firstSha);
            // ...nothing half-written is left, and the attempt is recorded as failed (if it got a row).
            QVERIFY2(tempFiles().isEmpty(), qPrintable(ctx + " " + tempFiles().join(' ')));
            if (reg_->max_checkpoint_id() > maxBefore) {
                auto row = reg_->checkpoint(reg_->max_checkpoint_id());
                QCOMPARE(QString::fromLatin1(savepoint::to_string(row->state)), QStringLiteral("failed"));
                QVERIFY2(!QFileInfo::exists(QString::fromStdString(reg_->absolute(row->path))), qPrintable(ctx));
                QVERIFY(!row->state_detail.empty());
            } else {
                // Only transaction A itself (its fault point or its commit) may fail without leaving a row.
                QVERIFY2(k <= 2, qPrintable(ctx));
            }
        }
        // And the next save, with the fault gone, works.
        SaveOutcome ok = save(99);
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), ok.row.id);
        QCOMPARE(reg_->checkpoint(ok.row.id)->parent_id.value_or(-1), goodHead);
    }

    void diskFullIsRefusedBeforeWritingWithSizes() {
        save(10);
        set_fault_hook([](const char* op, const std::string&) { return std::string(op) == "statvfs" ? ENOSPC : 0; });
        try {
            save(20);
            QFAIL("no error on a full disk");
        } catch (const StorageError& e) {
            const QString m = QString::fromStdString(e.what());
            QVERIFY(e.disk_full());
            QVERIFY(e.bytes_needed() > 0);
            QVERIFY2(
                m.startsWith(QLatin1String("not enough space to write checkpoint ") + QString::fromStdString(home())),
                qPrintable(m));
            QVERIFY2(m.contains(QStringLiteral("needs %1 bytes, 0 bytes free in ").arg(e.bytes_needed())),
                     qPrintable(m));
        }
    }

    // A file already under the name a new checkpoint id gives (a registry
    // restored from an older backup, a copy made by hand) is nobody's to
    // overwrite or delete: it goes to quarantine/ as it is, with an event.
    void aFileUnderTheNewIdsNameIsQuarantinedNotOverwritten() {
        const QString dir = QString::fromStdString(reg_->absolute(checkpoint_dir_relative("w")));
        QVERIFY(QDir().mkpath(dir));
        const QString squatter = dir + QString::fromStdString(checkpoint_file_name(1));
        const QByteArray bytes("a file that was here first");
        QVERIFY(testsupport::writeAll(squatter, bytes));
        SaveOutcome out = save(10);
        QCOMPARE(out.row.id, std::int64_t(1));
        QVERIFY2(verify_checkpoint_file(reg_->absolute(out.row.path), out.row.sha256).ok,
                 "the new checkpoint must verify");
        QFile q(QString::fromStdString(quarantine_dir(home())) + "/w-" +
                QString::fromStdString(checkpoint_file_name(1)));
        QVERIFY(q.open(QIODevice::ReadOnly));
        QCOMPARE(q.readAll(), bytes);
        bool said = false;
        for (const auto& e : reg_->events(run_))
            said = said ||
                   (e.kind == savepoint::EventKind::Recovery &&
                    QString::fromStdString(e.message).contains(squatter + " was not in the registry; moved it to "));
        QVERIFY(said);
    }

    void retentionKeepsNewestBestPinnedAndProtected() {
        // val losses: 10 -> 0.9, 20 -> 0.1 (best), 30 -> 0.8, 40 -> 0.7, 50 -> 0.6, 60 -> 0.5; keep 2.
        std::vector<std::int64_t> ids;
        ids.push_back(save(10, 0.9, 2).row.id);
        reg_->set_checkpoint_pinned(ids[0], true);
        ids.push_back(save(20, 0.1, 2).row.id);
        ids.push_back(save(30, 0.8, 2).row.id);
        ids.push_back(save(40, 0.7, 2, 0, {ids[2]}).row.id);  // #30 is "in use" by this session
        SaveOutcome fifth = save(50, 0.6, 2);
        ids.push_back(fifth.row.id);
        SaveOutcome sixth = save(60, NAN, 2);
        ids.push_back(sixth.row.id);
        auto state = [&](int i) {
            return QString::fromLatin1(savepoint::to_string(reg_->checkpoint(ids[std::size_t(i)])->state));
        };
        QCOMPARE(state(0), QStringLiteral("committed"));  // pinned
        QCOMPARE(state(1), QStringLiteral("committed"));  // best validation loss
        QCOMPARE(state(2), QStringLiteral("deleted"));    // protected only while that save ran
        QCOMPARE(state(3), QStringLiteral("deleted"));
        QCOMPARE(state(4), QStringLiteral("committed"));  // newest two
        QCOMPARE(state(5), QStringLiteral("committed"));
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), ids[5]);
        for (int i = 0; i < 6; ++i) {
            auto c = reg_->checkpoint(ids[std::size_t(i)]);
            QCOMPARE(QFileInfo::exists(QString::fromStdString(reg_->absolute(c->path))), c->usable());
            if (!c->usable())
                QCOMPARE(QString::fromStdString(c->state_detail), QStringLiteral("removed by retention (keep 2)"));
        }
        QVERIFY(std::any_of(sixth.retired.begin(), sixth.retired.end(),
                            [&](const CheckpointRow& c) { return c.id == ids[3]; }));
    }

    void retentionBestIsTheOldestOfEqualsAndNeverInfinite() {
        // keep 1. An infinite loss is no one's best, even with nothing finite to beat it.
        const auto inf = save(5, INFINITY, 1).row.id;
        save(6, NAN, 1);
        auto state = [&](std::int64_t id) {
            return QString::fromLatin1(savepoint::to_string(reg_->checkpoint(id)->state));
        };
        QCOMPARE(state(inf), QStringLiteral("deleted"));
        // #10 and #20 share the lowest finite loss: the older one is the best. #30's
        // infinite loss and #40's NaN are no one's best either.
        const auto a = save(10, 0.25, 1).row.id;
        const auto b = save(20, 0.25, 1).row.id;
        const auto c = save(30, INFINITY, 1).row.id;
        const auto d = save(40, NAN, 1).row.id;
        const auto e = save(50, 0.5, 1).row.id;
        QCOMPARE(state(a), QStringLiteral("committed"));
        QCOMPARE(state(b), QStringLiteral("deleted"));
        QCOMPARE(state(c), QStringLiteral("deleted"));
        QCOMPARE(state(d), QStringLiteral("deleted"));
        QCOMPARE(state(e), QStringLiteral("committed"));
        // A new best takes over, and the old one goes at the next save.
        const auto f = save(60, 0.125, 1).row.id;
        QCOMPARE(state(a), QStringLiteral("deleted"));
        QCOMPARE(state(e), QStringLiteral("deleted"));
        QCOMPARE(state(f), QStringLiteral("committed"));
    }

    void retentionOverALongHistoryKeepsExactlyTheNewest() {
        // 120 saves, keep 3, no validation loss: after each save exactly the newest three
        // are committed, whatever the number of retired rows behind them.
        std::vector<std::int64_t> ids;
        for (int g = 1; g <= 120; ++g) {
            ids.push_back(save(g, NAN, 3).row.id);
            std::vector<std::int64_t> committed;
            for (const auto& c : reg_->checkpoints(run_))
                if (c.usable()) committed.push_back(c.id);
            const std::size_t n = std::min<std::size_t>(ids.size(), 3);
            QCOMPARE(committed, std::vector<std::int64_t>(ids.end() - static_cast<std::ptrdiff_t>(n), ids.end()));
        }
    }

    void protectedCheckpointSurvivesRetention() {
        const auto a = save(10, NAN, 1).row.id;
        const auto b = save(20, NAN, 1, 0, {a}).row.id;
        QVERIFY(reg_->checkpoint(a)->usable());  // keep 1 would delete it, but a resume uses it
        save(30, NAN, 1);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(a)->state)), QStringLiteral("deleted"));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(b)->state)), QStringLiteral("deleted"));
    }

    void retentionNeverTouchesAnotherBranch() {
        std::vector<std::int64_t> old;
        for (int g = 10; g <= 40; g += 10) old.push_back(save(g, NAN, 10).row.id);
        std::map<std::int64_t, QByteArray> shas;
        for (auto id : old)
            shas[id] = testsupport::fileSha256(QString::fromStdString(reg_->absolute(reg_->checkpoint(id)->path)));
        // Roll back to the first one: a new branch, saving with keep 1.
        const auto nb = reg_->create_branch(run_, branch_, old[0], 10);
        for (int g = 20; g <= 80; g += 10) save(g, NAN, 1, nb, {old[0]});
        for (auto id : old) {
            auto c = reg_->checkpoint(id);
            QCOMPARE(QString::fromLatin1(savepoint::to_string(c->state)), QStringLiteral("committed"));
            QCOMPARE(testsupport::fileSha256(QString::fromStdString(reg_->absolute(c->path))), shas[id]);
        }
        int usableNew = 0;
        for (auto& c : reg_->checkpoints(run_))
            if (c.branch_id == nb && c.usable()) ++usableNew;
        QCOMPARE(usableNew, 1);
    }

    void bestIsJudgedAcrossTheWholeRun() {
        // The best checkpoint lives on the old branch; the new branch's own best is not protected by it.
        save(10, 0.05, 10);
        const auto nb = reg_->create_branch(run_, branch_, reg_->run_by_id(run_)->head_checkpoint_id, 10);
        const auto x = save(20, 0.5, 1, nb).row.id;
        save(30, 0.9, 1, nb);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(x)->state)), QStringLiteral("deleted"));
    }

    void asyncWriterCommitsThenNotifies() {
        std::mutex m;
        std::condition_variable cv;
        std::vector<CheckpointRow> saved;
        {
            CheckpointWriter writer(home(), [&](const SaveOutcome& o) {
                // Called only once the row is committed: the registry already says so.
                Registry check(home());
                CheckpointRow seen = o.row;
                seen.state = check.checkpoint(o.row.id)->state;
                std::lock_guard<std::mutex> l(m);
                saved.push_back(seen);
                cv.notify_all();
            });
            trainStep();
            snap_->capture(*model_, *opt_);
            writer.save_async(snap_, request(10));
            writer.wait_for_save();
            QVERIFY(!writer.save_in_flight());
            QVERIFY(!writer.take_save_error().has_value());
            QCOMPARE(saved.size(), std::size_t(1));
            QCOMPARE(QString::fromLatin1(savepoint::to_string(saved[0].state)), QStringLiteral("committed"));
            QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), saved[0].id);

            // A failing save reports its error instead of calling back.
            set_fault_hook([](const char* op, const std::string&) { return std::string(op) == "fsync" ? EIO : 0; });
            writer.save_async(snap_, request(20));
            writer.wait_for_save();
            set_fault_hook(nullptr);
            auto err = writer.take_save_error();
            QVERIFY(err.has_value());
            QVERIFY2(QString::fromStdString(*err).startsWith(QLatin1String("cannot sync ")), err->c_str());
            QVERIFY(!writer.take_save_error().has_value());  // taken once
            QCOMPARE(saved.size(), std::size_t(1));

            // Jobs run in order on the writer's own connection.
            std::vector<int> order;
            for (int i = 0; i < 5; ++i) writer.post([&order, i](Registry&) { order.push_back(i); });
            writer.post([](Registry&) { throw std::runtime_error("metrics failed"); });
            writer.drain();
            QCOMPARE(order, (std::vector<int>{0, 1, 2, 3, 4}));
            QCOMPARE(QString::fromStdString(writer.take_job_error().value_or("")), QStringLiteral("metrics failed"));
        }
        QVERIFY(tempFiles().isEmpty());
    }

    // The stall a checkpoint records is everything the training thread spent on
    // it: the capture (the request's stall_ms) and handing it over. A capture
    // starts the hand-over's count afresh.
    void stallCountsTheCaptureAndItsHandOver() {
        CheckpointWriter writer(home(), nullptr);
        trainStep();
        snap_->note_handover_ms(5.0);  // a previous capture's
        snap_->capture(*model_, *opt_);
        QCOMPARE(snap_->handover_ms(), 0.0);
        snap_->note_handover_ms(0.25);
        SaveRequest r = request(10);
        r.stall_ms = 0.125;
        writer.save_async(snap_, r);
        writer.wait_for_save();
        QVERIFY(!writer.take_save_error().has_value());
        const auto rows = reg_->checkpoints(run_);
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows[0].stall_ms, 0.125 + 0.25);
    }

    // A registry that cannot be opened for one job fails that job only: a save
    // queued behind it is still in flight, so the training thread does not take
    // a new snapshot over it. (The writer once cleared the flag for any job it
    // dropped so, a metrics flush included.)
    void saveQueuedBehindAFailedRegistryOpenStaysInFlight() {
        std::mutex m;
        std::condition_variable cv;
        bool reached = false, release = false;
        int opens = 0;
        std::vector<CheckpointRow> saved;
        set_fault_hook([&](const char* op, const std::string&) {
            if (std::string(op) != "registry.open") return 0;
            std::unique_lock<std::mutex> l(m);
            ++opens;
            if (opens == 1) return EIO;  // the writer's own open, at start
            if (opens == 2) {            // the retry for the metrics job: held until the save is queued
                reached = true;
                cv.notify_all();
                cv.wait(l, [&] { return release; });
                return EIO;
            }
            return 0;
        });
        {
            CheckpointWriter writer(home(), [&](const SaveOutcome& o) {
                std::lock_guard<std::mutex> l(m);
                saved.push_back(o.row);
            });
            trainStep();
            snap_->capture(*model_, *opt_);
            writer.post([](Registry&) {});  // a metrics flush
            {
                std::unique_lock<std::mutex> l(m);
                cv.wait(l, [&] { return reached; });
            }
            writer.save_async(snap_, request(10));
            {
                std::lock_guard<std::mutex> l(m);
                release = true;
            }
            cv.notify_all();
            writer.wait_for_save();
            {
                std::lock_guard<std::mutex> l(m);
                QCOMPARE(saved.size(), std::size_t(1));  // it waited for the save, not for the dropped job
            }
            QVERIFY(!writer.save_in_flight());
            QVERIFY(!writer.snapshot_busy());               // the dropped save let go of its snapshot too
            QVERIFY(writer.take_save_error().has_value());  // the failed open is still reported
            QVERIFY(!writer.registry_damaged());            // EIO: worth retrying, unlike a damaged file
        }
        set_fault_hook(nullptr);
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoints(run_).back().state)),
                 QStringLiteral("committed"));
    }

    // A registry whose pages are damaged is not a full disk: the writer says so,
    // and training stops instead of retrying for minutes (trainer_impl.h).
    void aDamagedRegistryIsToldFromAFullDisk() {
        const QString other = dir_->filePath("damaged-home");
        QVERIFY(QDir().mkpath(other));
        QVERIFY(testsupport::writeAll(other + "/registry.sqlite",
                                      QByteArray("not a database, a text file\n").repeated(300)));
        CheckpointWriter writer(other.toStdString(), [](const SaveOutcome&) {});
        trainStep();
        snap_->capture(*model_, *opt_);
        writer.save_async(snap_, request(10));
        writer.wait_for_save();
        const auto err = writer.take_save_error();
        QVERIFY(err.has_value());
        QVERIFY2(err->find("file is not a database") != std::string::npos &&
                     err->find("the registry is damaged") != std::string::npos,
                 err->c_str());
        QVERIFY(writer.registry_damaged());
        QCOMPARE(testsupport::fileSha256(other + "/registry.sqlite"),
                 QCryptographicHash::hash(QByteArray("not a database, a text file\n").repeated(300),
                                          QCryptographicHash::Sha256)
                     .toHex());
    }

    void asyncSaveHashesTheParametersWhileTheTensorsFlush() {
        // As the trainer asks for it: no parameter hash given. The I/O thread
        // computes it after transaction A, once the tensors are written and
        // their flush started; the file and the row must carry it, never the stand-in.
        std::vector<SaveOutcome> outs;
        QStringList ops;
        {
            CheckpointWriter writer(home(), [&](const SaveOutcome& o) { outs.push_back(o); });
            trainStep();
            snap_->capture(*model_, *opt_);
            SaveRequest r = request(10);
            r.row.params_sha256.clear();
            set_fault_hook([&](const char* op, const std::string&) {
                ops << QString::fromLatin1(op);
                return 0;
            });
            writer.save_async(snap_, r);
            writer.wait_for_save();
            set_fault_hook(nullptr);
            QVERIFY(!writer.take_save_error().has_value());
        }
        QCOMPARE(outs.size(), std::size_t(1));
        const QString want = QString::fromStdString(snap_->params_sha256());
        QCOMPARE(want, QString::fromStdString(params_sha256(*model_)));
        auto stored = reg_->checkpoint(outs[0].row.id);
        QCOMPARE(QString::fromStdString(stored->params_sha256), want);
        QCOMPARE(QString::fromStdString(outs[0].row.params_sha256), want);
        VerifyResult v = verify_checkpoint_file(reg_->absolute(stored->path), stored->sha256);
        QVERIFY2(v.ok, v.error.c_str());
        QCOMPARE(QString::fromStdString(v.meta.value("params_sha256", "")), want);
        // The tensors' flush starts before the head is written; the final sync comes after.
        QCOMPARE(ops.count(QStringLiteral("fsync")), 2);
        QVERIFY2(ops.indexOf(QStringLiteral("fsync")) < ops.lastIndexOf(QStringLiteral("write")),
                 qPrintable(ops.join(' ')));
        QVERIFY2(ops.lastIndexOf(QStringLiteral("fsync")) < ops.indexOf(QStringLiteral("rename")),
                 qPrintable(ops.join(' ')));
    }

    // A save lets go of the snapshot once its bytes are written and hashed,
    // before the sync, rename and transaction B: the next capture need not
    // wait for the disk's flush. It queues behind that commit, names the
    // committing save as its parent (the registry's head is still the one
    // before), and neither file is the worse for the overlap.
    void snapshotIsLetGoBeforeTheCommit() {
        std::mutex m;
        std::condition_variable cv;
        bool held = false, release = false;
        std::vector<CheckpointRow> saved;
        set_fault_hook([&](const char* op, const std::string&) {
            if (std::string(op) != "rename") return 0;
            std::unique_lock<std::mutex> l(m);
            if (!held) {  // the first save's commit: held until the second is handed over
                held = true;
                cv.notify_all();
                cv.wait(l, [&] { return release; });
            }
            return 0;
        });
        std::string want10, want20;
        {
            CheckpointWriter writer(home(), [&](const SaveOutcome& o) {
                std::lock_guard<std::mutex> l(m);
                saved.push_back(o.row);
            });
            // Lets the held commit go before the writer joins, also when a check fails.
            const auto let_commit_go = [&] {
                {
                    std::lock_guard<std::mutex> l(m);
                    release = true;
                }
                cv.notify_all();
            };
            struct Finally {
                std::function<void()> f;
                ~Finally() { f(); }
            } finally{let_commit_go};
            trainStep();
            snap_->capture(*model_, *opt_);
            want10 = snap_->params_sha256();
            SaveRequest r10 = request(10);
            r10.row.params_sha256.clear();  // hashed by the I/O thread, from the snapshot
            r10.parent_is_last_save = true;
            writer.save_async(snap_, r10);
            {
                std::unique_lock<std::mutex> l(m);
                QVERIFY(cv.wait_for(l, std::chrono::seconds(30), [&] { return held; }));
            }
            QVERIFY(writer.save_in_flight());  // not committed yet...
            QVERIFY(!writer.snapshot_busy());  // ...but done with the snapshot
            writer.wait_for_snapshot();        // returns at once

            trainStep();
            snap_->capture(*model_, *opt_);
            want20 = snap_->params_sha256();
            SaveRequest r20 = request(20);
            r20.row.params_sha256.clear();
            r20.parent_is_last_save = true;
            QVERIFY(!r20.row.parent_id.has_value());  // what the trainer's head says now: nothing committed
            writer.save_async(snap_, r20);
            QVERIFY(writer.snapshot_busy());  // queued behind the commit, holding the new capture
            let_commit_go();
            writer.wait_for_save();
            QVERIFY(!writer.snapshot_busy());
            QVERIFY(!writer.take_save_error().has_value());
        }
        set_fault_hook(nullptr);
        QVERIFY(want10 != want20);
        QCOMPARE(saved.size(), std::size_t(2));
        QCOMPARE(saved[0].global_step, std::int64_t(10));
        QCOMPARE(saved[1].parent_id.value_or(-1), saved[0].id);
        QCOMPARE(reg_->checkpoint(saved[1].id)->parent_id.value_or(-1), saved[0].id);
        QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), saved[1].id);
        const std::string wants[] = {want10, want20};
        for (int i = 0; i < 2; ++i) {
            auto row = reg_->checkpoint(saved[i].id);
            QCOMPARE(QString::fromStdString(row->params_sha256), QString::fromStdString(wants[i]));
            VerifyResult v = verify_checkpoint_file(reg_->absolute(row->path), row->sha256);
            QVERIFY2(v.ok, v.error.c_str());
            QCOMPARE(QString::fromStdString(v.meta.value("params_sha256", "")), QString::fromStdString(wants[i]));
        }
    }

    void asyncSaveFailingAtEitherSyncLeavesThePreviousCheckpoint() {
        for (int failing : {1, 2}) {  // the tensors' background flush, then the whole file's sync
            std::vector<SaveOutcome> outs;
            {
                CheckpointWriter writer(home(), [&](const SaveOutcome& o) { outs.push_back(o); });
                trainStep();
                snap_->capture(*model_, *opt_);
                writer.save_async(snap_, request(10 * failing));
                writer.wait_for_save();
                QVERIFY(!writer.take_save_error().has_value());
                const std::int64_t head = reg_->run_by_id(run_)->head_checkpoint_id.value();
                const QByteArray headSha =
                    testsupport::fileSha256(QString::fromStdString(reg_->absolute(reg_->checkpoint(head)->path)));
                std::atomic<int> seen{0};
                set_fault_hook([&](const char* op, const std::string&) {
                    return std::string(op) == "fsync" && ++seen == failing ? EIO : 0;
                });
                trainStep();
                snap_->capture(*model_, *opt_);
                writer.save_async(snap_, request(10 * failing + 5));
                writer.wait_for_save();
                set_fault_hook(nullptr);
                const auto err = writer.take_save_error();
                QVERIFY2(err && QString::fromStdString(*err).startsWith(QLatin1String("cannot sync ")),
                         err ? err->c_str() : "no error");
                QCOMPARE(reg_->run_by_id(run_)->head_checkpoint_id.value_or(-1), head);
                QCOMPARE(testsupport::fileSha256(QString::fromStdString(reg_->absolute(reg_->checkpoint(head)->path))),
                         headSha);
                auto failed = reg_->checkpoint(reg_->max_checkpoint_id());
                QCOMPARE(QString::fromLatin1(savepoint::to_string(failed->state)), QStringLiteral("failed"));
                QVERIFY(!QFileInfo::exists(QString::fromStdString(reg_->absolute(failed->path))));
            }
            QCOMPARE(outs.size(), std::size_t(1));
            QVERIFY(tempFiles().isEmpty());
        }
    }

    void asyncWriterWritesOverTheFileRetentionRetired() {
        // keep 1: each save retires the one before. The retired file stays on disk,
        // its row 'deleting', until the next save writes over it and renames it.
        auto inode = [](const std::string& path) {
            struct stat st {};
            return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_ino) : -1LL;
        };
        std::vector<SaveOutcome> outs;
        std::vector<long long> inodes;
        {
            CheckpointWriter writer(home(), [&](const SaveOutcome& o) {
                outs.push_back(o);
                inodes.push_back(inode(reg_->absolute(o.row.path)));
            });
            for (std::int64_t gs : {10, 20, 30, 40}) {
                trainStep();
                snap_->capture(*model_, *opt_);
                SaveRequest r = request(gs, NAN, 1);
                // #1 is the longest file, so #3, written over it, must come out shorter than it was.
                if (gs == 10) {
                    nlohmann::json meta = *r.session_meta;
                    meta["note"] = std::string(6000, 'x');
                    r.session_meta = std::make_shared<const nlohmann::json>(std::move(meta));
                }
                writer.save_async(snap_, r);
                writer.wait_for_save();
                QVERIFY(!writer.take_save_error().has_value());
            }
            writer.drain();
            QCOMPARE(outs.size(), std::size_t(4));
            QVERIFY(!outs[0].recycled && !outs[1].recycled);  // nothing retired yet when they were written
            QVERIFY(outs[2].recycled && outs[3].recycled);
            QCOMPARE(inodes[2], inodes[0]);  // #3 is #1's file, written over
            QCOMPARE(inodes[3], inodes[1]);
            auto first = reg_->checkpoint(outs[0].row.id);
            QCOMPARE(QString::fromLatin1(savepoint::to_string(first->state)), QStringLiteral("deleted"));
            QCOMPARE(
                QString::fromStdString(first->state_detail),
                QString("removed by retention (keep 1); its file was rewritten as checkpoint #%1").arg(outs[2].row.id));
            // #3 was retired by #4 and is kept for a next save, its row still 'deleting'.
            QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(outs[2].row.id)->state)),
                     QStringLiteral("deleting"));
            QVERIFY(QFileInfo::exists(QString::fromStdString(reg_->absolute(outs[2].row.path))));
            // Every file still on disk (#3 and #4) verifies with its own header: nothing of the old contents survives.
            for (const auto& o : outs)
                if (QFileInfo::exists(QString::fromStdString(reg_->absolute(o.row.path)))) {
                    VerifyResult v = verify_checkpoint_file(reg_->absolute(o.row.path), o.row.sha256);
                    QVERIFY2(v.ok, v.error.c_str());
                    QCOMPARE(v.meta.value("checkpoint_id", -1LL), static_cast<long long>(o.row.id));
                }
        }
        // No more saves: the kept file goes when the writer closes, and its row says so.
        QVERIFY(!QFileInfo::exists(QString::fromStdString(reg_->absolute(outs[2].row.path))));
        QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(outs[2].row.id)->state)),
                 QStringLiteral("deleted"));
        QVERIFY(tempFiles().isEmpty());
        QDir ckpts(QString::fromStdString(reg_->absolute(checkpoint_dir_relative("w"))));
        QCOMPARE(ckpts.entryList(QDir::Files).size(), 1);
    }

    void recycledFileThatCannotBeWrittenOverIsStillRemoved() {
        // The open of the retired file fails: the save falls back to a new file and
        // the retired one is removed as retention would.
        std::vector<SaveOutcome> outs;
        {
            CheckpointWriter writer(home(), [&](const SaveOutcome& o) { outs.push_back(o); });
            for (std::int64_t gs : {10, 20, 30}) {
                trainStep();
                snap_->capture(*model_, *opt_);
                if (gs == 30) {
                    const std::string victim = reg_->absolute(outs[0].row.path);
                    set_fault_hook([victim](const char* op, const std::string& path) {
                        return std::string(op) == "open" && path == victim ? EIO : 0;
                    });
                }
                writer.save_async(snap_, request(gs, NAN, 1));
                writer.wait_for_save();
            }
            set_fault_hook(nullptr);
            QVERIFY(!writer.take_save_error().has_value());
            QCOMPARE(outs.size(), std::size_t(3));
            QVERIFY(outs[1].recycled == false && outs[2].recycled == false);
            writer.drain();
            QVERIFY(!QFileInfo::exists(QString::fromStdString(reg_->absolute(outs[0].row.path))));
            QCOMPARE(QString::fromLatin1(savepoint::to_string(reg_->checkpoint(outs[0].row.id)->state)),
                     QStringLiteral("deleted"));
        }
        QVERIFY(tempFiles().isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestCheckpointWriter)
#include "test_checkpoint_writer.moc"
