// fast_dropout (engine/model/fast_dropout.cpp): the mask keeps 1-p of the elements,
// scales them by 1/(1-p), is decided by LibTorch's default generator (so the
// RNG state a checkpoint saves reproduces it), differs from call to call, and
// is the identity in eval mode; gradients flow through the kept elements only.
// The mask is the documented hash of (key, element); the transposed fill
// gives the same mask laid out feature-major.
#include "model/fast_dropout.h"

#include <torch/torch.h>

#include <QtTest>

#include <cmath>
#include <utility>
#include <vector>

using namespace savepoint;

class TestFastDropout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keepsOneMinusPScaled() {
        for (double p : {0.1, 0.2, 0.5, 0.9}) {
            const std::int64_t n = 1 << 20;
            std::vector<float> m(n);
            fill_dropout_mask(m.data(), n, p, 12345);
            const float scale = float(1.0 / (1.0 - p));
            std::int64_t kept = 0;
            for (float v : m) {
                QVERIFY(v == 0.0f || v == scale);
                kept += v != 0.0f;
            }
            const double frac = double(kept) / double(n);
            // Binomial standard deviation at 1M draws is <= 0.0005; allow 5 of them.
            QVERIFY2(std::abs(frac - (1 - p)) < 0.0025, qPrintable(QStringLiteral("p=%1 kept %2").arg(p).arg(frac)));
            // Even and odd positions (the two halves of each hash) are both fair.
            std::int64_t keptEven = 0;
            for (std::int64_t i = 0; i < n; i += 2) keptEven += m[i] != 0.0f;
            QVERIFY(std::abs(double(keptEven) / double(n / 2) - (1 - p)) < 0.004);
        }
    }

    void maskIsTheDocumentedHashOfKeyAndIndex() {
        // Written out independently, one splitmix64 word per pair of elements
        // (low half first): the function every saved checkpoint's masks were
        // drawn with, so a resume of an older run stays bit-identical.
        auto mix = [](std::uint64_t z) {
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            return z ^ (z >> 31);
        };
        for (std::int64_t n : {1, 7, 16384, 40001}) {
            const double p = 0.3;
            const std::uint64_t key = 987654321, base = key * 0x9e3779b97f4a7c15ULL;
            const auto threshold = static_cast<std::uint64_t>(std::llround(p * 4294967296.0));
            const float scale = static_cast<float>(1.0 / (1.0 - p));
            std::vector<float> got(static_cast<std::size_t>(n), -1.0f);
            fill_dropout_mask(got.data(), n, p, key);
            for (std::int64_t e = 0; e < n; ++e) {
                const std::uint64_t z = mix(base + static_cast<std::uint64_t>(e / 2) + 1);
                const std::uint64_t draw = e % 2 ? z >> 32 : z & 0xffffffffULL;
                QVERIFY2(got[static_cast<std::size_t>(e)] == (draw >= threshold ? scale : 0.0f),
                         qPrintable(QStringLiteral("n=%1 element %2").arg(n).arg(e)));
            }
        }
    }

    void transposedMaskIsTheSameMaskTransposed() {
        // linear_stack_step reads the mask feature-major; its bits must be fast_dropout's.
        for (auto [rows, cols] : {std::pair<std::int64_t, std::int64_t>{32, 512}, {7, 5}, {1, 3}, {33, 17}}) {
            std::vector<float> plain(static_cast<std::size_t>(rows * cols)), transposed(plain.size(), -1.0f);
            fill_dropout_mask(plain.data(), rows * cols, 0.2, 12345);
            fill_dropout_mask_transposed(transposed.data(), rows, cols, 0.2, 12345);
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t c = 0; c < cols; ++c)
                    QVERIFY2(transposed[static_cast<std::size_t>(c * rows + r)] ==
                                 plain[static_cast<std::size_t>(r * cols + c)],
                             qPrintable(QStringLiteral("%1x%2 at (%3, %4)").arg(rows).arg(cols).arg(r).arg(c)));
        }
    }

    void oddLengthsFillEveryElement() {
        std::vector<float> m(7, -1.0f);
        fill_dropout_mask(m.data(), 7, 0.5, 1);
        for (float v : m) QVERIFY(v == 0.0f || v == 2.0f);
    }

    void generatorStateDecidesTheMask() {
        const torch::Tensor x = torch::ones({32, 512});
        torch::manual_seed(7);
        const torch::Tensor a1 = fast_dropout(x, 0.2, true);
        const torch::Tensor a2 = fast_dropout(x, 0.2, true);
        QVERIFY(!torch::equal(a1, a2));  // a fresh mask per call
        torch::manual_seed(7);
        QVERIFY(torch::equal(fast_dropout(x, 0.2, true), a1));
        // Saving and restoring the generator state (what a checkpoint does) reproduces the next mask.
        auto gen = at::detail::getDefaultCPUGenerator();
        const torch::Tensor state = gen.get_state();
        const torch::Tensor next = fast_dropout(x, 0.2, true);
        fast_dropout(x, 0.2, true);
        gen.set_state(state);
        QVERIFY(torch::equal(fast_dropout(x, 0.2, true), next));
        torch::manual_seed(8);
        QVERIFY(!torch::equal(fast_dropout(x, 0.2, true), a1));
    }

    void evalModeAndEdgeProbabilities() {
        const torch::Tensor x = torch::randn({4, 10});
        QVERIFY(torch::equal(fast_dropout(x, 0.2, false), x));
        QVERIFY(torch::equal(fast_dropout(x, 0.0, true), x));
        QCOMPARE(fast_dropout(x, 1.0, true).abs().sum().item<float>(), 0.0f);
    }

    void gradientPassesThroughKeptElementsOnly() {
        torch::manual_seed(3);
        torch::Tensor x = torch::randn({16, 64}, torch::requires_grad());
        torch::Tensor y = fast_dropout(x, 0.25, true);
        y.sum().backward();
        const torch::Tensor kept = y.ne(0);
        QVERIFY(torch::allclose(x.grad(), kept.to(torch::kFloat32) * (1 / 0.75f)));
        QVERIFY(torch::allclose(y.masked_select(kept), x.masked_select(kept) / 0.75f));
    }
};

QTEST_APPLESS_MAIN(TestFastDropout)
#include "test_fast_dropout.moc"
