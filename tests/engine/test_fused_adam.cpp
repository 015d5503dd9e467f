// FusedAdam (engine/model/fused_adam.cpp): the same updates as LibTorch's Adam to
// float rounding; moments that decay below the smallest normal float become
// exactly zero (never subnormal, which is what made the pass slow); and the
// pass gives the same bits on one thread or two, and the same bits as the
// update written out one float at a time (the vector clone this CPU runs,
// AVX-512 on most x86 servers, must not fuse a multiply and an add).
#include "model/fused_adam.h"
#include "model/optimizer_state_key.h"

#include <torch/torch.h>

#include <QtTest>

#include <cmath>
#include <limits>

using namespace savepoint;

namespace {

// A "layer" big enough that the pass is split across threads (above its grain).
torch::Tensor make_param(std::uint64_t seed) {
    torch::manual_seed(seed);
    return torch::randn({300000}).requires_grad_(true);
}

torch::Tensor grad_for(std::int64_t step, std::int64_t n) {
    torch::manual_seed(500 + step);
    return torch::randn({n}) * 0.01;
}

std::int64_t subnormals(const torch::Tensor& t) {
    const torch::Tensor c = t.contiguous();
    const float* p = c.data_ptr<float>();
    std::int64_t n = 0;
    for (std::int64_t i = 0; i < c.numel(); ++i) n += std::fpclassify(p[i]) == FP_SUBNORMAL;
    return n;
}

// The state of an optimizer's only parameter.
const torch::optim::AdamParamState& state_of(torch::optim::Adam& opt) {
    if (opt.state().size() != 1) throw std::runtime_error("expected one parameter");
    return static_cast<const torch::optim::AdamParamState&>(*opt.state().begin()->second);
}

}  // namespace

