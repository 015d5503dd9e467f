// Replays the fuzzers' seed corpora and every input a fuzzer ever crashed on
// (tests/fuzz/regressions/<target>/) through the same entry points, in the
// normal build: each must be refused or accepted cleanly, never crash.
// A new crash found by tests/fuzz/build-and-run.sh is copied into
// tests/fuzz/regressions/<target>/ and so becomes part of this test.
//
//   ctest --test-dir build -R test_fuzz_regressions --output-on-failure
#include "reliability_support.h"

#include "cli_app.h"
#include "formats/idx_reader.h"
#include "platform/errors.h"
#include "storage/sha256.h"

#include <QtTest>

#include <cstring>
#include <sstream>

namespace {

QList<QByteArray> inputs(const QString& target) {
    QList<QByteArray> out;
    for (const char* kind : {"corpus", "regressions"}) {
        QDir d(QStringLiteral(SAVEPOINT_SOURCE_DIR "/tests/fuzz/%1/%2").arg(QLatin1String(kind), target));
        for (const auto& f : d.entryList(QDir::Files)) out << testsupport::readAll(d.filePath(f));
    }
    return out;
}

}  // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void idx() {
        const auto all = inputs(QStringLiteral("idx"));
        QVERIFY(!all.isEmpty());
        for (const auto& in : all) {
            if (in.isEmpty()) continue;
            std::vector<std::uint8_t> b(in.begin() + 1, in.end());
            try {
                savepoint::parse_idx_images(b, "images");
            } catch (const savepoint::InputError&) {
            }
            try {
                savepoint::parse_idx_labels(b, "labels");
            } catch (const savepoint::InputError&) {
            }
            QTemporaryFile f;
            QVERIFY(f.open());
            f.write(in.mid(1));
            f.flush();
            try {
                savepoint::read_maybe_gzipped(f.fileName().toStdString(), 1u << 24);
            } catch (const savepoint::InputError&) {
            }
        }
    }

    void checkpoint() {
        const auto all = inputs(QStringLiteral("checkpoint"));
        QVERIFY(!all.isEmpty());
        int ok = 0;
        for (const auto& in : all) {
            const auto* d = reinterpret_cast<const std::uint8_t*>(in.constData());
            try {
                savepoint::parse_checkpoint_body(d, std::size_t(in.size()), "x");
            } catch (const savepoint::CorruptCheckpoint&) {
            }
            std::vector<std::uint8_t> b(d, d + in.size());
            auto v = savepoint::verify_checkpoint_bytes(b, "x");
            QVERIFY(v.ok || !v.error.empty());
            ok += v.ok;
        }
        QVERIFY(ok >= 2);  // the valid seeds (a version 1 file and a version 2 file) verify
    }

    void cli() {
        const auto all = inputs(QStringLiteral("cli"));
        QVERIFY(!all.isEmpty());
        QTemporaryDir home;
        for (const auto& in : all) {
            std::vector<std::string> args;
            for (const auto& part : in.split('\n')) args.push_back(part.toStdString());
            // As in the fuzzer: never train here; only parsing and refusals.
            bool trains = false;
            for (const auto& a : args)
                trains = trains || a == "train" || a == "resume" || a.find("home") != std::string::npos;
            if (trains) args.push_back("--help");
            args.push_back("--home");
            args.push_back(home.path().toStdString());
            std::ostringstream out, err;
            const int code = savepoint::run_cli(args, out, err, false);
            QVERIFY2(code >= 0 && code <= 3, in.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "test_fuzz_regressions.moc"
