// Tests for sha256_streams (engine/sha256_streams.cpp): every digest equals
// OpenSSL's SHA-256 of the same bytes, for lengths around every padding edge
// (55, 56, 63, 64 ... bytes), for ranges split anywhere (blocks gathered across
// ranges), for empty streams and empty ranges, for one, two, three and more
// streams of unequal lengths (the lanes pair and re-pair), through the SHA-NI
// lanes where the CPU has them and through the OpenSSL fallback.
#include "storage/sha256.h"
#include "storage/sha256_streams.h"

#include <QtTest>

#include <random>

using namespace savepoint;

namespace {

std::vector<std::uint8_t> randomBytes(std::size_t n, std::mt19937& rng) {
    std::vector<std::uint8_t> v(n);
    for (auto& b : v) b = static_cast<std::uint8_t>(rng());
    return v;
}

std::array<std::uint8_t, 32> reference(const std::vector<std::uint8_t>& bytes) {
    Sha256 h;
    h.update(bytes.data(), bytes.size());
    return h.finish();
}

// `bytes` as ranges cut at random points (empty ranges included).
Sha256Stream cut(const std::vector<std::uint8_t>& bytes, std::mt19937& rng, int pieces) {
    Sha256Stream s;
    std::vector<std::size_t> cuts{0, bytes.size()};
    for (int i = 0; i < pieces; ++i) cuts.push_back(bytes.empty() ? 0 : rng() % (bytes.size() + 1));
    std::sort(cuts.begin(), cuts.end());
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
        s.ranges.push_back({bytes.data() + cuts[i], cuts[i + 1] - cuts[i]});
    return s;
}

QString hex(const std::array<std::uint8_t, 32>& d) { return QString::fromStdString(to_hex(d.data(), d.size())); }

}  // namespace

class TestSha256Streams : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void engines_data() {
        QTest::addColumn<int>("engine");
        QTest::newRow("auto (SHA-NI lanes where present)") << int(Sha256Engine::Auto);
        QTest::newRow("OpenSSL") << int(Sha256Engine::OpenSsl);
    }

    void knownAnswers_data() { engines_data(); }
    void knownAnswers() {
        // FIPS 180-2 examples: "abc" and the 448-bit message, plus the empty string.
        QFETCH(int, engine);
        const std::string abc = "abc", two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        std::vector<Sha256Stream> s(3);
        s[0].ranges = {{abc.data(), abc.size()}};
        s[1].ranges = {{two.data(), 10}, {two.data() + 10, two.size() - 10}};
        sha256_streams(s, static_cast<Sha256Engine>(engine));
        QCOMPARE(hex(s[0].digest), QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(hex(s[1].digest), QStringLiteral("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
        QCOMPARE(hex(s[2].digest), QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    }

    void everyPaddingEdgeInEveryPairing_data() { engines_data(); }
    void everyPaddingEdgeInEveryPairing() {
        QFETCH(int, engine);
        std::mt19937 rng(1);
        std::vector<std::vector<std::uint8_t>> messages;
        for (std::size_t n = 0; n <= 200; ++n) messages.push_back(randomBytes(n, rng));
        // Two at a time, each length against its neighbours, so both lanes see every edge.
        for (std::size_t i = 0; i + 1 < messages.size(); ++i) {
            std::vector<Sha256Stream> s;
            s.push_back(cut(messages[i], rng, 0));
            s.push_back(cut(messages[messages.size() - 1 - i], rng, 2));
            sha256_streams(s, static_cast<Sha256Engine>(engine));
            QCOMPARE(hex(s[0].digest), hex(reference(messages[i])));
            QCOMPARE(hex(s[1].digest), hex(reference(messages[messages.size() - 1 - i])));
        }
    }

    void unequalStreamsSplitAnywhere_data() { engines_data(); }
    void unequalStreamsSplitAnywhere() {
        QFETCH(int, engine);
        std::mt19937 rng(2);
        for (int round = 0; round < 60; ++round) {
            const int count = 1 + static_cast<int>(rng() % 5);
            std::vector<std::vector<std::uint8_t>> messages;
            std::vector<Sha256Stream> s;
            for (int i = 0; i < count; ++i) {
                // Mostly a few blocks to a few hundred KiB; sometimes a turn's worth exactly.
                std::size_t n = rng() % 4 == 0 ? 64 * 64 * (1 + rng() % 3) : rng() % (300 * 1024);
                messages.push_back(randomBytes(n, rng));
            }
            for (const auto& m : messages) s.push_back(cut(m, rng, static_cast<int>(rng() % 8)));
            sha256_streams(s, static_cast<Sha256Engine>(engine));
            for (int i = 0; i < count; ++i)
                QVERIFY2(s[static_cast<std::size_t>(i)].digest == reference(messages[static_cast<std::size_t>(i)]),
                         qPrintable(QStringLiteral("round %1, stream %2 of %3, %4 bytes")
                                        .arg(round)
                                        .arg(i)
                                        .arg(count)
                                        .arg(messages[static_cast<std::size_t>(i)].size())));
        }
    }

    void sameBytesInTwoStreamsGiveTheSameDigest() {
        // A checkpoint hashes the parameters both in the file and on their own.
        std::mt19937 rng(3);
        const auto bytes = randomBytes(1 << 20, rng);
        std::vector<Sha256Stream> s(2);
        s[0].ranges = {{bytes.data(), bytes.size()}};
        s[1] = cut(bytes, rng, 100);
        sha256_streams(s);
        QCOMPARE(hex(s[0].digest), hex(s[1].digest));
        QCOMPARE(hex(s[0].digest), hex(reference(bytes)));
    }

    void usesTheLanesExactlyWhereTheCpuHasShaNi() {
        // Detection agrees with the kernel's view of the CPU: the lanes are
        // neither missed on a machine that has them nor tried on one without.
        QFile f(QStringLiteral("/proc/cpuinfo"));
        if (!f.open(QIODevice::ReadOnly)) QSKIP("no /proc/cpuinfo");
        const QByteArray info = f.readAll();
        const bool x86 = info.contains("vendor_id");
        if (!x86) QSKIP("not an x86 CPU: the OpenSSL path is the only one");
        const bool flags = info.contains(" sha_ni") && info.contains(" sse4_1") && info.contains(" ssse3");
        QCOMPARE(sha256_streams_use_sha_ni(), flags);
    }
};

QTEST_APPLESS_MAIN(TestSha256Streams)
#include "test_sha256_streams.moc"
