// Tests for the dataset layer (engine/data/dataset.cpp, engine/data/synthetic_dataset.cpp):
// the spec grammar, the tensor layout the trainer relies on, the determinism
// of the synthetic set (it must not touch torch's RNG), that it is learnable,
// and the fashion-mnist location and load time.
#include "data/batch_gather.h"
#include "data/dataset.h"
#include "idx_files.h"
#include "platform/errors.h"

#include <QtTest>

#include <cstring>
#include <functional>

using namespace savepoint;

namespace {

using testsupport::be32;
using testsupport::gzip;

QByteArray idxImages(quint32 n, quint32 side = 28) {
    QByteArray b = be32(0x803) + be32(n) + be32(side) + be32(side);
    for (qint64 i = 0; i < qint64(n) * side * side; ++i) b.append(char((i * 13 + 5) & 0xff));
    return b;
}

QByteArray idxLabels(quint32 n) {
    QByteArray b = be32(0x801) + be32(n);
    for (quint32 i = 0; i < n; ++i) b.append(char((i * 3) % 10));
    return b;
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    QCOMPARE(f.write(bytes), qint64(bytes.size()));
}

// 5 train and 3 test images, mixing raw and gzipped files.
void writeSmallDataset(const QString& dir, quint32 trainLabels = 5) {
    writeFile(dir + "/train-images-idx3-ubyte.gz", gzip(idxImages(5)));
    writeFile(dir + "/train-labels-idx1-ubyte", idxLabels(trainLabels));
    writeFile(dir + "/t10k-images-idx3-ubyte", idxImages(3));
    writeFile(dir + "/t10k-labels-idx1-ubyte.gz", gzip(idxLabels(3)));
}

QString inputErrorOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}

// FNV-1a over the pixel bytes and the labels: independent of endianness.
quint64 fingerprint(const Dataset& d, quint64 h) {
    const torch::Tensor px = d.images.contiguous();
    const std::uint8_t* p = px.data_ptr<std::uint8_t>();
    for (std::int64_t i = 0; i < px.numel(); ++i) h = (h ^ p[i]) * 1099511628211ULL;
    const std::int64_t* l = d.labels.data_ptr<std::int64_t>();
    for (std::int64_t i = 0; i < d.labels.numel(); ++i) h = (h ^ std::uint64_t(l[i])) * 1099511628211ULL;
    return h;
}

void checkLayout(const Dataset& d, std::int64_t n) {
    QCOMPARE(d.size(), n);
    QCOMPARE(d.images.scalar_type(), torch::kUInt8);
    QCOMPARE(d.labels.scalar_type(), torch::kInt64);
    QVERIFY(d.images.sizes() == torch::IntArrayRef({n, 1, 28, 28}));
    QVERIFY(d.labels.sizes() == torch::IntArrayRef({n}));
    QVERIFY(d.images.is_contiguous());
    QVERIFY(d.images.device().is_cpu());
    QVERIFY(d.labels.min().item<std::int64_t>() >= 0);
    QVERIFY(d.labels.max().item<std::int64_t>() < 10);
}

const char* const kEnv = "SAVEPOINT_FASHION_MNIST_DIR";
const QString kFashionDir = QStringLiteral("/usr/share/datasets/fashion-mnist");

}  // namespace

class TestDataset : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void pixelsToFloatIsExactlyADivision();
    void gatherBatchPicksRowsAndLabels();
    void syntheticIsDeterministic();
    void syntheticMatchesGoldenFingerprint();
    void syntheticLayoutAndRanges();
    void syntheticClassesRoughlyBalanced();
    void syntheticTrainAndTestDiffer();
    void syntheticLeavesTorchRngAlone();
    void syntheticIsLearnableButNotTrivial();
    void syntheticRejectsBadSizes();
    void loadsSyntheticSpec();
    void rejectsUnknownSpec_data();
    void rejectsUnknownSpec();
    void rejectsAFileThatIsNotTensors();
    void loadsDirectorySpec();
    void directoryCountsMustAgree();
    void fashionMnistDirFromEnvironment();
    void fashionMnistMissingDirIsExplained();
    void loadsRealFashionMnistQuickly();
    void specCheckFindsWhatLoadingWouldWithoutReading();

