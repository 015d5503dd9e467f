// savepoint-cli export (checkpoint/checkpoint_export.h): real short runs of
// each built-in model through the real CLI, exported, and read back with
// torch::pickle_load, the C++ side of what Python's torch.load reads: every
// tensor must equal the checkpoint's, under the model's state_dict names. Then
// the refusals: each names what was wrong and writes nothing.
//
// With SAVEPOINT_EXPORT_FIXTURE_DIR set (CTest sets it), the exported files and
// the logits the C++ model computes from them on a fixed input are left there
// for tests/python/test_export_loads.py, which loads them into the torch.nn
// definitions of docs/YOUR-MODEL.md (Export to PyTorch).
#include "checkpoint/state_snapshot.h"
#include "formats/checkpoint_format.h"
#include "model/models.h"

#include "script_fixtures.h"
#include "test_home.h"

#include <QtTest>

#include <torch/serialize.h>

#include <fstream>
#include <map>

using namespace testsupport;

namespace {

const QStringList kModels{QStringLiteral("mlp"), QStringLiteral("dnn"), QStringLiteral("cnn")};

QStringList exportArgs(const QString& home, const QString& run, qint64 id, const QString& out) {
    return {QStringLiteral("export"),
            QStringLiteral("--home"),
            home,
            QStringLiteral("--run"),
            run,
            QStringLiteral("--checkpoint"),
            QString::number(id),
            QStringLiteral("--out"),
            out};
}

// The checkpoint's model tensors by their PyTorch state_dict names: parameters
// are saved as "model/<name>", buffers as "model/buffer/<name>".
std::map<std::string, torch::Tensor> checkpointModelTensors(const QString& path) {
    std::vector<std::uint8_t> bytes;
    savepoint::CheckpointContents contents;
    const auto v = savepoint::verify_checkpoint_file(path.toStdString(), {}, &bytes, &contents);
    if (!v.ok) throw std::runtime_error(v.error);
    std::map<std::string, torch::Tensor> out;
    for (const auto& raw : contents.tensors) {
        if (raw.name.rfind("model/", 0) != 0) continue;
        std::string name = raw.name.substr(6);
        if (name.rfind("buffer/", 0) == 0) name.erase(0, 7);
        out[name] = savepoint::to_tensor(raw);
    }
    return out;
}

QString checkpointPath(const QString& home, const QString& run, qint64 id) {
    for (const auto& v : checkpointsJson(home, run))
        if (v.toObject().value(QStringLiteral("id")).toInteger() == id)
            return v.toObject().value(QStringLiteral("path")).toString();
    return {};
}

std::vector<char> readBytes(const QString& path) {
    const QByteArray b = readAll(path);
    return std::vector<char>(b.begin(), b.end());
}

// A fixed input: four images of a ramp, as the engine feeds pixels (/255); no
// pixel is 0, so every first-layer weight counts.
torch::Tensor fixedInput() {
    const auto ramp = (torch::arange(4 * 784, torch::kInt64) * 7).remainder(255) + 1;
    return (ramp.to(torch::kFloat32) / 255.0f).reshape({4, 1, 28, 28});
}

}  // namespace

class TestExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void stateDictHoldsTheCheckpointsTensors_data();
    void stateDictHoldsTheCheckpointsTensors();
    void refusals_data();
    void refusals();
    void damagedCheckpointIsRefused();
    void torchScriptModuleHoldsTheCheckpointsWeights();
    void torchScriptFileChangedOrGoneIsRefused();

private:
    void leaveForPython(const QString& model, const QString& exported,
                        const std::map<std::string, torch::Tensor>& weights);
    void leaveScriptForPython(const QString& exported, const std::map<std::string, torch::Tensor>& weights);
    QTemporaryDir tmp_;
    QString home_;
    std::map<QString, qint64> last_;   // model -> the run's newest committed checkpoint
    std::map<QString, qint64> first_;  // model -> its oldest
};

