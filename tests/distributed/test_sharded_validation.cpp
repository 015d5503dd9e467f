// A data-parallel job's validation pass, shared out over its workers: two ranks
// joined over Gloo on loopback (threads of this process), each evaluating every
// other batch, must both get the bits one process gets from rank 0's model, even
// when rank 1's batch norm statistics have drifted from rank 0's (as each rank's
// do, from its own shard of every step).
#include "data/dataset.h"
#include "distributed/process_group.h"
#include "model/script_model.h"
#include "training/training_step.h"

#include "free_port.h"
#include "script_fixtures.h"

#include <QtTest>

#include <array>
#include <cstring>
#include <thread>

using namespace savepoint;

namespace {

DatasetPair quadrants(std::int64_t test) {
    const auto t = testsupport::quadrantData(64, test);
    DatasetPair p;
    p.train = {t[0].second, t[1].second};
    p.test = {t[2].second, t[3].second};
    return p;
}

// The BatchNorm mlp, its statistics moved away from their initial values by `shift` (rank 1's drift).
std::shared_ptr<ScriptModelImpl> bn_model(double shift) {
    auto m = std::make_shared<ScriptModelImpl>(testsupport::bnMlp(64, 16, 4));
    torch::NoGradGuard no_grad;
    for (auto& b : m->named_buffers())
        if (b.key().find("running_mean") != std::string::npos) b.value().fill_(0.25 + shift);
    return m;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

class TestShardedValidation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { torch::set_num_threads(1); }

    void twoRanksGiveOneProcessBits_data() {
        QTest::addColumn<int>("testSamples");
        QTest::addRow("8 batches, the last one short") << 1000;  // 7 × 128 + 104
        QTest::addRow("one batch: rank 1 evaluates none") << 100;
    }
    void twoRanksGiveOneProcessBits() {
        QFETCH(int, testSamples);
        const DatasetPair data = quadrants(testSamples);

        auto one = bn_model(0);
        torch::optim::SGD sgd_one(one->parameters(), torch::optim::SGDOptions(0.1));
        StepRunner alone(*one, sgd_one, data, torch::kCPU, 16);
        const EvalResult want = *alone.evaluate();
        QVERIFY(want.accuracy > 0);

        WorldEnv env;
        env.world_size = 2;
        env.master_addr = "127.0.0.1";
        env.master_port = testsupport::freePort();
        std::array<std::shared_ptr<ScriptModelImpl>, 2> models{bn_model(0), bn_model(1.5)};
        std::array<EvalResult, 2> got;
        std::array<std::string, 2> errors;
        std::array<std::vector<std::int64_t>, 2> seen;  // the `done` counts each rank reported
        auto rank = [&](int r) {
            try {
                WorldEnv e = env;
                e.rank = e.local_rank = r;
                auto group = ProcessGroup::join(e, "same config", std::chrono::seconds(30));
                torch::optim::SGD sgd(models[r]->parameters(), torch::optim::SGDOptions(0.1));
                StepRunner runner(*models[r], sgd, data, torch::kCPU, 16);
                runner.data_parallel(nullptr, group.get(), r, 2);
                const auto e2 = runner.evaluate([&](std::int64_t done, std::int64_t) {
                    seen[r].push_back(done);
                    return true;
                });
                got[r] = *e2;
            } catch (const std::exception& ex) {
                errors[r] = ex.what();
            }
        };
        std::thread r1(rank, 1);
        rank(0);
        r1.join();
        QCOMPARE(errors[0], std::string());
        QCOMPARE(errors[1], std::string());
        for (int r = 0; r < 2; ++r) {
            QVERIFY2(same_bits(got[r].loss, want.loss), qPrintable(QString("rank %1: loss %2, one process %3")
                                                                       .arg(r)
                                                                       .arg(got[r].loss, 0, 'g', 17)
                                                                       .arg(want.loss, 0, 'g', 17)));
            QVERIFY2(same_bits(got[r].accuracy, want.accuracy),
                     qPrintable(QString("rank %1: accuracy %2, one process %3")
                                    .arg(r)
                                    .arg(got[r].accuracy, 0, 'g', 17)
                                    .arg(want.accuracy, 0, 'g', 17)));
        }
        // Each rank did its own batches only: 0, 256, … and 128, 384, … (then the pass's end).
        const std::int64_t n = testSamples;
        QCOMPARE(seen[0].front(), std::int64_t{0});
        QCOMPARE(seen[0].back(), n);
        QCOMPARE(seen[1].back(), n);
        QCOMPARE(std::int64_t(seen[0].size() + seen[1].size() - 2), (n + 127) / 128);
        // Rank 1 now holds rank 0's statistics, as after a restart from rank 0's checkpoint.
        const auto b0 = models[0]->buffers(), b1 = models[1]->buffers();
        for (std::size_t i = 0; i < b0.size(); ++i) QVERIFY(torch::equal(b0[i], b1[i]));
    }
};

QTEST_GUILESS_MAIN(TestShardedValidation)
#include "test_sharded_validation.moc"