private:
    QByteArray savedEnv_;
    bool hadEnv_ = false;
};

void TestDataset::init() {
    hadEnv_ = qEnvironmentVariableIsSet(kEnv);
    savedEnv_ = qgetenv(kEnv);
}

void TestDataset::cleanup() {
    if (hadEnv_)
        qputenv(kEnv, savedEnv_);
    else
        qunsetenv(kEnv);
}

void TestDataset::pixelsToFloatIsExactlyADivision() {
    // Every pixel value, bit for bit: model input must not depend on how it is converted.
    const torch::Tensor all = torch::arange(256, torch::kInt64).to(torch::kUInt8).view({4, 1, 8, 8});
    const torch::Tensor f = pixels_to_float(all);
    QCOMPARE(f.scalar_type(), torch::kFloat32);
    QVERIFY(f.sizes() == all.sizes());
    for (int i = 0; i < 256; ++i) {
        const float got = f.flatten()[i].item<float>(), want = static_cast<float>(i) / 255.0f;
        QVERIFY2(std::memcmp(&got, &want, sizeof got) == 0, qPrintable(QString("pixel %1").arg(i)));
    }
    // Non-contiguous input (a batch picked by index_select, then a slice) converts by value.
    const torch::Tensor strided = all.flatten().slice(0, 1, 256, 5);
    QVERIFY(torch::equal(pixels_to_float(strided), strided.to(torch::kFloat32) / 255.0f));
    bool refused = false;
    try {
        pixels_to_float(torch::zeros({2}, torch::kFloat32));
    } catch (const c10::Error&) {
        refused = true;
    }
    QVERIFY(refused);
}

void TestDataset::gatherBatchPicksRowsAndLabels() {
    // The step's own gather (engine/data/batch_gather.cpp) against index_select + division.
    torch::manual_seed(11);
    const torch::Tensor images = torch::randint(0, 256, {50, 1, 28, 28}, torch::kInt64).to(torch::kUInt8);
    const torch::Tensor labels = torch::randint(0, 10, {50}, torch::kInt64);
    const std::vector<std::int64_t> rows = {7, 0, 49, 7, 23, 1};
    const torch::Tensor index = torch::tensor(rows, torch::kInt64);
    const auto count = static_cast<std::int64_t>(rows.size());
    torch::Tensor x = torch::full({count, 1, 28, 28}, -1.0f), y = torch::full({count}, -1, torch::kInt64);
    gather_batch(images.data_ptr<std::uint8_t>(), labels.data_ptr<std::int64_t>(), 784, rows.data(), count,
                 x.data_ptr<float>(), y.data_ptr<std::int64_t>());
    QVERIFY(torch::equal(x, images.index_select(0, index).to(torch::kFloat32) / 255.0f));
    QVERIFY(torch::equal(y, labels.index_select(0, index)));
}

void TestDataset::syntheticIsDeterministic() {
    const DatasetPair a = make_synthetic_dataset();
    const DatasetPair b = make_synthetic_dataset();
    QVERIFY(torch::equal(a.train.images, b.train.images));
    QVERIFY(torch::equal(a.train.labels, b.train.labels));
    QVERIFY(torch::equal(a.test.images, b.test.images));
    QVERIFY(torch::equal(a.test.labels, b.test.labels));
    // A sample depends only on its index, so a smaller set is a prefix.
    const DatasetPair small = make_synthetic_dataset(100, 10);
    QVERIFY(torch::equal(small.train.images, a.train.images.slice(0, 0, 100)));
    QVERIFY(torch::equal(small.test.labels, a.test.labels.slice(0, 0, 10)));
}

