// The divergence guard (engine/training/divergence_check.cpp, trainer.cpp) and
// resume --lr (branch_lr.h), through the real savepoint-cli: a NaN loss or an
// infinite gradient stops the run at that step with exit 3 and an event naming
// the last good checkpoint, no checkpoint holds a non-finite value, and a
// rollback with --lr trains a new branch at that rate, recorded in the registry
// and in its checkpoints. The built-in models do not diverge on their own with
// cross-entropy (docs/RELIABILITY.md, fault classes): SAVEPOINT_INJECT_NONFINITE
// poisons one global step's loss or gradient after the backward pass. One
// real divergence too: a linear TorchScript regressor with mse and SGD at a
// rate far too large for inputs of ~100 overflows at the same step every time.
#include "formats/checkpoint_format.h"
#include "registry/registry.h"
#include "training/trainer.h"

#include "script_fixtures.h"
#include "test_home.h"

#include <QtTest>

#include <cmath>
#include <cstring>

using testsupport::CliResult;

namespace {

constexpr int kEpochs = 3, kSteps = 20;  // save every 10 steps: checkpoints at 10, 20, 30, ...

CliResult cli(const QStringList& args, const QString& inject = QString()) {
    QProcessEnvironment env = testsupport::cliEnvironment();
    if (!inject.isEmpty()) env.insert(QStringLiteral("SAVEPOINT_INJECT_NONFINITE"), inject);
    return testsupport::runCli(args, 240000, env);
}

QStringList resumeArgs(const QString& home, const QStringList& extra) {
    return QStringList{QStringLiteral("resume"), QStringLiteral("--home"), home, QStringLiteral("--run"),
                       QStringLiteral("d")} +
           extra;
}

// Whether every float32 tensor of the checkpoint file is finite, and its config's lr.
bool checkpointFinite(const QString& path, double* lr) {
    std::vector<std::uint8_t> bytes;
    savepoint::CheckpointContents contents;
    const savepoint::VerifyResult v = savepoint::verify_checkpoint_file(path.toStdString(), {}, &bytes, &contents);
    if (!v.ok) return false;
    *lr = contents.meta["config"].value("lr", -1.0);
    for (const auto& t : contents.tensors) {
        if (t.dtype != savepoint::DType::F32) continue;
        for (std::uint64_t i = 0; i < t.nbytes / 4; ++i) {
            float f;
            std::memcpy(&f, t.data + i * 4, 4);
            if (!std::isfinite(f)) return false;
        }
    }
    return true;
}

}  // namespace

class TestDivergence : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    int homes_ = 0;

    // A run that diverges at global step 35 (epoch 2, step 15): checkpoints #1-#3 at 10, 20, 30.
    QString divergedHome(const QString& inject = QStringLiteral("loss@35"), CliResult* out = nullptr) {
        const QString home = tmp_.filePath(QStringLiteral("h%1").arg(++homes_));
        const CliResult r =
            cli(testsupport::trainArgs(home, QStringLiteral("d"), kEpochs, kSteps, QStringLiteral("10")), inject);
        if (out) *out = r;
        return home;
    }

