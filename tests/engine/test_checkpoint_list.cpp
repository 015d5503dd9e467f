// Tests for CheckpointList (engine/registry/checkpoint_list.cpp): a list followed by
// refresh() through one connection must equal a full read, row for row, after
// any mix of saves, commits, retention, pins, damage and failures made through
// another connection (as the CLI or the training thread would), for its own
// run only (and its open rows, those not in a final state, equal the full
// read's); refresh() says whether anything changed; rows in a final state are
// not read again, but reread() reads one whatever its state.
#include "registry/checkpoint_list.h"
#include "registry/registry.h"

#include <QtTest>

#include <sqlite3.h>

#include <cmath>
#include <random>

using namespace savepoint;

namespace {

CheckpointRow newRow(std::int64_t run, std::int64_t branch, std::int64_t gs) {
    CheckpointRow c;
    c.run_id = run;
    c.branch_id = branch;
    c.epoch = 1;
    c.step = gs;
    c.global_step = gs;
    c.path = "checkpoints/r/";
    c.train_loss = 0.5;
    return c;
}

QString describe(const std::vector<CheckpointRow>& rows) {
    QStringList out;
    for (const auto& c : rows)
        out << QStringLiteral("#%1 %2%3")
                   .arg(c.id)
                   .arg(QString::fromLatin1(savepoint::to_string(c.state)))
                   .arg(c.pinned ? "*" : "");
    return out.join(QLatin1Char(' '));
}

bool sameRows(const std::vector<CheckpointRow>& a, const std::vector<CheckpointRow>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!same_checkpoint_row(a[i], b[i]) || a[i].run_id != b[i].run_id) return false;
    return true;
}

}  // namespace

class TestCheckpointList : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> dir_;
    std::string home() const { return dir_->path().toStdString() + "/home"; }