void TestDataset::syntheticMatchesGoldenFingerprint() {
    // Pins the exact bits across machines, compilers and libms. If the
    // generator is changed on purpose, update the constant.
    const DatasetPair p = make_synthetic_dataset();
    const quint64 h = fingerprint(p.test, fingerprint(p.train, 1469598103934665603ULL));
    QCOMPARE(QString::number(h, 16), QStringLiteral("5aeaf25a156ad663"));
}

void TestDataset::syntheticLayoutAndRanges() {
    const DatasetPair p = make_synthetic_dataset();
    checkLayout(p.train, 4096);
    checkLayout(p.test, 1024);
    // Not blank and not saturated: strokes on a noisy background.
    const double mean = pixels_to_float(p.train.images).mean().item<double>();
    QVERIFY2(mean > 0.1 && mean < 0.5, qPrintable(QString::number(mean)));
}

void TestDataset::syntheticClassesRoughlyBalanced() {
    const DatasetPair p = make_synthetic_dataset();
    for (const Dataset* d : {&p.train, &p.test}) {
        const torch::Tensor counts = torch::bincount(d->labels, {}, 10);
        const double expected = double(d->size()) / 10;
        for (int c = 0; c < 10; ++c) {
            const double n = double(counts[c].item<std::int64_t>());
            QVERIFY2(n > 0.75 * expected && n < 1.25 * expected,
                     qPrintable(QString("class %1: %2 of %3").arg(c).arg(n).arg(d->size())));
        }
    }
}

void TestDataset::syntheticTrainAndTestDiffer() {
    const DatasetPair p = make_synthetic_dataset(256, 256);
    // Same distribution, different samples: no test image equals its train twin.
    const torch::Tensor same = (p.train.images == p.test.images).flatten(1).all(1);
    QCOMPARE(same.sum().item<std::int64_t>(), std::int64_t(0));
}

void TestDataset::syntheticLeavesTorchRngAlone() {
    torch::manual_seed(1234);
    const torch::Tensor expected = torch::rand({8});
    torch::manual_seed(1234);
    make_synthetic_dataset(64, 16);
    QVERIFY(torch::equal(torch::rand({8}), expected));
}

