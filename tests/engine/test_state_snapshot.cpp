// Tests for the state snapshot (engine/checkpoint/state_snapshot.cpp): what a checkpoint
// holds is everything needed to continue exactly — parameters, Adam's moments
// and step count, the CPU RNG — so that capture -> file -> restore and one
// more step gives the same bits as that step taken without the round trip.
// A checkpoint of another model is refused, naming the tensor. A copy-free
// capture (FusedAdam frozen, the snapshot keeping the live tensors) saves the
// same bytes as a copying one while training goes on past it.
#include "checkpoint/state_snapshot.h"
#include "data/data_order.h"
#include "data/dataset.h"
#include "formats/checkpoint_format.h"
#include "model/fused_adam.h"
#include "model/models.h"
#include "platform/errors.h"
#include "training/training_step.h"

#include <QtTest>

#include <map>
#include <thread>

#include <torch/torch.h>

using namespace savepoint;

namespace {

struct Bytes {
    std::vector<std::uint8_t> file;
    CheckpointContents contents;
};

// Through the real file format, as a resume reads it.
std::unique_ptr<Bytes> toFile(const StateSnapshot& s) {
    auto b = std::make_unique<Bytes>();
    write_checkpoint("{}", s.raw_tensors(), [&](const void* p, std::size_t n) {
        b->file.insert(b->file.end(), static_cast<const std::uint8_t*>(p), static_cast<const std::uint8_t*>(p) + n);
    });
    VerifyResult v = verify_checkpoint_bytes(b->file, "snap", &b->contents);
    if (!v.ok) qFatal("%s", v.error.c_str());
    return b;
}

void step(ClassifierImpl& m, torch::optim::Optimizer& opt, const torch::Tensor& x, const torch::Tensor& y) {
    m.train();
    opt.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(m.forward(x), y);  // dropout draws from the CPU RNG
    loss.backward();
    opt.step();
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

// A fresh mlp with FusedAdam and a snapshot reserved for it before any step.
struct Reserved {
    std::shared_ptr<ClassifierImpl> model;
    std::unique_ptr<FusedAdam> opt;
    StateSnapshot snap;
    Reserved(std::uint64_t seed, bool copyFree) {
        torch::manual_seed(seed);
        model = make_model("mlp");
        opt = std::make_unique<FusedAdam>(model->parameters(), torch::optim::AdamOptions(1e-3));
        snap.set_copy_free(copyFree);
        snap.reserve(*model, *opt);
    }
};

// Two identical runs of an mlp with FusedAdam, stepped together with the same
// dropout masks, so that two ways of capturing can be compared byte for byte.
struct Twins {
    std::shared_ptr<ClassifierImpl> a, b;
    std::unique_ptr<FusedAdam> oa, ob;
    explicit Twins(std::uint64_t seed) {
        for (auto* m : {&a, &b}) {
            torch::manual_seed(seed);
            *m = make_model("mlp");
        }
        oa = std::make_unique<FusedAdam>(a->parameters(), torch::optim::AdamOptions(1e-3));
        ob = std::make_unique<FusedAdam>(b->parameters(), torch::optim::AdamOptions(1e-3));
    }
    void both(int n, const torch::Tensor& x, const torch::Tensor& y, std::uint64_t mask_seed) {
        for (int i = 0; i < n; ++i) {
            torch::manual_seed(mask_seed + i);
            step(*a, *oa, x, y);
            torch::manual_seed(mask_seed + i);
            step(*b, *ob, x, y);
        }
    }
};

}  // namespace

class TestStateSnapshot : public QObject {
    Q_OBJECT

private:
    torch::Tensor x_, y_;

private Q_SLOTS:
    void initTestCase() {
        torch::manual_seed(123);
        x_ = torch::rand({16, 1, 28, 28});
        y_ = torch::randint(0, 10, {16}, torch::kInt64);
    }

