// Tests for the user's own model and data (engine/model/script_model.cpp,
// engine/data/tensor_file_dataset.cpp, engine/training/run_inputs.cpp): a
// TorchScript module with BatchNorm and dropout, made in C++ with define(),
// trained on a torch.save'd dictionary; the dry run's report and its refusals;
// resumes bit-identical to a run that never stopped, buffers included; and
// the SHA-256 records that refuse a changed model or data file.
#include "data/tensor_file_dataset.h"
#include "formats/checkpoint_format.h"
#include "platform/errors.h"
#include "registry/registry.h"
#include "training/run_inputs.h"
#include "training/trainer.h"

#include "script_fixtures.h"
#include "test_home.h"
#include "train_configs.h"

#include <QtTest>

#include <cstring>
#include <filesystem>
#include <map>

using namespace savepoint;

namespace {

TrainResult train(const std::string& home, const std::string& run, const TrainConfig& cfg, std::int64_t interrupt = 0) {
    TrainRequest r;
    r.home = home;
    r.run_name = run;
    r.config = cfg;
    r.interrupt_at_step = interrupt;
    return Trainer(r).run();
}

TrainResult resume(const std::string& home, const std::string& run, const std::string& model_moved = {},
                   const std::string& data_moved = {}) {
    TrainRequest r;
    r.home = home;
    r.run_name = run;
    r.resume = true;
    r.model_override = model_moved;
    r.data_override = data_moved;
    return Trainer(r).run();
}

// Every model tensor of the run's newest committed checkpoint, by name, as bytes.
std::map<std::string, QByteArray> finalModelTensors(const std::string& home, const std::string& run) {
    Registry reg(home);
    const auto row = reg.find_run(run);
    std::optional<CheckpointRow> last;
    for (const auto& c : reg.checkpoints(row->id))
        if (c.usable() && (!last || c.global_step >= last->global_step)) last = c;
    std::vector<std::uint8_t> bytes;
    CheckpointContents contents;
    const VerifyResult v = verify_checkpoint_file(reg.absolute(last->path), last->sha256, &bytes, &contents);
    if (!v.ok) qFatal("%s", v.error.c_str());
    std::map<std::string, QByteArray> out;
    for (const auto& t : contents.tensors)
        if (t.name.rfind("model/", 0) == 0)
            out[t.name] = QByteArray(reinterpret_cast<const char*>(t.data), static_cast<qsizetype>(t.nbytes));
    return out;
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

class TestScriptModel : public QObject {
    Q_OBJECT

private:
    QTemporaryDir root_;
    std::string model_, data_;
    int homes_ = 0;
    std::string path(const char* name) const { return root_.path().toStdString() + "/" + name; }
    std::string newHome() { return path("h") + std::to_string(++homes_); }

    TrainConfig config() const {
        TrainConfig c = testsupport::syntheticMlp(3, 8, 16, 4);
        c.model = model_;
        c.data = data_;
        c.keep = 100;
        c.device = "cpu";
        return c;
    }

    // InputError's text from a dry run of `cfg`; empty if it passed.
    static QString refusal(const TrainConfig& cfg) {
        try {
            dry_run(cfg);
        } catch (const InputError& e) {
            return QString::fromUtf8(e.what());
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(root_.isValid());
        model_ = path("bn_mlp.pt");
        data_ = path("quadrants.pt");
        testsupport::bnMlp(64, 16, 4).save(model_);
        testsupport::writeTensorFile(data_, testsupport::quadrantData(256, 64));
    }

    void dryRunReportsWhatItFound() {
        const DryRunReport r = dry_run(config());
        QCOMPARE(qs(r.model), QStringLiteral("BnMlp (bn_mlp.pt)"));
        QCOMPARE(r.parameters, std::int64_t(16 * 64 + 16 + 16 + 16 + 4 * 16 + 4));
        QCOMPARE(r.buffer_values, std::int64_t(16 + 16 + 1));  // running mean, var, batches tracked
        QCOMPARE(r.input_shape, (std::vector<std::int64_t>{16, 1, 8, 8}));
        QCOMPARE(r.output_shape, (std::vector<std::int64_t>{16, 4}));
        QCOMPARE(r.classes, std::int64_t(4));
        QCOMPARE(r.train_samples, std::int64_t(256));
        QCOMPARE(r.test_samples, std::int64_t(64));
    }

    // The dry run leaves the model as loaded: eval mode for its pass, no running statistics moved.
    void dryRunChangesNothingInTheModel() {
        TrainConfig cfg = config();
        RunInputs in = load_run_inputs(cfg);
        std::vector<torch::Tensor> before;
        for (const auto& b : in.model->buffers()) before.push_back(b.clone());
        check_model_on_data(*in.model, in.data, cfg);
        QVERIFY(in.model->is_training());
        std::size_t i = 0;
        for (const auto& b : in.model->buffers()) QVERIFY(torch::equal(b, before[i++]));
        QCOMPARE(QByteArray::fromStdString(cfg.model_sha256), testsupport::fileSha256(qs(model_)));
        QVERIFY(cfg.data_sha256.count("file"));
    }

    void badInputIsRefusedWithWhatWasFound_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing key") << "missing-key"
                                     << "key 'train_y': expected the keys train_x, train_y, test_x "
                                        "and test_y, found 'train_x', 'labels', 'test_x', 'test_y'";
        QTest::newRow("label out of range") << "label-9"
                                            << "train_y: expected class labels from 0 to 3 (the model "
                                               "returns 4 logits), found label 9";
        QTest::newRow("NaN input") << "nan-input"
                                   << "train_x: expected finite inputs, found NaN or infinite values "
                                      "in 1 sample(s), the first at index 5";
        QTest::newRow("sample counts") << "counts"
                                       << "train_y: expected 256 samples (as in train_x), found [255] int64";
        QTest::newRow("state dict as model") << "state-dict"
                                             << "expected a TorchScript module, found a file saved "
                                                "with torch.save";
        QTest::newRow("no parameters") << "no-params"
                                       << "expected a model with parameters to train, found none";
        QTest::newRow("forward fails") << "wrong-width"
                                       << "forward(x) failed on a batch of shape [16, 1, 8, 8]";
        QTest::newRow("not a file") << "no-file"
                                    << "no such file";
        QTest::newRow("float targets for ce") << "float-targets"
                                              << "expected integer class labels of shape [N] for "
                                                 "loss 'ce', found [256] float32 (float targets: "
                                                 "loss 'mse')";
    }
    void badInputIsRefusedWithWhatWasFound() {
        QFETCH(QString, what);
        QFETCH(QString, expected);
        TrainConfig cfg = config();
        auto items = testsupport::quadrantData(256, 64);
        const std::string file = path("bad-") + what.toStdString() + ".pt";
        if (what == "missing-key") {
            items[1].first = "labels";
        } else if (what == "label-9") {
            items[1].second[7] = 9;
        } else if (what == "nan-input") {
            items[0].second = items[0].second.to(torch::kFloat32);
            items[0].second[5][0][1][2] = NAN;
            items[2].second = items[2].second.to(torch::kFloat32);
        } else if (what == "counts") {
            items[1].second = items[1].second.narrow(0, 0, 255);
        } else if (what == "float-targets") {
            items[1].second = items[1].second.to(torch::kFloat32);
        }
        if (what == "state-dict") {
            testsupport::writeTensorFile(file, {{"w1", torch::zeros({2, 2})}});
            cfg.model = file;
        } else if (what == "no-params") {
            torch::jit::Module m = testsupport::scriptModule("Empty");
            m.define("def forward(self, x):\n    return x.flatten(1)\n");
            m.save(file);
            cfg.model = file;
        } else if (what == "wrong-width") {
            testsupport::bnMlp(49, 16, 4).save(file);
            cfg.model = file;
        } else if (what == "no-file") {
            cfg.data = file;
        } else {
            testsupport::writeTensorFile(file, items);
            cfg.data = file;
        }
        const QString why = refusal(cfg);
        QVERIFY2(why.contains(expected), qPrintable(why));
        QVERIFY2(why.contains(qs(file)) || why.contains(qs(std::filesystem::path(file).filename().string())),
                 qPrintable("the message names the file: " + why));
    }

    // Through the CLI: exit 2, the reason, and no home created.
    void cliRefusesBeforeCreatingAnything() {
        const QString home = qs(newHome());
        const auto r = testsupport::runCli({"train", "--home", home, "--run", "x", "--model", qs(model_), "--data",
                                            "synthetic", "--steps-per-epoch", "2", "--epochs", "1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("forward(x) failed on a batch of shape [32, 1, 28, 28]"), r.describe());
        QVERIFY2(r.err.contains("mat1 and mat2 shapes cannot be multiplied"), r.describe());
        QVERIFY(!QFileInfo::exists(home));
        const auto dry = testsupport::runCli({"train", "--home", home, "--run", "x", "--model", qs(model_), "--data",
                                              qs(data_), "--batch", "16", "--dry-run"});
        QCOMPARE(dry.exitCode, 0);
        QVERIFY2(dry.out.contains("model:  BnMlp (bn_mlp.pt), 1140 parameters, 33 buffer values"), dry.describe());
        QVERIFY2(dry.out.contains("output: [16, 4] (4 classes; every label fits)"), dry.describe());
        QVERIFY(!QFileInfo::exists(home));
    }

    // BatchNorm's statistics and dropout's generator are part of what a resume
    // must bring back: an interrupted run ends with every model tensor equal.
    void resumeIsBitIdenticalWithBatchNormAndDropout() {
        const std::string ref = newHome();
        const TrainResult full = train(ref, "r", config());
        QCOMPARE(full.outcome, Outcome::Finished);
        const std::string home = newHome();
        QCOMPARE(train(home, "r", config(), 10).outcome, Outcome::Crashed);
        const TrainResult resumed = resume(home, "r");
        QCOMPARE(resumed.outcome, Outcome::Finished);
        QCOMPARE(qs(resumed.params_sha256), qs(full.params_sha256));
        const auto a = finalModelTensors(ref, "r"), b = finalModelTensors(home, "r");
        QVERIFY(a.count("model/buffer/bn.running_mean") && a.count("model/buffer/bn.num_batches_tracked"));
        QVERIFY(a == b);
        // Every training step moved the statistics: 24 steps, none lost or repeated by the resume.
        std::int64_t tracked = 0;
        std::memcpy(&tracked, b.at("model/buffer/bn.num_batches_tracked").constData(), sizeof tracked);
        QCOMPARE(tracked, std::int64_t(24));
        QVERIFY(a.at("model/buffer/bn.running_mean") != QByteArray(16 * 4, '\0'));
    }

    void changedOrMovedFilesAreCheckedBySha256() {
        const std::string home = newHome();
        QCOMPARE(train(home, "r", config(), 6).outcome, Outcome::Crashed);
        // The model file changed in place: refused, naming it and both hashes.
        const QByteArray original = testsupport::readAll(qs(model_));
        testsupport::bnMlp(64, 16, 4, "OtherNet").save(model_);
        try {
            resume(home, "r");
            QFAIL("a changed model file was accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains(qs(model_) + ": SHA-256: expected "), e.what());
        }
        QVERIFY(testsupport::writeAll(qs(model_), original));
        // Both files moved: followed with --model and --data, checked, and the run finishes as the reference.
        const std::string model2 = path("moved-model.pt"), data2 = path("moved-data.pt");
        QVERIFY(QFile::copy(qs(model_), qs(model2)) && QFile::copy(qs(data_), qs(data2)));
        const TrainResult r = resume(home, "r", model2, data2);
        QCOMPARE(r.outcome, Outcome::Finished);
        QCOMPARE(qs(r.params_sha256), qs(train(newHome(), "r", config()).params_sha256));
        // A data file that is not the run's: refused.
        const std::string other = path("other-data.pt");
        testsupport::writeTensorFile(other, testsupport::quadrantData(300, 64));
        QCOMPARE(train(home, "r2", config(), 6).outcome, Outcome::Crashed);
        try {
            resume(home, "r2", {}, other);
            QFAIL("another data file was accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("other-data.pt"), e.what());
        }
    }

    // --loss mse: float targets, a prediction of their shape, a loss that falls.
    void mseTrainsOnFloatTargets() {
        torch::manual_seed(5);
        const torch::Tensor x = torch::randn({256, 6}), xt = torch::randn({64, 6});
        const torch::Tensor w = torch::randn({6, 2});
        const std::string data = path("regression.pt"), model = path("regressor.pt");
        testsupport::writeTensorFile(
            data, {{"train_x", x}, {"train_y", x.matmul(w)}, {"test_x", xt}, {"test_y", xt.matmul(w)}});
        testsupport::bnMlp(6, 16, 2, "Regressor").save(model);
        TrainConfig cfg = config();
        cfg.model = model;
        cfg.data = data;
        cfg.loss = "mse";
        cfg.epochs = 4;
        cfg.steps_per_epoch = 16;
        cfg.lr = 1e-2;
        const DryRunReport dry = dry_run(cfg);
        QCOMPARE(dry.classes, std::int64_t(0));
        const std::string home = newHome();
        QCOMPARE(train(home, "m", cfg).outcome, Outcome::Finished);
        Registry reg(home);
        const auto metrics = reg.metrics(reg.find_run("m")->id);
        QVERIFY(!metrics.empty());
        QVERIFY2(metrics.back().loss < 0.5 * metrics.front().loss,
                 qPrintable(QString("%1 -> %2").arg(metrics.front().loss).arg(metrics.back().loss)));
        cfg.loss = "ce";
        QVERIFY(refusal(cfg).contains("expected integer class labels"));
    }
};

QTEST_GUILESS_MAIN(TestScriptModel)
#include "test_script_model.moc"