void TestDataset::syntheticIsLearnableButNotTrivial() {
    // The demo promise: a small MLP passes 80% validation accuracy within 300
    // steps of batch 32, and the task is not solved after a single step.
    const DatasetPair p = make_synthetic_dataset();
    torch::manual_seed(7);
    torch::nn::Sequential mlp(torch::nn::Flatten(), torch::nn::Linear(784, 128), torch::nn::ReLU(),
                              torch::nn::Linear(128, 10));
    torch::optim::SGD opt(mlp->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
    auto accuracy = [&] {
        torch::NoGradGuard no_grad;
        return mlp->forward(pixels_to_float(p.test.images))
            .argmax(1)
            .eq(p.test.labels)
            .to(torch::kFloat)
            .mean()
            .item<double>();
    };
    double after_first = 0;
    for (int step = 0; step < 300; ++step) {
        const torch::Tensor idx = torch::randint(p.train.size(), {32}, torch::kLong);
        const torch::Tensor loss = torch::nn::functional::cross_entropy(
            mlp->forward(pixels_to_float(p.train.images.index_select(0, idx))), p.train.labels.index_select(0, idx));
        opt.zero_grad();
        loss.backward();
        opt.step();
        if (step == 0) after_first = accuracy();
    }
    const double final_acc = accuracy();
    qInfo("synthetic MLP accuracy: %.3f after 1 step, %.3f after 300", after_first, final_acc);
    QVERIFY2(after_first < 0.5, qPrintable(QString::number(after_first)));
    QVERIFY2(final_acc > 0.8, qPrintable(QString::number(final_acc)));
}

void TestDataset::syntheticRejectsBadSizes() {
    QString msg = inputErrorOf([] { make_synthetic_dataset(0, 10); });
    QVERIFY2(msg.contains("synthetic: train size: expected 1..1000000, found 0"), qPrintable(msg));
    msg = inputErrorOf([] { make_synthetic_dataset(10, -1); });
    QVERIFY2(msg.contains("synthetic: test size: expected 1..1000000, found -1"), qPrintable(msg));
}

void TestDataset::loadsSyntheticSpec() {
    const DatasetPair p = load_dataset("synthetic");
    checkLayout(p.train, 4096);
    checkLayout(p.test, 1024);
    QVERIFY(QString::fromStdString(p.description).startsWith("synthetic"));
    QVERIFY(QString::fromStdString(p.description).contains("4096 train, 1024 test"));
    QVERIFY(torch::equal(p.train.images, make_synthetic_dataset().train.images));
}

void TestDataset::rejectsUnknownSpec_data() {
    QTest::addColumn<QString>("spec");
    QTest::addRow("unknown name") << "xyz";
    QTest::addRow("empty") << "";
    QTest::addRow("missing directory") << "/nonexistent/savepoint/mnist";
    QTest::addRow("near miss") << "fashion_mnist";
}

// A regular file is a tensor file (torch.save of a dict): one that is not says what LibTorch found.
void TestDataset::rejectsAFileThatIsNotTensors() {
    if (!QFileInfo(QStringLiteral("/etc/hostname")).isFile()) QSKIP("no /etc/hostname here");
    const QString msg = inputErrorOf([&] { load_dataset("/etc/hostname"); });
    QVERIFY2(msg.startsWith("/etc/hostname: expected a dictionary of tensors written by torch.save"), qPrintable(msg));
}

void TestDataset::rejectsUnknownSpec() {
    QFETCH(QString, spec);
    const QString msg = inputErrorOf([&] { load_dataset(spec.toStdString()); });
    QCOMPARE(msg,
             "--data: expected fashion-mnist, synthetic or a directory holding the MNIST "
             "files, found '" +
                 spec + "'");
}

void TestDataset::loadsDirectorySpec() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    writeSmallDataset(tmp.path());
    const DatasetPair p = load_dataset(tmp.path().toStdString());
    checkLayout(p.train, 5);
    checkLayout(p.test, 3);
    QVERIFY2(QString::fromStdString(p.description).contains(tmp.path()), p.description.c_str());
    QVERIFY2(QString::fromStdString(p.description).contains("5 train, 3 test"), p.description.c_str());

    // Pixels in file order; labels as written.
    const torch::Tensor flat = p.train.images.flatten();
    for (std::int64_t i : {0, 1, 783, 784, 1000, 5 * 784 - 1})
        QCOMPARE(int(flat[i].item<std::uint8_t>()), int((i * 13 + 5) & 0xff));
    QCOMPARE(p.train.labels[4].item<std::int64_t>(), std::int64_t(2));
    QCOMPARE(p.test.labels[2].item<std::int64_t>(), std::int64_t(6));
    // The loaded tensors own their memory (no view into a freed buffer).
    QVERIFY(p.train.images.storage().nbytes() == std::size_t(5 * 784));
}

void TestDataset::directoryCountsMustAgree() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    writeSmallDataset(tmp.path(), 6);
    const QString msg = inputErrorOf([&] { load_dataset(tmp.path().toStdString()); });
    QVERIFY2(msg.contains(tmp.path() + "/train-labels-idx1-ubyte: label count: expected 5"), qPrintable(msg));
    QVERIFY2(msg.contains("found 6"), qPrintable(msg));
}

void TestDataset::fashionMnistDirFromEnvironment() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    writeSmallDataset(tmp.path());

    qunsetenv(kEnv);
    QCOMPARE(QString::fromStdString(default_fashion_mnist_dir()), kFashionDir);

    qputenv(kEnv, tmp.path().toUtf8());
    QCOMPARE(QString::fromStdString(default_fashion_mnist_dir()), tmp.path());
    const DatasetPair p = load_dataset("fashion-mnist");
    QCOMPARE(p.train.size(), std::int64_t(5));
    QCOMPARE(p.test.size(), std::int64_t(3));
    QCOMPARE(QString::fromStdString(p.description), "fashion-mnist (" + tmp.path() + "): 5 train, 3 test");
}

