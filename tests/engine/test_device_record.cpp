// The device a checkpoint was trained on (engine/cuda/device_record.h): its
// record in every checkpoint (checkpoints --json), what counts as another
// device, the warning a resume elsewhere gives (a CLI line and a registry
// event; the window's banner and plot marker are test_main_window's), and the
// deterministic-CUDA rules that a CPU machine can check: CUBLAS_WORKSPACE_CONFIG,
// the name of an operation without a deterministic kernel, --device cuda refused.
#include "cuda/cuda_determinism.h"
#include "cuda/device_probe.h"
#include "cuda/device_record.h"
#include "platform/errors.h"
#include "registry/registry.h"

#include "test_home.h"

#include <QtTest>

#include <sqlite3.h>
#include <torch/version.h>

#include <cstdlib>
#include <fstream>

using namespace savepoint;

namespace {

DeviceRecord h100() {
    DeviceRecord r;
    r.kind = "cuda";
    r.index = 0;
    r.name = "NVIDIA H100 80GB HBM3";
    r.compute_capability = "9.0";
    r.pci_bus_id = "00000000:17:00.0";
    r.driver = "580.65.06";
    r.cuda = "13.0";
    r.cudnn = "9.10.2";
    r.libtorch = "2.11.0";
    return r;
}

std::string cpuinfoModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            std::string v = line.substr(line.find(':') + 1);
            return v.substr(v.find_first_not_of(' '));
        }
    return {};
}

// Sets (or with nullptr unsets) an environment variable for one scope.
class EnvVar {
public:
    EnvVar(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~EnvVar() {
        if (had_)
            ::setenv(name_, old_.c_str(), 1);
        else
            ::unsetenv(name_);
    }

private:
    const char* name_;
    std::string old_;
    bool had_ = false;
};

}  // namespace

class TestDeviceRecord : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recordRoundTrip();
    void differences_data();
    void differences();
    void cpuRecordDescribesThisMachine();
    void nondeterministicOperationNamed();
    void cublasWorkspace_data();
    void cublasWorkspace();
    void cudaRefusedWithoutCuda();
    void checkpointsRecordTheirDevice();
    void resumeOnAnotherDeviceWarns();
};

