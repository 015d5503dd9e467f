// Telemetry (engine/platform/telemetry_*.h, process_stats.h, nvml_library.h;
// Registry::append_telemetry; savepoint-cli telemetry): the process's figures
// are this process's (bytes it wrote and fsynced, CPU it spent spinning), the
// sampler keeps its period and stops at once, without NVML the GPU is null and
// the reason says so, with the fake libnvidia-ml.so.1 (fake_nvml.cpp) every GPU
// field is the fake's, the registry keeps every field and every null, and the
// CLI prints them.
// Negative control: FAKE_NVML_POWER_MW=0 makes the fake report another power
// draw, which fakeLibraryGivesEveryField must catch (CTest runs it:
// test_telemetry_negative_control).
#include "cli_app.h"
#include "platform/nvml_library.h"
#include "platform/process_stats.h"
#include "platform/telemetry_sampler.h"
#include "registry/registry.h"
#include "test_home.h"

#include <QtTest>

#include <dlfcn.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sqlite3.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

using namespace savepoint;
using std::chrono::milliseconds;

namespace {

// Sets (or, with nullptr, removes) an environment variable for a scope.
class EnvVar {
public:
    EnvVar(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        value ? ::setenv(name, value, 1) : ::unsetenv(name);
    }
    ~EnvVar() { had_ ? ::setenv(name_, old_.c_str(), 1) : ::unsetenv(name_); }

private:
    const char* name_;
    std::string old_;
    bool had_ = false;
};

double wallNow() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void spin(milliseconds d) {
    const auto until = std::chrono::steady_clock::now() + d;
    volatile unsigned x = 0;
    while (std::chrono::steady_clock::now() < until) x = x + 1;
}

// Collects what a sampler hands over, from its thread.
struct Collected {
    std::mutex m;
    std::vector<TelemetrySample> samples;
    TelemetrySampler::Callback callback() {
        return [this](const TelemetrySample& s) {
            std::lock_guard<std::mutex> lock(m);
            samples.push_back(s);
        };
    }
    std::size_t size() {
        std::lock_guard<std::mutex> lock(m);
        return samples.size();
    }
    std::vector<TelemetrySample> copy() {
        std::lock_guard<std::mutex> lock(m);
        return samples;
    }
};

// What the fake's first GPU reports (fake_nvml.cpp), as the engine must convert it.
void checkFirstFakeGpu(const GpuSample& g) {
    QCOMPARE(g.util_percent, 37.0);
    QCOMPARE(g.mem_used_bytes, std::int64_t(1536) << 20);
    QCOMPARE(g.mem_total_bytes, std::int64_t(80) << 30);
    QCOMPARE(g.temp_c, 61.0);
    QCOMPARE(g.power_w, 212.5);  // milliwatts in NVML
    QCOMPARE(g.sm_clock_mhz, 1755.0);
    QCOMPARE(g.throttle, kThrottleSwPowerCap);
}

GpuSample someGpu(std::uint64_t throttle, double power) {
    GpuSample g;
    g.util_percent = 99.5;
    g.mem_used_bytes = 12345678901;
    g.mem_total_bytes = 85899345920;
    g.temp_c = 83.25;
    g.power_w = power;
    g.sm_clock_mhz = 1980;
    g.throttle = throttle;
    return g;
}

TelemetrySample someSample(std::int64_t session, double t, std::optional<GpuSample> gpu) {
    TelemetrySample s;
    s.t = t;
    s.wall_time = 1.7e9 + t;
    s.session_id = session;
    s.cpu_percent = 187.5;
    s.rss_bytes = 987654321;
    s.mem_available_bytes = 34359738368;
    s.written_bytes = 5000000000 + static_cast<std::int64_t>(t) * 1000;
    s.disk_free_bytes = 123456789012;
    s.gpu = gpu;
    return s;
}

void checkSame(const TelemetrySample& a, const TelemetrySample& b) {
    QCOMPARE(a.t, b.t);
    QCOMPARE(a.wall_time, b.wall_time);
    QCOMPARE(a.session_id, b.session_id);
    QCOMPARE(a.cpu_percent, b.cpu_percent);
    QCOMPARE(a.rss_bytes, b.rss_bytes);
    QCOMPARE(a.mem_available_bytes, b.mem_available_bytes);
    QCOMPARE(a.written_bytes, b.written_bytes);
    QCOMPARE(a.disk_free_bytes, b.disk_free_bytes);
    QCOMPARE(a.gpu.has_value(), b.gpu.has_value());
    if (!a.gpu) return;
    QCOMPARE(a.gpu->util_percent, b.gpu->util_percent);
    QCOMPARE(a.gpu->mem_used_bytes, b.gpu->mem_used_bytes);
    QCOMPARE(a.gpu->mem_total_bytes, b.gpu->mem_total_bytes);
    QCOMPARE(a.gpu->temp_c, b.gpu->temp_c);
    QCOMPARE(std::isnan(a.gpu->power_w), std::isnan(b.gpu->power_w));
    if (!std::isnan(a.gpu->power_w)) QCOMPARE(a.gpu->power_w, b.gpu->power_w);
    QCOMPARE(a.gpu->sm_clock_mhz, b.gpu->sm_clock_mhz);
    QCOMPARE(a.gpu->throttle, b.gpu->throttle);
}

testsupport::CliResult cliInProcess(const QStringList& args) {
    std::vector<std::string> v{"savepoint-cli"};
    for (const QString& a : args) v.push_back(a.toStdString());
    std::ostringstream out, err;
    testsupport::CliResult r;
    r.exitCode = run_cli(v, out, err, /*install_signals=*/false);
    r.out = QString::fromStdString(out.str());
    r.err = QString::fromStdString(err.str());
    return r;
}

}  // namespace

