// LinearStackStep (engine/model/linear_stack_step.cpp), the written-out forward and
// backward of the mlp and dnn on the CPU, checked against autograd running the
// models' own forward(): the same loss, accuracy and gradients to float
// rounding, the same dropout masks (the same generator draws), gradients
// overwritten rather than accumulated, NaN not hidden, and the same training
// trajectory over many Adam steps.
#include "model/fused_adam.h"
#include "model/linear_stack_step.h"
#include "model/models.h"

#include <torch/torch.h>

#include <QtTest>

#include <cmath>
#include <map>

using namespace savepoint;

namespace {

struct Batch {
    torch::Tensor x;  // float [B, 1, 28, 28] in [0, 1]
    torch::Tensor y;  // int64 [B]
};

Batch make_batch(std::int64_t batch, std::uint64_t seed) {
    torch::manual_seed(seed);
    return {torch::rand({batch, 1, 28, 28}), torch::randint(0, 10, {batch}, torch::kInt64)};
}

// Two identical models: `a` trains through autograd, `b` through LinearStackStep.
std::pair<std::shared_ptr<ClassifierImpl>, std::shared_ptr<ClassifierImpl>> twin_models(const std::string& name) {
    torch::manual_seed(1);
    auto a = make_model(name);
    torch::manual_seed(1);
    auto b = make_model(name);
    a->train();
    b->train();
    return {a, b};
}

struct AutogradResult {
    double loss = 0;
    std::int64_t correct = 0;
};

AutogradResult autograd_step(ClassifierImpl& m, const Batch& batch) {
    for (auto& p : m.parameters()) p.mutable_grad() = torch::Tensor();
    torch::Tensor logits = m.forward(batch.x);
    torch::Tensor loss = torch::nn::functional::cross_entropy(logits, batch.y);
    loss.backward();
    return {loss.item<double>(), logits.argmax(1).eq(batch.y).sum().item<std::int64_t>()};
}

QString worst(const torch::Tensor& a, const torch::Tensor& b) {
    return QString::number((a - b).abs().max().item<double>(), 'g', 3);
}

}  // namespace