void TestDeviceRecord::recordRoundTrip() {
    const DeviceRecord g = h100();
    const nlohmann::json j = g.to_json();
    for (const char* key : {"kind", "index", "name", "compute_capability", "driver", "cuda", "cudnn", "libtorch"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["name"].get<std::string>(), g.name);
    const DeviceRecord back = DeviceRecord::from_json(j);
    QVERIFY(device_differences(g, back).empty());
    QCOMPARE(back.pci_bus_id, g.pci_bus_id);
    QCOMPARE(back.index, 0);

    DeviceRecord c;
    c.kind = "cpu";
    c.name = "Some CPU";
    c.blas = "OpenBLAS 0.3.21";
    c.libtorch = "1.13.1";
    const nlohmann::json cj = c.to_json();
    QCOMPARE(cj["cpu_model"].get<std::string>(), c.name);
    QCOMPARE(cj["blas"].get<std::string>(), c.blas);
    QVERIFY(!cj.contains("cudnn"));
    QCOMPARE(DeviceRecord::from_json(cj).name, c.name);
    // Not an object (a damaged row): an empty record, which compares with nothing.
    QVERIFY(DeviceRecord::from_json(nlohmann::json("cuda")).empty());
}

void TestDeviceRecord::differences_data() {
    QTest::addColumn<QString>("change");
    QTest::addColumn<QStringList>("expected");  // the DeviceDifference::what of each
    QTest::newRow("same") << "" << QStringList{};
    QTest::newRow("another slot, same model") << "slot" << QStringList{};
    QTest::newRow("another GPU model") << "gpu" << QStringList{"GPU", "compute capability"};
    QTest::newRow("another cuDNN") << "cudnn" << QStringList{"cuDNN"};
    QTest::newRow("another LibTorch") << "libtorch" << QStringList{"LibTorch"};
    QTest::newRow("the CPU instead") << "cpu" << QStringList{"device"};
    QTest::newRow("saved before the record") << "old" << QStringList{};
}

void TestDeviceRecord::differences() {
    QFETCH(QString, change);
    QFETCH(QStringList, expected);
    DeviceRecord saved = h100(), now = h100();
    if (change == "slot") now.index = 3, now.pci_bus_id = "00000000:B3:00.0";
    if (change == "gpu") now.name = "NVIDIA H200", now.compute_capability = "9.1";
    if (change == "cudnn") now.cudnn = "9.11.0";
    if (change == "libtorch") now.libtorch = "2.12.0";
    if (change == "cpu") now = DeviceRecord{"cpu", -1, "Some CPU", "", "", "", "", "", "1.13.1", "OpenBLAS"};
    if (change == "old") saved = DeviceRecord{};
    QStringList got;
    for (const auto& d : device_differences(saved, now)) got << QString::fromStdString(d.what);
    QCOMPARE(got, expected);
}

void TestDeviceRecord::cpuRecordDescribesThisMachine() {
    const DeviceRecord r = describe_device(torch::Device(torch::kCPU));
    QCOMPARE(r.kind, std::string("cpu"));
    QCOMPARE(r.name, cpuinfoModel());
    QCOMPARE(r.libtorch, std::string(TORCH_VERSION));
    QVERIFY2(!r.blas.empty() && r.blas != "unknown BLAS", r.blas.c_str());
    // packaging/setup-debian.sh points libblas.so.3 at OpenBLAS; the record says which kernel it chose.
    char real[4096];
    if (::realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3", real) &&
        std::string(real).find("openblas") != std::string::npos)
        QVERIFY2(r.blas.find("OpenBLAS") != std::string::npos, r.blas.c_str());
}

void TestDeviceRecord::nondeterministicOperationNamed() {
    // LibTorch's wording (ATen/Context.cpp, alertNotDeterministic), as what_without_backtrace() gives it.
    const std::string alert =
        "index_add_cuda_ does not have a deterministic implementation, but you set "
        "'torch.use_deterministic_algorithms(True)'. You can turn off determinism just for this operation, or you "
        "can use the 'warn_only=True' option, if that's acceptable for your application.";
    QCOMPARE(nondeterministic_operation(alert), std::string("index_add_cuda_"));
    // Through TorchScript's interpreter the alert follows its traceback.
    QCOMPARE(nondeterministic_operation("The following operation failed in the TorchScript interpreter.\n"
                                        "RuntimeError: upsample_bilinear2d_backward_out_cuda does not have a "
                                        "deterministic implementation, but you set ..."),
             std::string("upsample_bilinear2d_backward_out_cuda"));
    QVERIFY(nondeterministic_operation("CUDA out of memory. Tried to allocate 2.00 GiB").empty());
}

void TestDeviceRecord::cublasWorkspace_data() {
    QTest::addColumn<QString>("value");  // "(unset)": not set
    QTest::addColumn<bool>("refused");
    QTest::newRow("unset") << "(unset)" << false;
    QTest::newRow(":4096:8") << ":4096:8" << false;
    QTest::newRow(":16:8") << ":16:8" << false;
    QTest::newRow(":0:0") << ":0:0" << true;
    QTest::newRow("empty") << "" << true;
    QTest::newRow(":4096:2") << ":4096:2" << true;
}

void TestDeviceRecord::cublasWorkspace() {
    QFETCH(QString, value);
    QFETCH(bool, refused);
    const QByteArray v = value.toUtf8();
    EnvVar env(kCublasWorkspaceVariable, value == "(unset)" ? nullptr : v.constData());
    try {
        check_cublas_workspace();
        QVERIFY2(!refused, "a non-deterministic workspace was accepted");
    } catch (const InputError& e) {
        QVERIFY2(refused, e.what());
        const QString msg = QString::fromUtf8(e.what());
        QVERIFY2(msg.startsWith(QLatin1String("CUBLAS_WORKSPACE_CONFIG: expected")), e.what());
        QVERIFY2(msg.contains(QStringLiteral("found \"%1\"").arg(value)), e.what());
    }
    // Start-up sets the deterministic value only where the user set none.
    prepare_cuda_environment();
    QCOMPARE(QString::fromUtf8(std::getenv(kCublasWorkspaceVariable)), value == "(unset)" ? ":4096:8" : value);
}

void TestDeviceRecord::cudaRefusedWithoutCuda() {
    if (cuda_unavailable_reason().empty()) QSKIP("this machine can train on a GPU");
    QTemporaryDir tmp;
    const QString home = tmp.path() + "/h";
    const auto r =
        testsupport::runCli({"train", "--home", home, "--run", "g", "--data", "synthetic", "--device", "cuda"});
    QCOMPARE(r.exitCode, 2);
    const QString expected = cuda_built()
                                 ? QStringLiteral("no GPU is visible")
                                 : QStringLiteral("built with LibTorch %1, which has no CUDA").arg(TORCH_VERSION);
    QVERIFY2(r.err.contains("--device: expected a CUDA device, found none: ") && r.err.contains(expected),
             r.describe());
    QVERIFY2(!QFileInfo::exists(home), "a refused run created its home");
    // The dry run says the same.
    const auto d = testsupport::runCli(
        {"train", "--home", home, "--run", "g", "--data", "synthetic", "--device", "cuda", "--dry-run"});
    QCOMPARE(d.exitCode, 2);
    QVERIFY2(d.err.contains(expected), d.describe());
}

void TestDeviceRecord::checkpointsRecordTheirDevice() {
    QTemporaryDir tmp;
    const QString home = tmp.path();
    const auto r = testsupport::runCli(testsupport::trainArgs(home, "d", 2, 20, "10"));
    QVERIFY2(r.exitCode == 0, r.describe());
    const QJsonArray cks = testsupport::checkpointsJson(home, "d");
    QVERIFY(cks.size() >= 4);
    for (const auto& v : cks) {
        const QJsonObject dev = v.toObject()["device"].toObject();
        QCOMPARE(dev["kind"].toString(), QStringLiteral("cpu"));
        QCOMPARE(dev["cpu_model"].toString().toStdString(), cpuinfoModel());
        QCOMPARE(dev["libtorch"].toString(), QStringLiteral(TORCH_VERSION));
        QVERIFY(!dev["blas"].toString().isEmpty());
    }
}

void TestDeviceRecord::resumeOnAnotherDeviceWarns() {
    QTemporaryDir tmp;
    const QString home = tmp.path();
    // Two runs crash at the same step; one's checkpoints then say they were trained on an H100.
    for (const char* run : {"moved", "stayed", "reblas"}) {
        const auto r =
            testsupport::runCli(testsupport::trainArgs(home, run, 2, 20, "10", {"--interrupt-at-step", "25"}));
        QVERIFY2(r.exitCode == 3, r.describe());
    }
    {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open((home + "/registry.sqlite").toUtf8().constData(), &db), SQLITE_OK);
        const std::string sql = "UPDATE checkpoints SET device_json='" + h100().to_json().dump() +
                                "' WHERE run_id=(SELECT id FROM runs WHERE name='moved')";
        QCOMPARE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        QVERIFY(sqlite3_changes(db) >= 2);
        // The same CPU on the reference BLAS: within a kind, the record names what differs.
        DeviceRecord cpu = describe_device(torch::Device(torch::kCPU));
        cpu.blas = "libblas.so.3.11.0 (the reference BLAS)";
        const std::string sql2 = "UPDATE checkpoints SET device_json='" + cpu.to_json().dump() +
                                 "' WHERE run_id=(SELECT id FROM runs WHERE name='reblas')";
        QCOMPARE(sqlite3_exec(db, sql2.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    const auto moved = testsupport::runCli({"resume", "--home", home, "--run", "moved"});
    QVERIFY2(moved.exitCode == 0, moved.describe());
    QVERIFY2(moved.out.contains("warning: checkpoint #") &&
                 moved.out.contains("was trained on NVIDIA H100 80GB HBM3 (compute 9.0), CUDA 13.0, cuDNN 9.10.2") &&
                 moved.out.contains("; this session trains on CPU ") && !moved.out.contains(" -> ") &&
                 moved.out.contains("its bits will differ from a run that never stopped"),
             moved.describe());
    const auto reblas = testsupport::runCli({"resume", "--home", home, "--run", "reblas"});
    QVERIFY2(reblas.exitCode == 0, reblas.describe());
    QVERIFY2(reblas.out.contains("(BLAS libblas.so.3.11.0 (the reference BLAS) -> ") &&
                 reblas.out.contains("its bits will differ"),
             reblas.describe());
    const auto stayed = testsupport::runCli({"resume", "--home", home, "--run", "stayed"});
    QVERIFY2(stayed.exitCode == 0, stayed.describe());
    QVERIFY2(!stayed.out.contains("bits will differ"), stayed.describe());
    // The same sessions otherwise: the warning changes nothing it trains.
    QCOMPARE(testsupport::paramsShaFromOutput(moved.out), testsupport::paramsShaFromOutput(stayed.out));

    Registry reg(home.toStdString());
    int changed = 0;
    for (const char* run : {"moved", "stayed"})
        for (const auto& e : reg.events(reg.find_run(run)->id))
            if (e.kind == EventKind::DeviceChanged) {
                ++changed;
                QCOMPARE(std::string(run), std::string("moved"));
                QVERIFY(e.checkpoint_id.has_value());
                QCOMPARE(e.global_step, std::int64_t(20));  // the resume point, checkpoint at step 20
            }
    QCOMPARE(changed, 1);
}

QTEST_GUILESS_MAIN(TestDeviceRecord)
#include "test_device_record.moc"