private Q_SLOTS:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
    }

    void followingEqualsAFullReadWhateverHappens() {
        Registry writer(home());
        Registry viewer(home());
        const auto run = writer.create_run("watched", "{}", 10, 100, "cpu");
        const auto other = writer.create_run("other", "{}", 10, 100, "cpu");
        const auto branch = writer.run_by_id(run)->active_branch_id;
        const auto other_branch = writer.run_by_id(other)->active_branch_id;
        CheckpointList list;
        list.load(viewer, run);
        std::mt19937 rng(7);
        std::vector<std::int64_t> ids;
        std::int64_t gs = 0;
        for (int round = 0; round < 300; ++round) {
            // A few changes between two refreshes, as between two polls of the window.
            const int changes = 1 + static_cast<int>(rng() % 4);
            for (int k = 0; k < changes; ++k) {
                const unsigned what = rng() % 9;
                if (what <= 2 || ids.empty()) {
                    const bool ours = rng() % 4 != 0;
                    const auto id = writer.insert_writing_checkpoint(
                        newRow(ours ? run : other, ours ? branch : other_branch, ++gs));
                    if (ours) ids.push_back(id);
                    continue;
                }
                const auto id = ids[rng() % ids.size()];
                const auto row = writer.checkpoint(id);
                if (what == 3 && row->state == savepoint::CheckpointState::Writing) {
                    CheckpointCommit commit;
                    commit.bytes = 1000 + round;
                    commit.sha256 = std::string(64, 'b');
                    commit.params_sha256 = std::string(64, 'c');
                    commit.write_ms = 5.5;
                    commit.stall_ms = 0.1;
                    // Retention in the same transaction, as a save does.
                    for (auto old : ids)
                        if (old < id && writer.checkpoint(old)->state == savepoint::CheckpointState::Committed &&
                            rng() % 2)
                            commit.retire.push_back(old);
                    writer.commit_checkpoint(id, commit);
                } else if (what == 4 && row->state == savepoint::CheckpointState::Deleting) {
                    writer.set_checkpoint_state(id, savepoint::CheckpointState::Deleted, "removed by retention");
                } else if (what == 5 && !checkpoint_state_is_final(row->state)) {
                    writer.set_checkpoint_pinned(id, !row->pinned);
                } else if (what == 6 && row->state == savepoint::CheckpointState::Committed) {
                    writer.set_checkpoint_state(id, rng() % 2 ? CheckpointState::Corrupt : CheckpointState::Missing,
                                                "damaged on disk");
                } else if (what == 7 && row->state == savepoint::CheckpointState::Writing) {
                    writer.set_checkpoint_state(id, savepoint::CheckpointState::Failed, "disk full");
                } else if (what == 8 && row->state == savepoint::CheckpointState::Committed) {
                    writer.set_checkpoint_state(id, savepoint::CheckpointState::Deleting, "deleted by the user");
                }
            }
            const auto before = list.rows();
            const bool changed = list.refresh(viewer);
            const auto full = viewer.checkpoints(run);
            QVERIFY2(sameRows(list.rows(), full), qPrintable(QStringLiteral("round %1\nfollowed: %2\nfull read: %3")
                                                                 .arg(round)
                                                                 .arg(describe(list.rows()), describe(full))));
            QCOMPARE(changed, !sameRows(before, full));
            std::vector<CheckpointRow> open;
            for (const auto& c : full)
                if (!checkpoint_state_is_final(c.state)) open.push_back(c);
            QVERIFY2(sameRows(list.open_rows(), open),
                     qPrintable(QStringLiteral("round %1: open rows %2, expected %3")
                                    .arg(round)
                                    .arg(describe(list.open_rows()), describe(open))));
        }
        QVERIFY(ids.size() > 100);  // the sequence did build a history
    }

    void refreshWithNothingNewChangesNothing() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        const auto id = reg.insert_writing_checkpoint(newRow(run, reg.run_by_id(run)->active_branch_id, 1));
        CheckpointList list;
        list.load(reg, run);
        QCOMPARE(list.rows().size(), std::size_t(1));
        QVERIFY(!list.refresh(reg));
        reg.set_checkpoint_pinned(id, true);
        QVERIFY(list.refresh(reg));
        QVERIFY(list.rows()[0].pinned);
        QVERIFY(!list.refresh(reg));
    }

    void settledRowsAreReadAgainOnlyWhenAsked() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        const auto id = reg.insert_writing_checkpoint(newRow(run, reg.run_by_id(run)->active_branch_id, 1));
        reg.set_checkpoint_state(id, savepoint::CheckpointState::Failed, "disk full");
        CheckpointList list;
        list.load(reg, run);
        // Nothing moves a row out of 'failed'; a change behind the registry's back shows what refresh skips.
        char* err = nullptr;
        const std::string sql = "UPDATE checkpoints SET pinned=1 WHERE id=" + std::to_string(id);
        QCOMPARE(sqlite3_exec(reg.db(), sql.c_str(), nullptr, nullptr, &err), SQLITE_OK);
        QVERIFY(!list.refresh(reg));
        QVERIFY(!list.rows()[0].pinned);
        QVERIFY(list.reread(reg, id));
        QVERIFY(list.rows()[0].pinned);
        QVERIFY(list.open_rows().empty());
    }

    void rowsRemovedFromTheRegistryLeaveTheList() {
        Registry reg(home());
        const auto run = reg.create_run("r", "{}", 10, 100, "cpu");
        const auto branch = reg.run_by_id(run)->active_branch_id;
        const auto a = reg.insert_writing_checkpoint(newRow(run, branch, 1));
        const auto b = reg.insert_writing_checkpoint(newRow(run, branch, 2));
        CheckpointList list;
        list.load(reg, run);
        const std::string sql = "DELETE FROM checkpoints WHERE id=" + std::to_string(a);
        QCOMPARE(sqlite3_exec(reg.db(), sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        QVERIFY(list.refresh(reg));
        QCOMPARE(list.rows().size(), std::size_t(1));
        QCOMPARE(list.rows()[0].id, b);
    }
};

QTEST_APPLESS_MAIN(TestCheckpointList)
#include "test_checkpoint_list.moc"