void TestExport::initTestCase() {
    QVERIFY(tmp_.isValid());
    home_ = tmp_.filePath(QStringLiteral("home"));
    for (const QString& m : kModels) {
        // Two checkpoints, so that a checkpoint other than the head exports too.
        const CliResult r =
            runCli(trainArgs(home_, m, 1, 6, QStringLiteral("3"),
                             {QStringLiteral("--model"), m, QStringLiteral("--keep"), QStringLiteral("10")}));
        QVERIFY2(r.exitCode == 0, r.describe());
        const QJsonArray cks = checkpointsJson(home_, m);
        QVERIFY2(cks.size() >= 2, qPrintable(m));
        first_[m] = cks.first().toObject().value(QStringLiteral("id")).toInteger();
        last_[m] = newestUsable(cks).value(QStringLiteral("id")).toInteger();
    }
}

void TestExport::stateDictHoldsTheCheckpointsTensors_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("head");
    for (const QString& m : kModels) {
        QTest::addRow("%s head", qPrintable(m)) << m << true;
        QTest::addRow("%s older", qPrintable(m)) << m << false;
    }
}

void TestExport::stateDictHoldsTheCheckpointsTensors() {
    QFETCH(QString, model);
    QFETCH(bool, head);
    const qint64 id = head ? last_[model] : first_[model];
    const QString out = tmp_.filePath(QStringLiteral("%1-%2.pt").arg(model).arg(id));
    const CliResult r = runCli(exportArgs(home_, model, id, out));
    QVERIFY2(r.exitCode == 0, r.describe());
    QVERIFY2(r.out.contains(out) && r.out.contains(QString::fromLatin1(fileSha256(out))), r.describe());
    QVERIFY2(r.out.contains(QStringLiteral("torch.load(")), r.describe());
    QVERIFY2(!QFile::exists(out + QStringLiteral(".tmp")), "the temp file was left behind");

    const auto expected = checkpointModelTensors(checkpointPath(home_, model, id));
    if (head) leaveForPython(model, out, expected);

    const c10::IValue loaded = torch::pickle_load(readBytes(out));
    QVERIFY(loaded.isGenericDict());
    const auto dict = loaded.toGenericDict();
    QCOMPARE(dict.size(), expected.size());
    for (const auto& [name, value] : expected) {
        QVERIFY2(dict.contains(name), name.c_str());
        const torch::Tensor t = dict.at(name).toTensor();
        QVERIFY2(t.scalar_type() == value.scalar_type() && t.sizes() == value.sizes() && torch::equal(t, value),
                 ("tensor " + name + " differs from the checkpoint's").c_str());
    }
    // The names are the model's own state_dict names: what docs/YOUR-MODEL.md's nn.Module has.
    const auto net = savepoint::make_model(model.toStdString());
    QCOMPARE(static_cast<std::size_t>(net->named_parameters(true).size() + net->named_buffers(true).size()),
             dict.size());
    for (const auto& p : net->named_parameters(true)) QVERIFY2(dict.contains(p.key()), p.key().c_str());
}

// With SAVEPOINT_EXPORT_FIXTURE_DIR set: the exported file, and the logits the
// engine's model computes with the checkpoint's own weights, for
// tests/python/test_export_loads.py. Left before this test compares anything,
// so that a planted bug reaches the Python side too.
void TestExport::leaveForPython(const QString& model, const QString& exported,
                                const std::map<std::string, torch::Tensor>& weights) {
    const QByteArray fixture = qgetenv("SAVEPOINT_EXPORT_FIXTURE_DIR");
    if (fixture.isEmpty()) return;
    const auto net = savepoint::make_model(model.toStdString());
    torch::NoGradGuard no_grad;
    for (auto& p : net->named_parameters(true)) p.value().copy_(weights.at(p.key()));
    net->eval();
    const torch::Tensor x = fixedInput();
    c10::Dict<std::string, at::Tensor> expectedOut;
    expectedOut.insert("input", x);
    expectedOut.insert("logits", net->forward(x));
    const QString dir = QString::fromLocal8Bit(fixture);
    QVERIFY(QDir().mkpath(dir));
    QFile::remove(dir + "/" + model + ".pt");
    QVERIFY(QFile::copy(exported, dir + "/" + model + ".pt"));
    writeBytes((dir + "/" + model + "-expected.pt").toStdString(), torch::pickle_save(c10::IValue(expectedOut)));
}

