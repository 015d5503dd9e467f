// Telemetry while a run trains (engine/training/session_telemetry.cpp): the
// samples reach the registry with the session they belong to, `savepoint-cli
// telemetry` prints them, a home running out of room is recorded once as a
// low_disk event, and a run told to take none takes none. The sampler itself
// and the NVML path are test_telemetry's.
#include "registry/registry.h"
#include "training/trainer.h"

#include "test_home.h"
#include "train_configs.h"

#include <QtTest>

using namespace savepoint;

namespace {

TrainResult trainFor(const QString& home, const std::string& run, double telemetry_seconds,
                     std::int64_t low_disk_bytes = std::int64_t(1) << 30) {
    TrainRequest req;
    req.home = home.toStdString();
    req.run_name = run;
    // ~1.5 s of training on one thread, whatever the machine: enough for several samples at 0.2 s.
    req.config = testsupport::syntheticMlp(1, 1500, 64, 500);
    req.telemetry_seconds = telemetry_seconds;
    req.low_disk_bytes = low_disk_bytes;
    Trainer t(req);
    return t.run();
}

int eventsOf(Registry& reg, std::int64_t run_id, EventKind kind) {
    int n = 0;
    for (const auto& e : reg.events(run_id)) n += e.kind == kind;
    return n;
}

}  // namespace

class TestSessionTelemetry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void samplesReachTheRegistry();
    void lowDiskRecordedOnce();
    void noneWhenTurnedOff();
};

void TestSessionTelemetry::samplesReachTheRegistry() {
    QTemporaryDir tmp;
    const TrainResult r = trainFor(tmp.path(), "t", 0.2);
    QCOMPARE(r.outcome, Outcome::Finished);
    Registry reg(tmp.path().toStdString());
    const auto run = reg.find_run("t");
    const auto samples = reg.telemetry(run->id);
    const double seconds = r.loop_seconds;
    QVERIFY2(samples.size() >= 3 && static_cast<double>(samples.size()) <= seconds / 0.2 + 2,
             qPrintable(QStringLiteral("%1 samples in %2 s").arg(samples.size()).arg(seconds)));
    const std::int64_t session = reg.sessions(run->id).back().id;
    double t = -1;
    for (const auto& s : samples) {
        QCOMPARE(s.session_id, session);
        QVERIFY(s.t > t);
        t = s.t;
        QVERIFY(s.rss_bytes > 50 * 1024 * 1024);  // LibTorch and the dataset
        QVERIFY(s.mem_available_bytes > 0 && s.disk_free_bytes > 0);
        QVERIFY(s.cpu_percent >= 0 && s.cpu_percent < 100 * 64);
        QVERIFY(!s.gpu);  // trained on the CPU
    }
    QVERIFY2(samples.back().t <= seconds + 1, "t counts from the session's start");
    QCOMPARE(eventsOf(reg, run->id, EventKind::LowDisk), 0);

    const auto cli = testsupport::runCli({"telemetry", "--home", tmp.path(), "--run", "t", "--json"});
    QVERIFY2(cli.exitCode == 0, cli.describe());
    const QJsonArray rows = testsupport::parseJsonArray(cli.out);
    QCOMPARE(rows.size(), static_cast<int>(samples.size()));
    const QJsonObject first = rows.first().toObject();
    for (const char* key :
         {"t", "session", "cpu_percent", "rss_bytes", "mem_available_bytes", "written_bytes", "disk_free_bytes", "gpu"})
        QVERIFY2(first.contains(key), key);
    QVERIFY(first["gpu"].isNull());
    QCOMPARE(first["session"].toInteger(), session);
}

void TestSessionTelemetry::lowDiskRecordedOnce() {
    QTemporaryDir tmp;
    // Every file system is "low" below 2^62 bytes: the event must come, and only once a session.
    const TrainResult r = trainFor(tmp.path(), "low", 0.2, std::int64_t(1) << 62);
    QCOMPARE(r.outcome, Outcome::Finished);
    Registry reg(tmp.path().toStdString());
    const auto run = reg.find_run("low");
    QCOMPARE(eventsOf(reg, run->id, EventKind::LowDisk), 1);
    for (const auto& e : reg.events(run->id))
        if (e.kind == EventKind::LowDisk)
            QVERIFY2(QString::fromStdString(e.message).contains(" MiB free on " + tmp.path()), e.message.c_str());
}

void TestSessionTelemetry::noneWhenTurnedOff() {
    QTemporaryDir tmp;
    QCOMPARE(trainFor(tmp.path(), "off", 0).outcome, Outcome::Finished);
    Registry reg(tmp.path().toStdString());
    QVERIFY(reg.telemetry(reg.find_run("off")->id).empty());
}

QTEST_GUILESS_MAIN(TestSessionTelemetry)
#include "test_session_telemetry.moc"