class TestLinearStackStep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesAutogradForOneStep_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("batch");
        QTest::newRow("mlp b32") << "mlp" << 32;
        QTest::newRow("mlp b7") << "mlp" << 7;
        QTest::newRow("dnn b32") << "dnn" << 32;
        QTest::newRow("dnn b128") << "dnn" << 128;
    }
    void matchesAutogradForOneStep() {
        QFETCH(QString, model);
        QFETCH(int, batch);
        auto [a, b] = twin_models(model.toStdString());
        const Batch data = make_batch(batch, 5);
        auto step = LinearStackStep::for_model(*b);
        QVERIFY(step);

        auto gen = at::detail::getDefaultCPUGenerator();
        torch::manual_seed(99);
        const AutogradResult ra = autograd_step(*a, data);
        const torch::Tensor after_autograd = gen.get_state();
        torch::manual_seed(99);
        const StackStepResult rb = step->forward_backward(data.x, data.y);
        // The same number of draws: the generator (which a checkpoint saves) ends in the same state.
        QVERIFY(torch::equal(gen.get_state(), after_autograd));

        QVERIFY2(std::abs(ra.loss - rb.loss) <= 1e-5 * std::abs(ra.loss),
                 qPrintable(QStringLiteral("loss %1 vs %2").arg(ra.loss, 0, 'g', 9).arg(rb.loss, 0, 'g', 9)));
        QCOMPARE(rb.correct, ra.correct);
        const auto pa = a->named_parameters(), pb = b->named_parameters();
        for (const auto& item : pa) {
            const torch::Tensor ga = item.value().grad(), gb = pb[item.key()].grad();
            QVERIFY2(gb.defined(), qPrintable(QString::fromStdString(item.key())));
            QVERIFY2(gb.abs().max().item<float>() > 0, qPrintable(QString::fromStdString(item.key())));
            QVERIFY2(torch::allclose(gb, ga, 1e-4, 1e-7),
                     qPrintable(QString::fromStdString(item.key()) + " differs by " + worst(ga, gb)));
        }
    }

    void gradientsAreOverwrittenNotAccumulated() {
        auto [a, b] = twin_models("mlp");
        const Batch data = make_batch(32, 6);
        auto step = LinearStackStep::for_model(*b);
        torch::manual_seed(3);
        step->forward_backward(data.x, data.y);
        const torch::Tensor first = b->named_parameters()["fc1.weight"].grad().clone();
        const Batch other = make_batch(32, 7);
        step->forward_backward(other.x, other.y);  // a different gradient in between
        QVERIFY(!torch::equal(b->named_parameters()["fc1.weight"].grad(), first));
        torch::manual_seed(3);
        step->forward_backward(data.x, data.y);
        QVERIFY(torch::equal(b->named_parameters()["fc1.weight"].grad(), first));  // the same bits, not a sum
    }

    void sameInputsSameBits() {
        auto [a, b] = twin_models("dnn");
        const Batch data = make_batch(32, 8);
        auto sa = LinearStackStep::for_model(*a), sb = LinearStackStep::for_model(*b);
        torch::manual_seed(4);
        const double la = sa->forward_backward(data.x, data.y).loss;
        torch::manual_seed(4);
        const double lb = sb->forward_backward(data.x, data.y).loss;
        QCOMPARE(la, lb);
        for (const auto& item : a->named_parameters())
            QVERIFY(torch::equal(item.value().grad(), b->named_parameters()[item.key()].grad()));
    }

    void trainsLikeAutogradOverManySteps() {
        auto [a, b] = twin_models("mlp");
        FusedAdam oa(a->parameters(), torch::optim::AdamOptions(1e-3));
        FusedAdam ob(b->parameters(), torch::optim::AdamOptions(1e-3));
        auto step = LinearStackStep::for_model(*b);
        std::map<std::string, torch::Tensor> initial;
        for (const auto& item : a->named_parameters()) initial[item.key()] = item.value().detach().clone();
        double la = 0, lb = 0;
        for (int i = 0; i < 40; ++i) {
            const Batch data = make_batch(32, 100 + i);
            torch::manual_seed(1000 + i);
            la = autograd_step(*a, data).loss;
            oa.step();
            torch::manual_seed(1000 + i);
            lb = step->forward_backward(data.x, data.y).loss;
            ob.step();
        }
        QVERIFY2(std::abs(la - lb) < 1e-3 * std::abs(la), qPrintable(QStringLiteral("%1 vs %2").arg(la).arg(lb)));
        // Adam moves a weight by about lr a step whatever its gradient's size, so a
        // gradient near zero whose rounding differs can move it differently: the
        // two paths must agree to 1% of how far training moved the parameters.
        for (const auto& item : a->named_parameters()) {
            const torch::Tensor pa = item.value(), pb = b->named_parameters()[item.key()];
            const double moved = (pa - initial[item.key()]).abs().max().item<double>();
            const double apart = (pa - pb).abs().max().item<double>();
            QVERIFY2(moved > 1e-3 && apart <= 0.01 * moved, qPrintable(QStringLiteral("%1: moved %2, paths apart by %3")
                                                                           .arg(QString::fromStdString(item.key()))
                                                                           .arg(moved)
                                                                           .arg(apart)));
        }
    }

    void nanIsNotHidden() {
        auto [a, b] = twin_models("mlp");
        {
            torch::NoGradGuard g;
            b->named_parameters()["fc1.weight"][0].fill_(std::nanf(""));
        }
        auto step = LinearStackStep::for_model(*b);
        const Batch data = make_batch(32, 9);
        QVERIFY(std::isnan(step->forward_backward(data.x, data.y).loss));
    }

    void refusesWhatItDoesNotCover() {
        QVERIFY(!LinearStackStep::for_model(*make_model("cnn")));
        auto m = make_model("mlp");
        m->to(torch::kFloat64);
        QVERIFY(!LinearStackStep::for_model(*m));
        auto d = std::dynamic_pointer_cast<MlpImpl>(make_model("mlp"));
        d->drop->options.p(1.0);
        QVERIFY(!LinearStackStep::for_model(*d));
    }

    void rejectsAWrongShapedBatch() {
        auto m = make_model("mlp");
        auto step = LinearStackStep::for_model(*m);
        bool threw = false;
        try {
            step->forward_backward(torch::rand({4, 100}), torch::zeros({4}, torch::kInt64));
        } catch (const c10::Error&) {
            threw = true;
        }
        QVERIFY(threw);
        threw = false;
        try {
            step->forward_backward(torch::rand({2, 784}), torch::tensor({0, 10}, torch::kInt64));
        } catch (const c10::Error& e) {
            threw = QString::fromStdString(e.what()).contains("label 10");
        }
        QVERIFY(threw);
    }
};

QTEST_APPLESS_MAIN(TestLinearStackStep)
#include "test_linear_stack_step.moc"