// With SAVEPOINT_EXPORT_FIXTURE_DIR set: the TorchScript export and the
// checkpoint's tensors by name, for Python's torch.jit.load to match.
void TestExport::leaveScriptForPython(const QString& exported, const std::map<std::string, torch::Tensor>& weights) {
    const QByteArray fixture = qgetenv("SAVEPOINT_EXPORT_FIXTURE_DIR");
    if (fixture.isEmpty()) return;
    const QString dir = QString::fromLocal8Bit(fixture);
    QVERIFY(QDir().mkpath(dir));
    QFile::remove(dir + "/script.pt");
    QVERIFY(QFile::copy(exported, dir + "/script.pt"));
    c10::Dict<std::string, at::Tensor> expected;
    for (const auto& [name, value] : weights) expected.insert(name, value);
    writeBytes((dir + "/script-expected.pt").toStdString(), torch::pickle_save(c10::IValue(expected)));
}

void TestExport::refusals_data() {
    QTest::addColumn<QString>("run");
    QTest::addColumn<qint64>("checkpoint");
    QTest::addColumn<QString>("out");  // "EXISTING": a file already there
    QTest::addColumn<QString>("says");
    QTest::addRow("unknown run") << "nosuch" << qint64(1) << "a.pt"
                                 << "no run named 'nosuch'";
    QTest::addRow("unknown checkpoint") << "mlp" << qint64(9999) << "a.pt"
                                        << "no checkpoint #9999 in run 'mlp' (its committed checkpoints: #";
    QTest::addRow("another run's checkpoint") << "dnn" << qint64(-1) << "a.pt"
                                              << "in run 'dnn'";
    QTest::addRow("existing file") << "mlp" << qint64(0) << "EXISTING"
                                   << "already exists; export never overwrites";
    QTest::addRow("no such directory") << "mlp" << qint64(0) << "no/such/dir/a.pt"
                                       << "does not exist";
    QTest::addRow("empty out") << "mlp" << qint64(0) << ""
                               << "--out: expected a file name";
}

void TestExport::refusals() {
    QFETCH(QString, run);
    QFETCH(qint64, checkpoint);
    QFETCH(QString, out);
    QFETCH(QString, says);
    if (checkpoint == 0) checkpoint = last_[QStringLiteral("mlp")];
    if (checkpoint == -1) checkpoint = last_[QStringLiteral("mlp")];  // mlp's, asked of run dnn
    QString path = out.isEmpty() ? QString() : tmp_.filePath(QStringLiteral("refused/") + out);
    QVERIFY(QDir().mkpath(tmp_.filePath(QStringLiteral("refused"))));
    const QByteArray existing("not to be overwritten");
    if (out == QLatin1String("EXISTING")) QVERIFY(writeAll(path, existing));
    const auto before = treeFingerprint(tmp_.path());
    const CliResult r = runCli(exportArgs(home_, run, checkpoint, path));
    QVERIFY2(r.exitCode == 2, r.describe());
    QVERIFY2(r.err.contains(says), r.describe());
    if (out == QLatin1String("EXISTING")) QVERIFY2(r.err.contains(path), r.describe());
    const QString changed = diffFingerprints(before, treeFingerprint(tmp_.path()));
    QVERIFY2(changed.isEmpty(), qPrintable(changed));
}

void TestExport::damagedCheckpointIsRefused() {
    // A home of its own: the damage is not left for the other cases.
    const QString home = tmp_.filePath(QStringLiteral("damaged"));
    const CliResult t = runCli(trainArgs(home, QStringLiteral("d"), 1, 4, QStringLiteral("2")));
    QVERIFY2(t.exitCode == 0, t.describe());
    const QJsonObject c = newestUsable(checkpointsJson(home, QStringLiteral("d")));
    const QString ck = c.value(QStringLiteral("path")).toString();
    QVERIFY(flipByte(ck, -100));  // a payload byte: only the checksum tells
    const QString out = tmp_.filePath(QStringLiteral("damaged.pt"));
    const CliResult r = runCli(exportArgs(home, QStringLiteral("d"), c.value(QStringLiteral("id")).toInteger(), out));
    QVERIFY2(r.exitCode == 1, r.describe());
    QVERIFY2(r.err.contains(ck) && r.err.contains(QStringLiteral("verify --run d")), r.describe());
    QVERIFY(!QFile::exists(out));
    QVERIFY(!QFile::exists(out + QStringLiteral(".tmp")));
}