    void roundTripContinuesBitExactly_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("optimizer");
        QTest::newRow("mlp adam") << "mlp"
                                  << "adam";
        QTest::newRow("dnn adam") << "dnn"
                                  << "adam";
        QTest::newRow("cnn adam") << "cnn"
                                  << "adam";
        QTest::newRow("mlp sgd") << "mlp"
                                 << "sgd";
    }
    void roundTripContinuesBitExactly() {
        QFETCH(QString, model);
        QFETCH(QString, optimizer);
        torch::manual_seed(7);
        auto m = make_model(model.toStdString());
        std::unique_ptr<torch::optim::Optimizer> opt;
        if (optimizer == "adam")
            opt = std::make_unique<torch::optim::Adam>(m->parameters(), torch::optim::AdamOptions(1e-3));
        else
            opt = std::make_unique<torch::optim::SGD>(m->parameters(), torch::optim::SGDOptions(0.1));
        for (int i = 0; i < 3; ++i) step(*m, *opt, x_, y_);

        StateSnapshot snap;
        snap.capture(*m, *opt);
        QCOMPARE(qs(snap.params_sha256()), qs(params_sha256(*m)));
        auto file = toFile(snap);
        // The uninterrupted continuation: two more steps.
        for (int i = 0; i < 2; ++i) step(*m, *opt, x_, y_);
        const std::string expected = params_sha256(*m);
        const auto expectedRand = torch::rand({4});
        QVERIFY(expected != snap.params_sha256());

        // Perturb everything, then restore from the file and take the same two steps.
        for (int i = 0; i < 4; ++i) step(*m, *opt, x_ * 0.5, y_);
        torch::manual_seed(999);
        restore_state(file->contents, *m, *opt, "snap");
        QCOMPARE(qs(params_sha256(*m)), qs(snap.params_sha256()));
        for (int i = 0; i < 2; ++i) step(*m, *opt, x_, y_);
        QCOMPARE(qs(params_sha256(*m)), qs(expected));
        QVERIFY(torch::equal(torch::rand({4}), expectedRand));  // the RNG stream continues too
    }

    void freshModelRestoredFromFileMatches() {
        // A new process: a freshly built model and optimizer, restored from the file.
        torch::manual_seed(7);
        auto a = make_model("mlp");
        torch::optim::Adam oa(a->parameters(), torch::optim::AdamOptions(1e-3));
        for (int i = 0; i < 2; ++i) step(*a, oa, x_, y_);
        StateSnapshot snap;
        snap.capture(*a, oa);
        auto file = toFile(snap);
        step(*a, oa, x_, y_);

        torch::manual_seed(1);  // different initial weights
        auto b = make_model("mlp");
        torch::optim::Adam ob(b->parameters(), torch::optim::AdamOptions(1e-3));
        QVERIFY(params_sha256(*b) != snap.params_sha256());
        restore_state(file->contents, *b, ob, "snap");
        step(*b, ob, x_, y_);
        QCOMPARE(qs(params_sha256(*b)), qs(params_sha256(*a)));
    }

    void snapshotBeforeTheFirstStep() {
        torch::manual_seed(3);
        auto a = make_model("dnn");
        torch::optim::Adam oa(a->parameters(), torch::optim::AdamOptions(1e-3));
        StateSnapshot snap;
        snap.capture(*a, oa);  // no optimizer state yet
        for (const auto& t : snap.raw_tensors()) QVERIFY2(t.name.rfind("optim/", 0) != 0, t.name.c_str());
        auto file = toFile(snap);
        step(*a, oa, x_, y_);
        const std::string expected = params_sha256(*a);
        restore_state(file->contents, *a, oa, "snap");  // clears Adam's state again
        step(*a, oa, x_, y_);
        QCOMPARE(qs(params_sha256(*a)), qs(expected));
    }

    // reserve() before training lays out every buffer the first capture after a
    // step needs (Adam's moments included), so that capture allocates nothing,
    // and it changes nothing that capture then saves.
    void reservedBuffersAreTheOnesTheFirstCaptureFills() {
        Reserved r(11, false);
        auto& m = r.model;
        FusedAdam& opt = *r.opt;
        StateSnapshot& reserved = r.snap;
        QVERIFY(opt.state().empty());  // nothing created in the optimizer
        std::map<std::string, const std::uint8_t*> where;
        for (const auto& t : reserved.raw_tensors()) where[t.name] = t.data;
        QVERIFY2(where.count("optim/0/exp_avg_sq") && where.count("optim/3/step"), "no slots for Adam's moments");

        step(*m, opt, x_, y_);
        step(*m, opt, x_, y_);
        reserved.capture(*m, opt);
        StateSnapshot fresh;
        fresh.set_copy_free(false);
        fresh.capture(*m, opt);
        const auto got = reserved.raw_tensors();
        QCOMPARE(got.size(), where.size());
        for (const auto& t : got) {
            QVERIFY2(where.count(t.name), t.name.c_str());
            QVERIFY2(where[t.name] == t.data, (t.name + " was allocated again").c_str());
        }
        QVERIFY(toFile(reserved)->file == toFile(fresh)->file);
        QCOMPARE(qs(reserved.params_sha256()), qs(params_sha256(*m)));
    }

