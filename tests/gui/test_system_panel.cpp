// The System panel (ui/window/system_panel.h) and the window's part in the GPU
// work: "no NVIDIA driver" where there is none, a run's live samples, a GPU's
// figures as NVML gives them (the tests' fake libnvidia-ml.so.1), and a resume
// on another device: a banner and a marker on the plot. Real window offscreen,
// real runs on the synthetic dataset.
#include "bridge/trainer_worker.h"
#include "cuda/device_probe.h"
#include "cuda/device_record.h"
#include "platform/telemetry_probe.h"
#include "plot/event_markers.h"
#include "plot/metrics_plot.h"
#include "registry/registry.h"
#include "train_configs.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window/new_run_dialog.h"
#include "window/system_panel.h"
#include "window/training_controller.h"
#include "window_home.h"
#include "window_support.h"

#include <QComboBox>
#include <QDockWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <cstdlib>

using namespace savepoint::ui;

class TestSystemPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void noDriverSaysSo();
    void aRunsSamplesShowLive();
    void aGpuShowsItsFigures();
    void resumeOnAnotherDeviceWarns();

private:
    void makeWindow();
    testsupport::WindowHome home_;
    std::unique_ptr<QTemporaryDir>& dir_ = home_.dir;
    std::unique_ptr<MainWindow>& w_ = home_.window;
};

void TestSystemPanel::initTestCase() {
    testsupport::WindowHome::prepareTestCase();
    // No driver, whatever this machine has: the panel's words for it are what is tested.
    ::setenv("SAVEPOINT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
}

void TestSystemPanel::init() { QVERIFY(home_.create()); }

void TestSystemPanel::makeWindow() {
    home_.open();
    QVERIFY(home_.show());
}

void TestSystemPanel::cleanup() { home_.close(); }

void TestSystemPanel::noDriverSaysSo() {
    // The device choice says why no GPU can train here; choosing cuda says so beside the field.
    testsupport::TempSettings settings;
    NewRunDialog dlg({}, settings.settings);
    QVERIFY2(NewRunDialog::gpuText().startsWith(QLatin1String("no GPU: ")) ||
                 NewRunDialog::gpuText().startsWith(QLatin1String("GPU: ")),
             qPrintable(NewRunDialog::gpuText()));
    if (!savepoint::cuda_unavailable_reason().empty()) {
        qobject_cast<QComboBox*>(dlg.field(QStringLiteral("device")))->setCurrentText(QStringLiteral("cuda"));
        QVERIFY(dlg.errors().contains(QStringLiteral("device")));
    }
    // SAVEPOINT_DIALOG_SHOT=PATH: the dialog as a user sees it.
    if (const QByteArray shot = qgetenv("SAVEPOINT_DIALOG_SHOT"); !shot.isEmpty()) {
        dlg.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dlg));
        QVERIFY(dlg.grab().save(QString::fromLocal8Bit(shot)));
    }
    makeWindow();
    QTRY_VERIFY_WITH_TIMEOUT(w_->systemPanel()->gpuStatus().contains(QLatin1String("no NVIDIA driver")), 5000);
    QCOMPARE(w_->systemPanel()->figure("gpu_util"), QStringLiteral("–"));
}