class TestFusedAdam : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesLibTorchAdam() {
        torch::Tensor a = make_param(1), b = make_param(1);
        torch::optim::Adam reference({a}, torch::optim::AdamOptions(1e-3));
        FusedAdam fused({b}, torch::optim::AdamOptions(1e-3));
        for (std::int64_t s = 1; s <= 25; ++s) {
            a.mutable_grad() = grad_for(s, a.numel());
            b.mutable_grad() = grad_for(s, b.numel());
            reference.step();
            fused.step();
            QVERIFY(!b.grad().defined());  // released, so the next backward hands over its own
        }
        QVERIFY2(torch::allclose(b, a, 1e-5, 1e-7), qPrintable(QString::number((a - b).abs().max().item<double>())));
        QVERIFY(!torch::equal(a, make_param(1)));  // it did train
        const auto& ra = state_of(reference);
        const auto& rb = state_of(fused);
        QCOMPARE(rb.step(), ra.step());
        QVERIFY(torch::allclose(rb.exp_avg(), ra.exp_avg(), 1e-5, 1e-9));
        QVERIFY(torch::allclose(rb.exp_avg_sq(), ra.exp_avg_sq(), 1e-5, 1e-12));
    }

    // FusedAdam, the snapshot and restore find a parameter's state under the key
    // LibTorch's own Adam files it under (optimizer_state_key formats it
    // itself, faster). If they disagreed, a capture would silently miss the
    // moments, and FusedAdam's fallback to LibTorch's step would start afresh.
    void stateKeyIsLibTorchs() {
        std::vector<torch::Tensor> params;
        for (int i = 0; i < 5; ++i) params.push_back(make_param(static_cast<std::uint64_t>(i + 1)));
        torch::optim::Adam reference(params, torch::optim::AdamOptions(1e-3));
        for (auto& p : params) p.mutable_grad() = grad_for(1, p.numel());
        reference.step();
        QCOMPARE(reference.state().size(), params.size());
        for (const auto& p : params) QVERIFY(reference.state().count(optimizer_state_key(reference.state(), p)) == 1);
    }

    void decayedMomentsBecomeZeroNotSubnormal() {
        // One real gradient, then zeros (a weight whose input pixel is always
        // blank): exp_avg decays by 0.9 a step and leaves the normal range
        // after ~800 steps, exp_avg_sq (0.999) much later.
        torch::Tensor a = make_param(2), b = make_param(2);
        torch::optim::Adam reference({a}, torch::optim::AdamOptions(1e-3));
        FusedAdam fused({b}, torch::optim::AdamOptions(1e-3));
        const torch::Tensor g = grad_for(1, a.numel());
        const torch::Tensor zero = torch::zeros_like(g);
        for (int s = 1; s <= 900; ++s) {
            a.mutable_grad() = (s == 1 ? g : zero).clone();
            b.mutable_grad() = (s == 1 ? g : zero).clone();
            reference.step();
            fused.step();
        }
        // LibTorch's Adam keeps subnormal moments (that is the slow case); ours has none ...
        QVERIFY(subnormals(state_of(reference).exp_avg()) > 1000);
        QCOMPARE(subnormals(state_of(fused).exp_avg()), std::int64_t(0));
        QVERIFY(state_of(fused).exp_avg().eq(0).sum().item<std::int64_t>() > 1000);
        // ... and the parameters, which those moments no longer move, are the same to rounding.
        QVERIFY(torch::allclose(b, a, 1e-5, 1e-7));
    }

    void vectorPassGivesTheBitsOfScalarArithmetic() {
        // The reference: the documented update, one element at a time, in this
        // file (built without -march, so nothing here can be fused into an FMA).
        torch::Tensor p = make_param(4);
        FusedAdam opt({p}, torch::optim::AdamOptions(1e-3));
        std::vector<float> ref(p.data_ptr<float>(), p.data_ptr<float>() + p.numel());
        std::vector<float> m(ref.size(), 0.0f), v(ref.size(), 0.0f);
        const double beta1 = 0.9, beta2 = 0.999;
        for (std::int64_t s = 1; s <= 3; ++s) {
            const torch::Tensor g = grad_for(s, p.numel());
            p.mutable_grad() = g.clone();
            opt.step();
            const float* gp = g.data_ptr<float>();
            const float step_size = static_cast<float>(1e-3 / (1 - std::pow(beta1, s)));
            const float inv_sqrt_bc2 = static_cast<float>(1.0 / std::sqrt(1 - std::pow(beta2, s)));
            const float b1 = 0.9f, b2 = 0.999f, c1 = static_cast<float>(1 - beta1), c2 = static_cast<float>(1 - beta2);
            for (std::size_t i = 0; i < ref.size(); ++i) {
                volatile float mi = b1 * m[i] + c1 * gp[i];  // volatile: keep each rounding step
                volatile float vi = b2 * v[i] + c2 * (gp[i] * gp[i]);
                m[i] = mi;
                v[i] = vi;
                const float denom = std::sqrt(v[i]) * inv_sqrt_bc2 + 1e-8f;
                ref[i] = ref[i] - step_size * (m[i] / denom);
            }
        }
        const torch::Tensor expected = torch::from_blob(ref.data(), {p.numel()}, torch::kFloat32);
        const std::int64_t differing = p.detach().ne(expected).sum().item<std::int64_t>();
        QVERIFY2(
            differing == 0,
            qPrintable(
                QStringLiteral("%1 of %2 parameters differ from scalar arithmetic").arg(differing).arg(p.numel())));
    }

    void threadsDoNotChangeBits() {
        const int saved = at::get_num_threads();
        torch::Tensor results[2];
        for (int threads : {1, 2}) {
            at::set_num_threads(threads);
            torch::Tensor p = make_param(3);
            FusedAdam opt({p}, torch::optim::AdamOptions(1e-3));
            for (std::int64_t s = 1; s <= 5; ++s) {
                p.mutable_grad() = grad_for(s, p.numel());
                opt.step();
            }
            results[threads - 1] = p.detach().clone();
        }
        at::set_num_threads(saved);
        QVERIFY(torch::equal(results[0], results[1]));
    }
};

QTEST_APPLESS_MAIN(TestFusedAdam)
#include "test_fused_adam.moc"