    // Copy-free, reserve() has the optimizer make its spares up front, and the
    // first frozen step writes into exactly those.
    void reservedSparesAreTheOnesTheFirstFrozenStepUses() {
        Reserved r(12, true);
        auto& m = r.model;
        FusedAdam& opt = *r.opt;
        StateSnapshot& snap = r.snap;
        std::vector<const void*> spares;
        for (const auto& p : m->parameters()) {
            spares.push_back(opt.spare_param_data(p));
            QVERIFY(spares.back() != nullptr);
            QVERIFY(spares.back() != p.data_ptr());
        }
        step(*m, opt, x_, y_);
        snap.capture(*m, opt);
        QVERIFY(snap.last_capture_was_copy_free());
        step(*m, opt, x_, y_);  // frozen: writes into the spares and swaps them in
        std::size_t i = 0;
        for (const auto& p : m->parameters())
            QVERIFY2(p.data_ptr() == spares[i++], "the first frozen step allocated a new spare");
    }

    void tensorNamesAndSizes() {
        torch::manual_seed(5);
        auto m = make_model("mlp");
        torch::optim::Adam opt(m->parameters(), torch::optim::AdamOptions(1e-3));
        step(*m, opt, x_, y_);
        StateSnapshot snap;
        snap.capture(*m, opt);
        std::set<std::string> names;
        std::uint64_t total = 0;
        for (const auto& t : snap.raw_tensors()) {
            names.insert(t.name);
            total += t.nbytes;
        }
        for (const char* n : {"model/fc1.weight", "model/fc1.bias", "model/fc2.weight", "model/fc2.bias",
                              "optim/0/step", "optim/0/exp_avg", "optim/0/exp_avg_sq", "optim/3/exp_avg", "rng/cpu"})
            QVERIFY2(names.count(n), n);
        QCOMPARE(snap.bytes(), total);
        // 407,050 parameters, three copies (weights, exp_avg, exp_avg_sq), float32.
        QVERIFY(total >= 407050ull * 4 * 3);
        // Recapturing reuses the buffers but sees the new values.
        const std::string before = snap.params_sha256();
        step(*m, opt, x_, y_);
        snap.capture(*m, opt);
        QVERIFY(snap.params_sha256() != before);
        QCOMPARE(qs(snap.params_sha256()), qs(params_sha256(*m)));
    }

    // The snapshot remembers the model's parameter list from one capture to
    // the next (StateSnapshot::layout_of). Given another model, or a new model
    // made where a destroyed one was, it must capture that model's parameters,
    // not those of the one it remembers.
    void snapshotFollowsTheModelItIsGiven() {
        StateSnapshot snap;
        snap.set_copy_free(false);
        auto captured_is = [&](ClassifierImpl& m) { return snap.params_sha256() == params_sha256(m); };
        torch::manual_seed(21);
        auto a = make_model("mlp");
        torch::optim::Adam oa(a->parameters(), torch::optim::AdamOptions(1e-3));
        torch::manual_seed(22);
        auto b = make_model("mlp");
        torch::optim::Adam ob(b->parameters(), torch::optim::AdamOptions(1e-3));
        QVERIFY(params_sha256(*a) != params_sha256(*b));
        for (ClassifierImpl* m : {a.get(), b.get(), a.get()}) {
            snap.capture(*m, m == a.get() ? static_cast<torch::optim::Optimizer&>(oa) : ob);
            QVERIFY(captured_is(*m));
        }
        // A and its optimizer go; a model of the same type is made, which the
        // allocator is free to place where A was.
        const void* where_a_was = a.get();
        a.reset();
        torch::manual_seed(23);
        auto c = make_model("mlp");
        torch::optim::Adam oc(c->parameters(), torch::optim::AdamOptions(1e-3));
        snap.capture(*c, oc);
        QVERIFY2(captured_is(*c), c.get() == where_a_was
                                      ? "a model made where the last one was: its old parameters were captured"
                                      : "another model's parameters were captured");
        // Models no shared_ptr owns: nothing to remember them by, walked every time.
        torch::manual_seed(24);
        MlpImpl d;
        torch::optim::Adam od(d.parameters(), torch::optim::AdamOptions(1e-3));
        torch::manual_seed(25);
        MlpImpl e;
        torch::optim::Adam oe(e.parameters(), torch::optim::AdamOptions(1e-3));
        snap.capture(d, od);
        QVERIFY(captured_is(d));
        snap.capture(e, oe);
        QVERIFY(captured_is(e));
    }