private Q_SLOTS:
    void stopsAtTheFirstNonFiniteStep_data() {
        QTest::addColumn<QString>("inject");
        QTest::addColumn<QString>("what");
        QTest::addRow("loss") << "loss@35"
                              << "loss became NaN";
        QTest::addRow("gradient") << "grad@35"
                                  << "the gradient of fc1.bias became NaN or infinite";
    }
    void stopsAtTheFirstNonFiniteStep() {
        QFETCH(QString, inject);
        QFETCH(QString, what);
        CliResult r;
        const QString home = divergedHome(inject, &r);
        QVERIFY2(r.exitCode == 3, r.describe());
        const QString message = what +
                                " at epoch 2, step 15; the last good checkpoint is #3 at epoch 2, step 10 (roll back "
                                "with a smaller learning rate: savepoint-cli resume --run d --checkpoint 3 --lr X)";
        QVERIFY2(r.out.contains(QStringLiteral("diverged: ") + message), r.describe());
        // The engine's own sentence names no flag: the CLI added the command above from the reason's fields.
        const QString engineMessage =
            what +
            " at epoch 2, step 15; the last good checkpoint is #3 at epoch 2, step 10 (roll back to it with a "
            "smaller learning rate)";

        savepoint::Registry reg(home.toStdString());
        const auto run = reg.find_run("d");
        QVERIFY(run);
        QCOMPARE(run->global_step, 34);  // the step that diverged was not made
        QCOMPARE(run->head_checkpoint_id.value_or(0), 3);
        const auto events = reg.events(run->id);
        QVERIFY(!events.empty());
        QCOMPARE(events.back().kind, savepoint::EventKind::Divergence);
        QCOMPARE(QString::fromStdString(events.back().message), engineMessage);
        QCOMPARE(events.back().checkpoint_id.value_or(0), 3);
        QCOMPARE(reg.sessions(run->id).back().ended_by, savepoint::SessionEnd::Diverged);
        // Nothing after the last good step was saved, and what was saved is finite.
        const auto checkpoints = reg.checkpoints(run->id);
        QCOMPARE(int(checkpoints.size()), 3);
        for (const auto& c : checkpoints) {
            double lr = 0;
            QVERIFY2(checkpointFinite(QString::fromStdString(reg.absolute(c.path)), &lr), c.path.c_str());
        }
    }

    void aRealDivergenceStopsAtTheSameStepEveryTime() {
        // y = x·w on 8 inputs of ~100: with SGD at lr 1 each step multiplies the error by ~1e4.
        torch::manual_seed(7);
        const torch::Tensor x = torch::randn({256, 8}) * 100, xt = torch::randn({64, 8}) * 100;
        const torch::Tensor w = torch::randn({8, 1});
        const std::string data = tmp_.filePath(QStringLiteral("regression.pt")).toStdString();
        const std::string model = tmp_.filePath(QStringLiteral("linear.pt")).toStdString();
        testsupport::writeTensorFile(
            data, {{"train_x", x}, {"train_y", x.matmul(w)}, {"test_x", xt}, {"test_y", xt.matmul(w)}});
        torch::jit::Module m = testsupport::scriptModule("Linear");
        m.register_parameter("w", torch::zeros({1, 8}).requires_grad_(), false);
        m.register_parameter("b", torch::zeros({1}).requires_grad_(), false);
        m.define("def forward(self, x):\n    return torch.matmul(x, self.w.t()) + self.b\n");
        m.save(model);
        savepoint::TrainConfig cfg;
        cfg.model = model;
        cfg.data = data;
        cfg.loss = "mse";
        cfg.optimizer = "sgd";
        cfg.lr = 1;
        cfg.epochs = 2;
        cfg.steps_per_epoch = 20;
        cfg.batch = 16;
        cfg.save_every_steps = 2;
        cfg.threads = 1;
        cfg.device = "cpu";
        std::vector<std::string> messages;
        std::vector<savepoint::SessionReason> reasons;
        for (int attempt = 0; attempt < 2; ++attempt) {
            savepoint::TrainRequest r;
            r.home = tmp_.filePath(QStringLiteral("real%1").arg(attempt)).toStdString();
            r.run_name = "lin";
            r.config = cfg;
            const savepoint::TrainResult res = savepoint::Trainer(r).run();
            QCOMPARE(res.outcome, savepoint::Outcome::Diverged);
            QVERIFY2(res.global_step > 2 && res.global_step < 40, res.message.c_str());
            savepoint::Registry reg(r.home);
            const auto run = reg.find_run("lin");
            QCOMPARE(run->global_step, res.global_step);
            QCOMPARE(reg.events(run->id).back().kind, savepoint::EventKind::Divergence);
            for (const auto& c : reg.checkpoints(run->id)) {
                double lr = 0;
                QVERIFY2(c.global_step <= res.global_step, c.path.c_str());
                QVERIFY2(checkpointFinite(QString::fromStdString(reg.absolute(c.path)), &lr), c.path.c_str());
            }
            messages.push_back(res.message);
            reasons.push_back(res.reason);
        }
        QCOMPARE(QString::fromStdString(messages[1]), QString::fromStdString(messages[0]));
        QCOMPARE(QString::fromStdString(messages[0]),
                 QStringLiteral("loss became infinite at epoch 1, step 5; the last good checkpoint is #2 at epoch 1, "
                                "step 4 (roll back to it with a smaller learning rate)"));
        QVERIFY2(messages[0].find("--") == std::string::npos, messages[0].c_str());
        // The reason holds what the front ends word: the CLI its command, the window its rollback button.
        const auto* d = std::get_if<savepoint::DivergedReason>(&reasons[0]);
        QVERIFY(d);
        QCOMPARE(d->value, savepoint::DivergedReason::Value::Loss);
        QVERIFY(!d->nan);
        QCOMPARE(d->at.global_step, 5);
        QCOMPARE(d->at.epoch, 1);
        QCOMPARE(d->at.step, 5);
        QCOMPARE(d->good_checkpoint.value_or(0), 2);
        QCOMPARE(d->good_at.global_step, 4);
        QCOMPARE(d->good_at.step, 4);
        QCOMPARE(d->learning_rate, 1.0);
        QCOMPARE(QString::fromStdString(d->run), QStringLiteral("lin"));
        // The last finite checkpoint is not a sane one here: at step 4 the error is already so large that
        // the next forward pass overflows whatever the rate. One further back, at a rate that suits the
        // data (below 2 / the largest curvature, ~1e5 for inputs of ~100), training reaches the end.
        savepoint::TrainRequest back;
        back.home = tmp_.filePath(QStringLiteral("real0")).toStdString();
        back.run_name = "lin";
        back.resume = true;
        back.target.checkpoint_id = 1;
        back.lr_override = 1e-6;
        const savepoint::TrainResult done = savepoint::Trainer(back).run();
        QVERIFY2(done.outcome == savepoint::Outcome::Finished, done.message.c_str());
        QCOMPARE(done.global_step, 40);
        const auto* f = std::get_if<savepoint::FinishedReason>(&done.reason);
        QVERIFY(f);
        QCOMPARE(f->global_step, 40);
    }

    void resumeLrWithoutRollbackIsRefused() {
        const QString home = divergedHome();
        const QJsonArray before = testsupport::checkpointsJson(home, QStringLiteral("d"));
        const CliResult r = cli(resumeArgs(home, {QStringLiteral("--lr"), QStringLiteral("0.0001")}));
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("--lr: a new learning rate starts a new branch from a checkpoint: add "
                                               "--checkpoint ID")),
                 r.describe());
        QCOMPARE(testsupport::checkpointsJson(home, QStringLiteral("d")), before);
        savepoint::Registry reg(home.toStdString());
        QCOMPARE(int(reg.branches(reg.find_run("d")->id).size()), 1);
    }

    void resumeLrBetweenCheckpointsNamesTheOneToUse() {
        const QString home = divergedHome();
        const CliResult r =
            cli(resumeArgs(home, {QStringLiteral("--epoch"), QStringLiteral("2"), QStringLiteral("--step"),
                                  QStringLiteral("5"), QStringLiteral("--lr"), QStringLiteral("0.0001")}));
        QVERIFY2(r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("--lr: a new learning rate starts at a checkpoint, and no checkpoint is "
                                               "at epoch 2, step 5; use --checkpoint 2 (epoch 1, step 20)")),
                 r.describe());
    }

    void rollbackWithLrTrainsANewBranchAtThatRate() {
        const QString home = divergedHome();
        const QStringList rollback{QStringLiteral("--checkpoint"), QStringLiteral("3"), QStringLiteral("--lr"),
                                   QStringLiteral("0.0001")};
        const CliResult first = cli(resumeArgs(home, rollback));
        QVERIFY2(first.exitCode == 0, first.describe());
        QVERIFY2(first.out.contains(QStringLiteral("on a new branch (#2 of this run; the old branch is kept) with "
                                                   "learning rate 0.0001")),
                 first.describe());
        const QString sha = testsupport::paramsShaFromOutput(first.out);
        QVERIFY(!sha.isEmpty());
        // The same rollback again: the same bits.
        const CliResult second = cli(resumeArgs(home, rollback));
        QVERIFY2(second.exitCode == 0, second.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(second.out), sha);

        savepoint::Registry reg(home.toStdString());
        const auto run = reg.find_run("d");
        const auto branches = reg.branches(run->id);
        QCOMPARE(int(branches.size()), 3);
        QVERIFY(!branches[0].lr);
        QCOMPARE(branches[1].lr.value_or(0), 0.0001);
        QCOMPARE(branches[2].lr.value_or(0), 0.0001);
        for (const auto& c : reg.checkpoints(run->id)) {
            if (!c.usable()) continue;  // retired by retention (--keep)
            double lr = 0;
            QVERIFY2(checkpointFinite(QString::fromStdString(reg.absolute(c.path)), &lr), c.path.c_str());
            QCOMPARE(lr, c.branch_id == branches[0].id ? 0.001 : 0.0001);
            QCOMPARE(std::isnan(c.branch_lr), c.branch_id == branches[0].id);
        }
        const QJsonArray listed = testsupport::checkpointsJson(home, QStringLiteral("d"));
        QCOMPARE(listed.last().toObject().value(QStringLiteral("branch_lr")).toDouble(), 0.0001);

        // A rollback within the new branch keeps its rate (its checkpoint's config is checked against it);
        // one to the original branch trains at the run's own again.
        const auto onNew = reg.checkpoints(run->id)[4];  // branch 2, global step 50
        QCOMPARE(onNew.global_step, 50);
        const CliResult within = cli(resumeArgs(home, {QStringLiteral("--checkpoint"), QString::number(onNew.id)}));
        QVERIFY2(within.exitCode == 0, within.describe());
        QCOMPARE(testsupport::paramsShaFromOutput(within.out), sha);
        const CliResult back = cli(resumeArgs(home, {QStringLiteral("--checkpoint"), QStringLiteral("2")}));
        QVERIFY2(back.exitCode == 0, back.describe());
        const auto after = reg.branches(run->id);
        QCOMPARE(after[3].lr.value_or(0), 0.0001);
        QVERIFY(!after[4].lr);
    }
};

QTEST_GUILESS_MAIN(TestDivergence)
#include "test_divergence.moc"