void TestDataset::fashionMnistMissingDirIsExplained() {
    qputenv(kEnv, "/nonexistent/fashion");
    const QString msg = inputErrorOf([] { load_dataset("fashion-mnist"); });
    QVERIFY2(msg.contains("/nonexistent/fashion"), qPrintable(msg));
    QVERIFY2(msg.contains(kEnv), qPrintable(msg));
}

// check_dataset_spec looks where load_dataset looks (the environment variable,
// the four names, raw or .gz) and reads nothing: a file of garbage passes it.
void TestDataset::specCheckFindsWhatLoadingWouldWithoutReading() {
    using Problem = DatasetSpecCheck::Problem;
    QVERIFY(check_dataset_spec("synthetic").ok());
    QVERIFY(check_dataset_spec("").problem == Problem::Empty);
    const DatasetSpecCheck nodir = check_dataset_spec("/nonexistent/mnist");
    QVERIFY(nodir.problem == Problem::NotADirectory);
    QCOMPARE(QString::fromStdString(nodir.dir), QStringLiteral("/nonexistent/mnist"));
    qputenv(kEnv, "/nonexistent/fashion");
    const DatasetSpecCheck fashion = check_dataset_spec("fashion-mnist");
    QVERIFY(fashion.problem == Problem::FashionMnistMissing);
    QCOMPARE(QString::fromStdString(fashion.dir), QStringLiteral("/nonexistent/fashion"));

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    writeSmallDataset(tmp.path());
    QVERIFY(check_dataset_spec(tmp.path().toStdString()).ok());
    qputenv(kEnv, tmp.path().toUtf8());
    QVERIFY(check_dataset_spec("fashion-mnist").ok());
    QVERIFY(QFile::remove(tmp.filePath("t10k-labels-idx1-ubyte.gz")));
    const DatasetSpecCheck missing = check_dataset_spec(tmp.path().toStdString());
    QVERIFY(missing.problem == Problem::MissingFile);
    QCOMPARE(QString::fromStdString(missing.file), QStringLiteral("t10k-labels-idx1-ubyte"));
    writeFile(tmp.filePath("t10k-labels-idx1-ubyte"), QByteArray("not an IDX file"));
    QVERIFY(check_dataset_spec(tmp.path().toStdString()).ok());
    QVERIFY(!inputErrorOf([&] { load_dataset(tmp.path().toStdString()); }).isEmpty());
}

void TestDataset::loadsRealFashionMnistQuickly() {
    if (!QFileInfo(kFashionDir).isDir()) QSKIP("dataset-fashion-mnist is not installed");
    qunsetenv(kEnv);
    QElapsedTimer timer;
    timer.start();
    const DatasetPair p = load_dataset("fashion-mnist");
    const qint64 ms = timer.elapsed();
    qInfo("fashion-mnist loaded in %lld ms: %s", ms, p.description.c_str());
    checkLayout(p.train, 60000);
    checkLayout(p.test, 10000);
    QCOMPARE(QString::fromStdString(p.description), "fashion-mnist (" + kFashionDir + "): 60000 train, 10000 test");
    // Fashion-MNIST's train split has exactly 6000 images of each class.
    QCOMPARE(torch::bincount(p.train.labels, {}, 10).min().item<std::int64_t>(), std::int64_t(6000));
    QCOMPARE(int(p.train.images.max().item<std::uint8_t>()), 255);
    // Generous bound: a debug build on a slow CI runner, not the expected time.
    QVERIFY2(ms < 10000, qPrintable(QString("%1 ms").arg(ms)));
}

QTEST_APPLESS_MAIN(TestDataset)
#include "test_dataset.moc"
