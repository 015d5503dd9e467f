// Tests for the deterministic data order (engine/data/data_order.cpp): the epoch
// permutation is a pure function of (seed, epoch), a real (and unbiased)
// permutation, different across epochs and seeds, stable across releases
// (pinned values: old checkpoints must resume onto the same batches), and the
// (epoch, step) <-> global step mapping round-trips across epoch boundaries.
#include "data/data_order.h"

#include <QtTest>

#include <algorithm>
#include <numeric>
#include <set>

using namespace savepoint;

class TestDataOrder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void isAPermutation() {
        for (std::int64_t n : {1, 2, 3, 7, 100, 4096}) {
            for (std::int64_t epoch : {1, 2, 10}) {
                auto p = epoch_permutation(42, epoch, n);
                QCOMPARE(std::int64_t(p.size()), n);
                auto sorted = p;
                std::sort(sorted.begin(), sorted.end());
                for (std::int64_t i = 0; i < n; ++i) QCOMPARE(sorted[std::size_t(i)], i);
            }
        }
        QVERIFY(epoch_permutation(42, 1, 0).empty());
    }

    void pureFunctionOfSeedAndEpoch() {
        // Same inputs, same output, whatever was computed in between.
        auto a = epoch_permutation(7, 3, 1000);
        auto noise1 = epoch_permutation(8, 1, 500);
        auto noise2 = epoch_permutation(7, 4, 1000);
        Q_UNUSED(noise1);
        Q_UNUSED(noise2);
        auto b = epoch_permutation(7, 3, 1000);
        QCOMPARE(a, b);
    }

    void differsAcrossEpochsAndSeeds() {
        std::set<std::vector<std::int64_t>> seen;
        for (std::int64_t epoch = 1; epoch <= 20; ++epoch) seen.insert(epoch_permutation(42, epoch, 100));
        QCOMPARE(seen.size(), std::size_t(20));
        QVERIFY(epoch_permutation(1, 1, 100) != epoch_permutation(2, 1, 100));
        // The order really shuffles: not the identity, and not a rotation of it.
        auto p = epoch_permutation(42, 1, 100);
        std::vector<std::int64_t> id(100);
        std::iota(id.begin(), id.end(), 0);
        QVERIFY(p != id);
        int ascending = 0;
        for (std::size_t i = 1; i < p.size(); ++i) ascending += p[i] == p[i - 1] + 1;
        QVERIFY2(ascending < 20, "the permutation is mostly in order");
    }

    void pinnedValues() {
        // These exact orders are part of the checkpoint contract: a checkpoint
        // written by an earlier build stores only (seed, epoch, step); if these
        // change, resumed runs silently train on different batches.
        const auto p = epoch_permutation(42, 1, 10);
        const auto q = epoch_permutation(42, 2, 10);
        const auto r = epoch_permutation(0, 1, 10);
        const std::vector<std::int64_t> P = {6, 3, 7, 5, 8, 1, 4, 0, 9, 2};
        const std::vector<std::int64_t> Q = {2, 7, 4, 9, 5, 3, 6, 0, 1, 8};
        const std::vector<std::int64_t> R = {0, 5, 1, 6, 7, 8, 3, 2, 9, 4};
        QCOMPARE(p, P);
        QCOMPARE(q, Q);
        QCOMPARE(r, R);
    }

    void unbiased() {
        // Over many epochs every element lands in every position about equally
        // often, and sometimes stays put (a Sattolo-style off-by-one never does).
        const std::int64_t n = 5;
        const int trials = 20000;
        int counts[5][5] = {};
        int fixedPoints = 0;
        for (int e = 1; e <= trials; ++e) {
            auto p = epoch_permutation(99, e, n);
            for (std::int64_t i = 0; i < n; ++i) {
                counts[i][p[std::size_t(i)]]++;
                fixedPoints += p[std::size_t(i)] == i;
            }
        }
        const double expected = double(trials) / n;
        double chi2 = 0;
        for (auto& row : counts)
            for (int c : row) chi2 += (c - expected) * (c - expected) / expected;
        // 16 degrees of freedom; 40 is far beyond the 0.999 quantile (39.25).
        QVERIFY2(chi2 < 40, qPrintable(QStringLiteral("chi^2 = %1").arg(chi2)));
        QVERIFY(fixedPoints > trials / 2);
    }

    void fullPassSteps() {
        QCOMPARE(full_pass_steps(4096, 32), std::int64_t(128));
        QCOMPARE(full_pass_steps(4097, 32), std::int64_t(129));
        QCOMPARE(full_pass_steps(60000, 32), std::int64_t(1875));
        QCOMPARE(full_pass_steps(1, 32), std::int64_t(1));
        QCOMPARE(full_pass_steps(31, 32), std::int64_t(1));
    }

    void batchPositionsWrapAndKeepTheSize() {
        std::vector<std::int64_t> perm = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
        std::int64_t out[4];
        batch_positions(perm, 1, 4, out);
        QCOMPARE(std::vector<std::int64_t>(out, out + 4), (std::vector<std::int64_t>{9, 8, 7, 6}));
        batch_positions(perm, 2, 4, out);
        QCOMPARE(std::vector<std::int64_t>(out, out + 4), (std::vector<std::int64_t>{5, 4, 3, 2}));
        batch_positions(perm, 3, 4, out);  // wraps: the last batch of a pass is still full
        QCOMPARE(std::vector<std::int64_t>(out, out + 4), (std::vector<std::int64_t>{1, 0, 9, 8}));
        batch_positions(perm, 4, 4, out);
        QCOMPARE(std::vector<std::int64_t>(out, out + 4), (std::vector<std::int64_t>{7, 6, 5, 4}));
        // More steps than one pass (steps_per_epoch > full pass): keeps cycling.
        batch_positions(perm, 26, 4, out);  // (25*4) % 10 = 0
        QCOMPARE(std::vector<std::int64_t>(out, out + 4), (std::vector<std::int64_t>{9, 8, 7, 6}));
        // A batch larger than the dataset.
        std::int64_t big[13];
        batch_positions(perm, 1, 13, big);
        QCOMPARE(big[10], std::int64_t(9));
        QCOMPARE(big[12], std::int64_t(7));
    }

    void positionRoundTrip() {
        for (std::int64_t spe : {1, 7, 100}) {
            for (std::int64_t g = 1; g <= 3 * spe + 1; ++g) {
                Position p = position_of(g, spe);
                QVERIFY(p.step >= 1 && p.step <= spe);
                QVERIFY(p.epoch >= 1);
                QCOMPARE(global_step_of(p.epoch, p.step, spe), g);
            }
        }
    }

    void positionAtEpochBoundaries() {
        // Epoch and step are 1-based and name the last completed step.
        auto check = [](std::int64_t g, std::int64_t spe, std::int64_t e, std::int64_t s) {
            Position p = position_of(g, spe);
            return p.epoch == e && p.step == s;
        };
        QVERIFY(check(0, 100, 1, 0));  // nothing done yet
        QVERIFY(check(1, 100, 1, 1));
        QVERIFY(check(99, 100, 1, 99));
        QVERIFY(check(100, 100, 1, 100));  // end of epoch 1 is still epoch 1
        QVERIFY(check(101, 100, 2, 1));
        QVERIFY(check(120, 100, 2, 20));  // the TF guide's checkpoint
        QVERIFY(check(121, 100, 2, 21));  // ...and where it resumes
        QVERIFY(check(140, 100, 2, 40));
        QVERIFY(check(1000, 100, 10, 100));
        QCOMPARE(global_step_of(2, 20, 100), std::int64_t(120));
        QCOMPARE(global_step_of(2, 0, 100), std::int64_t(100));  // "before epoch 2's first step"
        QCOMPARE(global_step_of(1, 0, 100), std::int64_t(0));
    }
};

QTEST_APPLESS_MAIN(TestDataOrder)
#include "test_data_order.moc"