void TestSystemPanel::aRunsSamplesShowLive() {
    makeWindow();
    QSignalSpy finished(w_->worker(), &TrainerWorker::finished);
    // A few seconds of training: a sample a second.
    QVERIFY(w_->training()->startRun(QStringLiteral("sys"), testsupport::syntheticMlp(1, 4000, 64, 2000)));
    QTRY_VERIFY_WITH_TIMEOUT(w_->systemPanel()->sampleCount() >= 1, 60000);
    const QString cpu = w_->systemPanel()->figure("cpu");
    QVERIFY2(cpu.endsWith(QLatin1String(" %")) && cpu != QStringLiteral("–"), qPrintable(cpu));
    QVERIFY(w_->systemPanel()->figure("rss").contains(QLatin1String("MiB")) ||
            w_->systemPanel()->figure("rss").contains(QLatin1String("GiB")));
    QCOMPARE(w_->systemPanel()->figure("gpu_temp"), QStringLiteral("–"));  // trained on the CPU
    // SAVEPOINT_SYSTEM_SHOT=PATH: the window with the System tab up, to look at (docs/DESKTOP-APP.md).
    if (const QByteArray shot = qgetenv("SAVEPOINT_SYSTEM_SHOT"); !shot.isEmpty()) {
        w_->findChild<QDockWidget*>(QStringLiteral("systemDock"))->raise();
        QTRY_VERIFY_WITH_TIMEOUT(w_->systemPanel()->sampleCount() >= 3, 60000);
        QTest::qWait(300);
        QVERIFY(w_->grab().save(QString::fromLocal8Bit(shot)));
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    // What the registry holds, the panel shows: every sample once.
    savepoint::Registry reg(w_->home().toStdString());
    const auto rows = reg.telemetry(reg.find_run("sys")->id);
    QTRY_COMPARE_WITH_TIMEOUT(w_->systemPanel()->sampleCount(), rows.size(), 5000);
}

void TestSystemPanel::aGpuShowsItsFigures() {
    ::setenv("SAVEPOINT_NVML_LIBRARY", FAKE_NVML_LIBRARY, 1);
    const QString status = QString::fromStdString(savepoint::gpu_status_line(savepoint::GpuSelector{{}, 0}));
    ::setenv("SAVEPOINT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
    QVERIFY2(status.contains(QLatin1String("Fake GPU")), qPrintable(status));
    SystemPanel panel;
    panel.setGpuStatus(status);
    QVERIFY(panel.gpuStatus().contains(QLatin1String("Fake GPU")));
    savepoint::TelemetrySample s;
    s.t = 1;
    s.wall_time = 1000;
    s.cpu_percent = 97;
    s.rss_bytes = 300 << 20;
    s.gpu = savepoint::GpuSample{37,  std::int64_t(1536) << 20,      std::int64_t(80) << 30, 61, 212.5,
                                 975, savepoint::kThrottleSwPowerCap};
    panel.addSamples({s});
    QCOMPARE(panel.figure("gpu_util"), QStringLiteral("37 %"));
    QCOMPARE(panel.figure("gpu_mem"), QStringLiteral("1.50 GiB of 80.00 GiB"));
    QCOMPARE(panel.figure("gpu_temp"), QStringLiteral("61 °C"));
    QCOMPARE(panel.figure("gpu_power"), QStringLiteral("212.5 W"));
    QCOMPARE(panel.figure("gpu_clock"), QStringLiteral("975 MHz"));
    QCOMPARE(panel.figure("throttle"), QStringLiteral("SwPowerCap"));
    QCOMPARE(panel.figure("rss"), QStringLiteral("300.0 MiB"));
}

void TestSystemPanel::resumeOnAnotherDeviceWarns() {
    makeWindow();
    QSignalSpy finished(w_->worker(), &TrainerWorker::finished);
    savepoint::TrainConfig c = testsupport::syntheticMlp(2, 3000, 16, 1000);
    QVERIFY(w_->training()->startRun(QStringLiteral("moved"), c));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    // Its checkpoints now say a GPU trained them.
    savepoint::DeviceRecord gpu;
    gpu.kind = "cuda";
    gpu.index = 0;
    gpu.name = "NVIDIA H100 80GB HBM3";
    gpu.compute_capability = "9.0";
    gpu.libtorch = "2.11.0";
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open((w_->home() + "/registry.sqlite").toUtf8().constData(), &db), SQLITE_OK);
    const std::string sql = "UPDATE checkpoints SET device_json='" + gpu.to_json().dump() + "'";
    QCOMPARE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    const int markers = [this] {
        w_->plot()->flush();
        return w_->plot()->lossMarkers().markerCount();
    }();
    savepoint::ResumeTarget back;
    back.epoch = 2;  // checkpoint #4 at global step 4000: retention kept it
    back.step = 1000;
    QVERIFY(w_->training()->resumeRun(QStringLiteral("moved"), back));
    // Said while it trains (the finish has its own banner after).
    QTRY_VERIFY2_WITH_TIMEOUT(w_->banner()->text().contains(QLatin1String("Resumed on another device")),
                              qPrintable(w_->banner()->text()), 60000);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 120000);
    QVERIFY(savepoint::ui::EventMarkers::drawn(savepoint::EventKind::DeviceChanged));
    w_->plot()->flush();
    // The rollback's line and the device's, at least.
    QTRY_VERIFY_WITH_TIMEOUT((w_->plot()->flush(), w_->plot()->lossMarkers().markerCount() >= markers + 2), 5000);
}

QTEST_MAIN(TestSystemPanel)
#include "test_system_panel.moc"