void TestExport::torchScriptModuleHoldsTheCheckpointsWeights() {
    const QString net = tmp_.filePath(QStringLiteral("net.pt"));
    testsupport::bnMlp(784, 16, 10).save(net.toStdString());
    const CliResult t =
        runCli(trainArgs(home_, QStringLiteral("ts"), 1, 6, QStringLiteral("3"),
                         {QStringLiteral("--model"), net, QStringLiteral("--keep"), QStringLiteral("10")}));
    QVERIFY2(t.exitCode == 0, t.describe());
    const QJsonArray cks = checkpointsJson(home_, QStringLiteral("ts"));
    QVERIFY(cks.size() >= 2);
    for (const qint64 id : {cks.first().toObject().value(QStringLiteral("id")).toInteger(),
                            newestUsable(cks).value(QStringLiteral("id")).toInteger()}) {
        const QString out = tmp_.filePath(QStringLiteral("ts-%1.pt").arg(id));
        const CliResult r = runCli(exportArgs(home_, QStringLiteral("ts"), id, out));
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(
            r.out.contains(QStringLiteral("torch.jit.load(")) && r.out.contains(QString::fromLatin1(fileSha256(out))),
            r.describe());
        const auto expected = checkpointModelTensors(checkpointPath(home_, QStringLiteral("ts"), id));
        leaveScriptForPython(out, expected);
        torch::jit::Module loaded = torch::jit::load(out.toStdString());
        std::map<std::string, torch::Tensor> found;
        for (const auto& p : loaded.named_parameters(true)) found[p.name] = p.value;
        for (const auto& b : loaded.named_buffers(true)) found[b.name] = b.value;
        QCOMPARE(found.size(), expected.size());
        for (const auto& [name, value] : expected) {
            QVERIFY2(found.count(name), name.c_str());
            QVERIFY2(torch::equal(found.at(name), value),
                     ("tensor " + name + " differs from the checkpoint's").c_str());
        }
        // Training moved the buffers: the export carries the checkpoint's, not the file's first ones.
        QVERIFY(!torch::equal(found.at("bn.running_mean"), torch::zeros({16})));
        // And the module still runs: logits for a batch.
        loaded.eval();
        const auto y = loaded.forward({fixedInput()}).toTensor();
        QCOMPARE(y.sizes(), (c10::IntArrayRef{4, 10}));
    }
}

void TestExport::torchScriptFileChangedOrGoneIsRefused() {
    const QString net = tmp_.filePath(QStringLiteral("net2.pt"));
    testsupport::bnMlp(784, 16, 10).save(net.toStdString());
    const CliResult t =
        runCli(trainArgs(home_, QStringLiteral("ts2"), 1, 3, QStringLiteral("3"), {QStringLiteral("--model"), net}));
    QVERIFY2(t.exitCode == 0, t.describe());
    const qint64 id =
        newestUsable(checkpointsJson(home_, QStringLiteral("ts2"))).value(QStringLiteral("id")).toInteger();
    const QString out = tmp_.filePath(QStringLiteral("ts2.pt"));
    const QByteArray recorded = fileSha256(net);

    // Another network in its place: its hash names both.
    testsupport::bnMlp(784, 24, 10).save(net.toStdString());
    CliResult r = runCli(exportArgs(home_, QStringLiteral("ts2"), id, out));
    QVERIFY2(r.exitCode == 2, r.describe());
    QVERIFY2(r.err.contains(net) && r.err.contains(QString::fromLatin1(recorded)) &&
                 r.err.contains(QString::fromLatin1(fileSha256(net))),
             r.describe());
    QVERIFY(!QFile::exists(out));

    // Gone: says where it was and how training follows a moved file.
    QVERIFY(QFile::remove(net));
    r = runCli(exportArgs(home_, QStringLiteral("ts2"), id, out));
    QVERIFY2(r.exitCode == 2, r.describe());
    QVERIFY2(r.err.contains(net) && r.err.contains(QStringLiteral("resume --model")), r.describe());
    QVERIFY(!QFile::exists(out));
}

QTEST_GUILESS_MAIN(TestExport)
#include "test_export.moc"