    void copyFreeCaptureIsUntouchedByLaterSteps() {
        // Two identical runs; A copies its snapshots, B keeps the live tensors.
        Twins t(11);
        auto& [a, b, oa, ob] = t;
        StateSnapshot sa, sb;
        sa.set_copy_free(false);
        auto both = [&](int n, const torch::Tensor& x) { t.both(n, x, y_, 100); };
        both(3, x_);
        // Several rounds, so the spare buffers go back and forth; round 1
        // captures twice without a step between (a retried save).
        for (int round = 0; round < 3; ++round) {
            sa.capture(*a, *oa);
            sb.capture(*b, *ob);
            if (round == 1) sb.capture(*b, *ob);
            QVERIFY(!sa.last_capture_was_copy_free());
            QVERIFY(sb.last_capture_was_copy_free());
            QVERIFY(ob->frozen());
            const auto expected = toFile(sa)->file;
            // Training goes on while the I/O thread would be writing sb.
            both(2 + round, x_ * (1.0 + round));
            QVERIFY(!ob->frozen());
            QVERIFY(params_sha256(*b) != sb.params_sha256());
            QCOMPARE(toFile(sb)->file, expected);
            // Out-of-place steps give the same bits as in-place ones.
            QCOMPARE(qs(params_sha256(*b)), qs(params_sha256(*a)));
        }

        // A step that cannot take the fused path (weight decay on) thaws by
        // copying before it updates in place: the snapshot still holds.
        sa.capture(*a, *oa);
        sb.capture(*b, *ob);
        const auto expected = toFile(sa)->file;
        for (auto* o :
             {static_cast<torch::optim::Optimizer*>(oa.get()), static_cast<torch::optim::Optimizer*>(ob.get())})
            static_cast<torch::optim::AdamOptions&>(o->param_groups()[0].options()).weight_decay(0.01);
        QVERIFY(!ob->can_freeze());
        both(2, x_);
        QVERIFY(!ob->frozen());
        QCOMPARE(toFile(sb)->file, expected);
        QCOMPARE(qs(params_sha256(*b)), qs(params_sha256(*a)));
        // And with the fused path unavailable the capture copies.
        sb.capture(*b, *ob);
        QVERIFY(!sb.last_capture_was_copy_free());
        QVERIFY(!ob->frozen());

        // Fused again: the live tensors are now the thaw's copies, storages the
        // snapshot has not kept before; copy-free captures of them hold as well.
        for (auto* o :
             {static_cast<torch::optim::Optimizer*>(oa.get()), static_cast<torch::optim::Optimizer*>(ob.get())})
            static_cast<torch::optim::AdamOptions&>(o->param_groups()[0].options()).weight_decay(0.0);
        for (int round = 0; round < 3; ++round) {
            both(1, x_);
            sa.capture(*a, *oa);
            sb.capture(*b, *ob);
            QVERIFY(sb.last_capture_was_copy_free());
            const auto again = toFile(sa)->file;
            both(1, x_ * 0.5);
            QCOMPARE(toFile(sb)->file, again);
        }
    }

    void checkpointOfAnotherModelIsRefused() {
        torch::manual_seed(5);
        auto mlp = make_model("mlp");
        torch::optim::Adam o1(mlp->parameters(), torch::optim::AdamOptions(1e-3));
        StateSnapshot snap;
        snap.capture(*mlp, o1);
        auto file = toFile(snap);
        auto dnn = make_model("dnn");
        torch::optim::Adam o2(dnn->parameters(), torch::optim::AdamOptions(1e-3));
        const std::string before = params_sha256(*dnn);
        try {
            restore_state(file->contents, *dnn, o2, "/x/ckpt-00000001.svpt");
            QFAIL("restored an mlp checkpoint into a dnn");
        } catch (const CorruptCheckpoint& e) {
            const QString m = QString::fromStdString(e.what());
            QVERIFY2(
                m.startsWith(QLatin1String(
                    "/x/ckpt-00000001.svpt: tensor 'model/fc1.weight': expected shape [256, 784], found [512, 784]")),
                qPrintable(m));
        }
        Q_UNUSED(before);
        // A tensor missing altogether.
        CheckpointContents partial = file->contents;
        partial.tensors.erase(std::remove_if(partial.tensors.begin(), partial.tensors.end(),
                                             [](const RawTensor& t) { return t.name == "rng/cpu"; }),
                              partial.tensors.end());
        try {
            restore_state(partial, *mlp, o1, "p.svpt");
            QFAIL("restored without the RNG state");
        } catch (const CorruptCheckpoint& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QStringLiteral("p.svpt: tensor 'rng/cpu' is missing (checkpoint of another model?)"));
        }
    }
};

QTEST_APPLESS_MAIN(TestStateSnapshot)
#include "test_state_snapshot.moc"