class TestTelemetry : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

private Q_SLOTS:
    void throttleMaskDecodesToNames() {
        using V = std::vector<std::string>;
        QCOMPARE(throttle_reason_names(0), V{});
        QCOMPARE(throttle_reason_names(0x4), V{"SwPowerCap"});
        QCOMPARE(throttle_reason_names(0x41), (V{"GpuIdle", "HwThermalSlowdown"}));
        QCOMPARE(throttle_reason_names(0x1ff),
                 (V{"GpuIdle", "ApplicationsClocksSetting", "SwPowerCap", "HwSlowdown", "SyncBoost",
                    "SwThermalSlowdown", "HwThermalSlowdown", "HwPowerBrakeSlowdown", "DisplayClockSetting"}));
        QCOMPARE(throttle_reason_names(0x600), (V{"0x200", "0x400"}));  // bits NVML added later
        for (std::uint64_t bit : {kThrottleSwPowerCap, kThrottleHwSlowdown, kThrottleSwThermalSlowdown,
                                  kThrottleHwThermalSlowdown, kThrottleHwPowerBrakeSlowdown})
            QVERIFY2(throttle_is_slowdown(bit | kThrottleGpuIdle), qPrintable(QString::number(bit, 16)));
        for (std::uint64_t bit : {std::uint64_t{0}, kThrottleGpuIdle, kThrottleApplicationsClocksSetting,
                                  kThrottleSyncBoost, kThrottleDisplayClockSetting})
            QVERIFY2(!throttle_is_slowdown(bit), qPrintable(QString::number(bit, 16)));
    }

    void processFiguresArePlausible() {
        QVERIFY(process_resident_bytes() > 1 << 20);
        QVERIFY(available_memory_bytes() > 1 << 20);
        QVERIFY(free_disk_bytes(tmp_.path().toStdString()) > 0);
        QCOMPARE(free_disk_bytes("/no/such/directory"), std::int64_t(0));
        // A buffer touched for the first time is resident afterwards.
        const std::int64_t before = process_resident_bytes();
        std::vector<char> big(64 << 20, 1);
        QVERIFY2(process_resident_bytes() >= before + (48 << 20),
                 qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(process_resident_bytes())));
        QCOMPARE(big[12345], char(1));
    }

    void writtenBytesCountWhatThisProcessWrote() {
        struct statfs fs {};
        QCOMPARE(statfs(tmp_.path().toUtf8().constData(), &fs), 0);
        if (fs.f_type == TMPFS_MAGIC) QSKIP("the temporary directory is tmpfs: nothing there is written to storage");
        const std::int64_t n = 8 << 20;
        const std::int64_t before = process_written_bytes();
        const int fd = ::open(tmp_.filePath(QStringLiteral("written.bin")).toUtf8().constData(),
                              O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        QVERIFY(fd >= 0);
        const std::vector<char> block(1 << 20, 'x');
        for (int i = 0; i < n / (1 << 20); ++i)
            QCOMPARE(::write(fd, block.data(), block.size()), ssize_t(block.size()));
        QCOMPARE(::fsync(fd), 0);
        ::close(fd);
        const std::int64_t after = process_written_bytes();
        QVERIFY2(after - before >= n, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    }

    void cpuPercentIsThisProcesssUse() {
        // The meter's figure against this thread's own CPU clock: a busy machine
        // may give the spinning thread less than a core, but the two must agree.
        CpuMeter meter;
        const auto t0 = std::chrono::steady_clock::now();
        const double cpu0 = threadCpuSeconds();
        while (threadCpuSeconds() - cpu0 < 0.25 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3))
            spin(milliseconds(10));
        const double busy = meter.percent();
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double own = 100 * (threadCpuSeconds() - cpu0) / wall;
        QVERIFY2(own > 5, qPrintable(QString::number(own)));
        QVERIFY2(std::fabs(busy - own) < 15, qPrintable(QStringLiteral("meter %1 %, thread %2 %").arg(busy).arg(own)));
        std::this_thread::sleep_for(milliseconds(300));
        const double idle = meter.percent();
        QVERIFY2(idle < 10, qPrintable(QString::number(idle)));
    }

    void samplerKeepsItsPeriodAndStopsAtOnce() {
        Collected got;
        const double started = wallNow() - 100;  // a session that began 100 s ago
        TelemetrySampler sampler(tmp_.path().toStdString(), started, 42, got.callback(), {}, milliseconds(100));
        QCOMPARE(QString::fromStdString(sampler.gpu_status_line()), QStringLiteral("no GPU selected"));
        // The first sample's CPU % is its period's, not the time before start().
        spin(milliseconds(300));
        sampler.start();
        QVERIFY(testsupport::waitUntil([&] { return got.size() >= 6; }, 4000));
        sampler.stop();
        const auto s = got.copy();
        QVERIFY2(s[0].cpu_percent < 15, qPrintable(QString::number(s[0].cpu_percent)));
        QVERIFY2(s[0].t > 100 && s[0].t < 102, qPrintable(QString::number(s[0].t)));
        QVERIFY(std::fabs(s[0].wall_time - wallNow()) < 5);
        for (std::size_t i = 0; i < s.size(); ++i) {
            QCOMPARE(s[i].session_id, std::int64_t(42));
            QVERIFY(!s[i].gpu);
            QVERIFY(s[i].rss_bytes > 0 && s[i].mem_available_bytes > 0 && s[i].disk_free_bytes > 0);
            if (i) QVERIFY(s[i].t > s[i - 1].t);
        }
        const double mean_gap = (s.back().t - s.front().t) / static_cast<double>(s.size() - 1);
        QVERIFY2(mean_gap > 0.08 && mean_gap < 0.2, qPrintable(QString::number(mean_gap)));
        const std::size_t after_stop = got.size();
        std::this_thread::sleep_for(milliseconds(250));
        QCOMPARE(got.size(), after_stop);

        // A long period: stop() wakes the thread rather than waiting the period out.
        TelemetrySampler slow(tmp_.path().toStdString(), wallNow(), 1, got.callback(), {}, milliseconds(60000));
        slow.start();
        std::this_thread::sleep_for(milliseconds(50));
        QElapsedTimer timer;
        timer.start();
        slow.stop();
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
    }

    void callbackThatThrowsDoesNotStopSampling() {
        std::atomic<int> calls{0};
        TelemetrySampler sampler(
            tmp_.path().toStdString(), wallNow(), 1,
            [&](const TelemetrySample&) {
                if (++calls == 1) throw std::runtime_error("registry busy");
            },
            {}, milliseconds(50));
        sampler.start();
        QVERIFY(testsupport::waitUntil([&] { return calls >= 3; }, 3000));
    }

    void withoutNvmlTheGpuIsNull() {
        {
            EnvVar lib("SAVEPOINT_NVML_LIBRARY", "/no/such/dir/libnvidia-ml.so.1");
            QVERIFY(!NvmlLibrary::open());
            const QString why = QString::fromStdString(NvmlLibrary::unavailable_reason());
            QVERIFY2(why.startsWith(QLatin1String("no NVIDIA driver (/no/such/dir/libnvidia-ml.so.1: ")),
                     qPrintable(why));
            Collected got;
            TelemetrySampler sampler(tmp_.path().toStdString(), wallNow(), 7, got.callback(), GpuSelector{"", 0},
                                     milliseconds(50));
            QCOMPARE(QString::fromStdString(sampler.gpu_status_line()), QStringLiteral("no NVIDIA driver"));
            QVERIFY(!sampler.watches_gpu());
            sampler.start();
            QVERIFY(testsupport::waitUntil([&] { return got.size() >= 2; }, 3000));
            sampler.stop();
            for (const auto& s : got.copy()) QVERIFY(!s.gpu);
            QCOMPARE(QString::fromStdString(gpu_status_line(GpuSelector{"", 0})), QStringLiteral("no NVIDIA driver"));
        }
        EnvVar lib("SAVEPOINT_NVML_LIBRARY", nullptr);
        if (NvmlLibrary::open()) QSKIP("this machine has an NVIDIA driver");
        const QString why = QString::fromStdString(NvmlLibrary::unavailable_reason());
        QVERIFY2(why.startsWith(QLatin1String("no NVIDIA driver (libnvidia-ml.so.1: cannot open shared object file")),
                 qPrintable(why));
    }

    void fakeLibraryGivesEveryField() {
        EnvVar lib("SAVEPOINT_NVML_LIBRARY", FAKE_NVML_LIBRARY);
        // Held open by the test too, to read the fake's counters after the engine let it go.
        const std::unique_ptr<void, int (*)(void*)> fake(dlopen(FAKE_NVML_LIBRARY, RTLD_NOW | RTLD_LOCAL), dlclose);
        QVERIFY2(fake, dlerror());
        auto counter = [&](const char* name) { return reinterpret_cast<int (*)()>(dlsym(fake.get(), name))(); };
        {
            auto nvml = NvmlLibrary::open();
            QVERIFY2(nvml, NvmlLibrary::unavailable_reason().c_str());
            QCOMPARE(QString::fromStdString(NvmlLibrary::unavailable_reason()), QString());
            QCOMPARE(QString::fromStdString(nvml->driver_version()), QStringLiteral("999.12.34-fake"));
            QCOMPARE(nvml->device_count(), 2);
            // By bus id, in NVML's form and in CUDA's; by index; an unknown bus id falls back to the index.
            auto first = nvml->find(GpuSelector{"00000000:17:00.0", -1});
            QVERIFY(first);
            QCOMPARE(QString::fromStdString(nvml->device_name(*first)), QStringLiteral("Fake GPU (test NVML)"));
            auto second = nvml->find(GpuSelector{"0000:65:00.0", -1});
            QVERIFY(second);
            QCOMPARE(QString::fromStdString(nvml->device_name(*second)), QStringLiteral("Fake GPU 2 (test NVML)"));
            QCOMPARE(nvml->find(GpuSelector{"", 1}), second);
            QVERIFY(!nvml->find(GpuSelector{"00000000:99:00.0", -1}));
            QCOMPARE(nvml->find(GpuSelector{"00000000:99:00.0", 0}), first);
            QVERIFY(!nvml->find(GpuSelector{"", 2}));

            auto g = nvml->sample(*first);
            QVERIFY(g);
            checkFirstFakeGpu(*g);
            if (QTest::currentTestFailed()) return;  // a helper's QCOMPARE returns from the helper only
            QCOMPARE(throttle_reason_names(g->throttle), std::vector<std::string>{"SwPowerCap"});
            QVERIFY(throttle_is_slowdown(g->throttle));
            // The second reports no power: NaN, not 0.
            auto g2 = nvml->sample(*second);
            QVERIFY(g2);
            QVERIFY(std::isnan(g2->power_w));
            QCOMPARE(g2->util_percent, 73.0);
            QCOMPARE(g2->throttle, kThrottleGpuIdle | kThrottleHwThermalSlowdown);

            // Through the sampler, on its thread.
            Collected got;
            TelemetrySampler sampler(tmp_.path().toStdString(), wallNow(), 3, got.callback(),
                                     GpuSelector{"00000000:17:00.0", 1}, milliseconds(50));
            QVERIFY(sampler.watches_gpu());
            QCOMPARE(QString::fromStdString(sampler.gpu_status_line()), QStringLiteral("Fake GPU (test NVML)"));
            sampler.start();
            QVERIFY(testsupport::waitUntil([&] { return got.size() >= 2; }, 3000));
            sampler.stop();
            for (const auto& s : got.copy()) {
                QVERIFY(s.gpu);
                checkFirstFakeGpu(*s.gpu);
                if (QTest::currentTestFailed()) return;
            }
            QCOMPARE(QString::fromStdString(gpu_status_line(GpuSelector{"", 1})),
                     QStringLiteral("Fake GPU 2 (test NVML)"));
            QVERIFY(QString::fromStdString(gpu_status_line(GpuSelector{"", 5})).contains(QLatin1String("not found")));
        }
        // Every nvmlInit_v2 was matched by an nvmlShutdown once the engine let go.
        QVERIFY(counter("fake_nvml_inits") >= 3);
        QCOMPARE(counter("fake_nvml_shutdowns"), counter("fake_nvml_inits"));
        QVERIFY(counter("fake_nvml_samples") >= 4);
    }

    void driverThatWillNotStartIsNoGpu() {
        EnvVar lib("SAVEPOINT_NVML_LIBRARY", FAKE_NVML_LIBRARY);
        EnvVar fail("FAKE_NVML_FAIL_INIT", "1");
        QVERIFY(!NvmlLibrary::open());
        QCOMPARE(QString::fromStdString(NvmlLibrary::unavailable_reason()),
                 QStringLiteral("no usable NVIDIA driver (nvmlInit: Driver Not Loaded)"));
        TelemetrySampler sampler(
            tmp_.path().toStdString(), wallNow(), 1, [](const TelemetrySample&) {}, GpuSelector{"", 0});
        QVERIFY(!sampler.watches_gpu());
    }

    void registryKeepsEveryFieldAndEveryNull() {
        const QString home = tmp_.filePath(QStringLiteral("home-registry"));
        std::vector<TelemetrySample> rows;
        std::int64_t run = 0, s1 = 0, s2 = 0;
        {
            Registry reg(home.toStdString());
            run = reg.create_run("t", "{}", 10, 100, "cuda:0");
            SessionRow s;
            s.run_id = run;
            s.branch_id = reg.run_by_id(run)->active_branch_id;
            s1 = reg.begin_session(s);
            s2 = reg.begin_session(s);
            rows.push_back(someSample(s1, 1.0, someGpu(kThrottleSwPowerCap, 212.5)));
            rows.push_back(someSample(s1, 2.0, someGpu(0, NAN)));  // no power reading
            rows.push_back(someSample(s1, 3.0, std::nullopt));
            rows.push_back(someSample(s2, 0.5, someGpu(std::uint64_t{1} << 63 | 0x40, 300)));  // every bit kept
            reg.append_telemetry(run, rows);
            reg.append_telemetry(run, {});
        }
        Registry reg(home.toStdString(), Registry::ReadOnly{});  // a new connection: what the file holds
        const auto all = reg.telemetry(run);
        QCOMPARE(all.size(), rows.size());
        for (std::size_t i = 0; i < rows.size() && !QTest::currentTestFailed(); ++i) checkSame(all[i], rows[i]);
        if (QTest::currentTestFailed()) return;
        const auto second = reg.telemetry(run, s2);
        QCOMPARE(second.size(), std::size_t(1));
        checkSame(second[0], rows[3]);
        QVERIFY(reg.telemetry(run, s2 + 100).empty());
        // NULL in the file, not 0: one row has no GPU, one no power reading.
        auto count = [&](const char* where) {
            sqlite3_stmt* st = nullptr;
            const std::string sql = std::string("SELECT count(*) FROM telemetry WHERE ") + where;
            sqlite3_prepare_v2(reg.db(), sql.c_str(), -1, &st, nullptr);
            sqlite3_step(st);
            const int n = sqlite3_column_int(st, 0);
            sqlite3_finalize(st);
            return n;
        };
        QCOMPARE(count("gpu_mem_total_bytes IS NULL AND gpu_util_percent IS NULL AND gpu_throttle IS NULL"), 1);
        QCOMPARE(count("gpu_power_w IS NULL"), 2);
        QCOMPARE(count("gpu_power_w IS NULL AND gpu_temp_c IS NOT NULL"), 1);
    }

    void cliPrintsTelemetry() {
        const QString home = tmp_.filePath(QStringLiteral("home-cli"));
        std::int64_t s1 = 0, s2 = 0;
        {
            Registry reg(home.toStdString());
            const auto run = reg.create_run("t", "{}", 10, 100, "cuda:0");
            reg.create_run("cpu-only", "{}", 10, 100, "cpu");
            SessionRow s;
            s.run_id = run;
            s.branch_id = reg.run_by_id(run)->active_branch_id;
            s1 = reg.begin_session(s);
            s2 = reg.begin_session(s);
            std::vector<TelemetrySample> rows;
            rows.push_back(someSample(s1, 1.0, someGpu(kThrottleSwPowerCap | kThrottleGpuIdle, NAN)));
            rows.push_back(someSample(s1, 2.0, std::nullopt));
            for (int i = 0; i < 600; ++i) rows.push_back(someSample(s2, 1.0 + i, someGpu(0, 250)));
            reg.append_telemetry(run, rows);
        }
        testsupport::CliResult r =
            cliInProcess({"telemetry", "--home", home, "--run", "t", "--session", QString::number(s1), "--json"});
        QVERIFY2(r.exitCode == 0, r.describe());
        bool ok = false;
        const QJsonArray arr = testsupport::parseJsonArray(r.out, &ok);
        QVERIFY2(ok && arr.size() == 2, r.describe());
        const QJsonObject a = arr[0].toObject();
        QCOMPARE(a.value("t").toDouble(), 1.0);
        QCOMPARE(a.value("session").toInteger(), s1);
        QCOMPARE(a.value("cpu_percent").toDouble(), 187.5);
        QCOMPARE(a.value("rss_bytes").toInteger(), qint64(987654321));
        QCOMPARE(a.value("mem_available_bytes").toInteger(), qint64(34359738368));
        QCOMPARE(a.value("written_bytes").toInteger(), qint64(5000001000));
        QCOMPARE(a.value("disk_free_bytes").toInteger(), qint64(123456789012));
        const QJsonObject g = a.value("gpu").toObject();
        QCOMPARE(g.value("util_percent").toDouble(), 99.5);
        QCOMPARE(g.value("mem_used_bytes").toInteger(), qint64(12345678901));
        QCOMPARE(g.value("mem_total_bytes").toInteger(), qint64(85899345920));
        QCOMPARE(g.value("temp_c").toDouble(), 83.25);
        QVERIFY(g.value("power_w").isNull());
        QCOMPARE(g.value("sm_clock_mhz").toDouble(), 1980.0);
        QCOMPARE(g.value("throttle").toInteger(), qint64(5));
        QCOMPARE(g.value("throttle_reasons").toArray(), (QJsonArray{"GpuIdle", "SwPowerCap"}));
        QVERIFY(arr[1].toObject().value("gpu").isNull());

        r = cliInProcess({"telemetry", "--home", home, "--run", "t"});
        QVERIFY2(r.exitCode == 0, r.describe());
        QVERIFY2(r.out.contains(QStringLiteral("session %1 (train, started ").arg(s1)), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("GpuIdle,SwPowerCap")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("slowed     1 of 2 samples (GpuIdle 1, SwPowerCap 1)")), r.describe());
        // 600 samples over ten minutes: a row every 10 s, not every second.
        QVERIFY2(r.out.contains(QStringLiteral("session %1 (train, started ").arg(s2)), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("600 samples over 09:59, a row every 10 s")), r.describe());
        QVERIFY2(r.out.count(QLatin1Char('\n')) < 110, r.describe());
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("power W +250.0 +250.0 +250.0"))), r.describe());

        r = cliInProcess({"telemetry", "--home", home, "--run", "cpu-only"});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QLatin1String("no telemetry for run 'cpu-only'")), r.describe());
        r = cliInProcess({"telemetry", "--home", home, "--run", "cpu-only", "--json"});
        QVERIFY2(r.exitCode == 0 && r.out.trimmed() == QLatin1String("[]"), r.describe());

        // Refusals, worded as the other commands word them.
        r = cliInProcess({"telemetry", "--home", home, "--run", "nope"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("error: --run: no run named 'nope' in %1 (see: savepoint-cli runs)")
                                    .arg(QDir(home).absolutePath())),
                 r.describe());
        r = cliInProcess({"telemetry", "--home", home, "--run", "t", "--session", "999"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--session: expected a session of run 't' (%1, %2").arg(s1).arg(s2)),
                 r.describe());
        const QString empty = tmp_.filePath(QStringLiteral("home-empty"));
        r = cliInProcess({"telemetry", "--home", empty, "--run", "t"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("no run named 't'")), r.describe());
    }
};

QTEST_GUILESS_MAIN(TestTelemetry)
#include "test_telemetry.moc"
