// The parts of engine/remote/ that need no server: the s3:// URI, the
// credentials from the AWS variables and files, the object keys, the
// manifest's round trip, and the XML S3 answers with.
//
//   ctest --test-dir build -R test_remote_units --output-on-failure
#include "platform/errors.h"
#include "remote/remote_manifest.h"
#include "remote/s3_settings.h"
#include "remote/s3_uri.h"
#include "remote/s3_xml.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <fstream>

using namespace savepoint;

namespace {

// Sets (or, with nullptr, unsets) an environment variable for one scope.
struct EnvVar {
    EnvVar(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        value ? ::setenv(name, value, 1) : ::unsetenv(name);
    }
    ~EnvVar() { had_ ? ::setenv(name_, old_.c_str(), 1) : ::unsetenv(name_); }
    const char* name_;
    std::string old_;
    bool had_ = false;
};

}  // namespace

class TestRemoteUnits : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void uriSplitsBucketAndPrefix() {
        S3Uri u = parse_s3_uri("s3://my-bucket.1/runs/team_a/");
        QCOMPARE(QString::fromStdString(u.bucket), QStringLiteral("my-bucket.1"));
        QCOMPARE(QString::fromStdString(u.prefix), QStringLiteral("runs/team_a"));
        QCOMPARE(QString::fromStdString(u.text()), QStringLiteral("s3://my-bucket.1/runs/team_a"));
        QCOMPARE(QString::fromStdString(parse_s3_uri("s3://bkt").key("r/x")), QStringLiteral("r/x"));
    }

    void badUrisNameWhatIsWrong_data() {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("says");
        QTest::newRow("another scheme") << "https://b/x"
                                        << "only s3:// is known";
        QTest::newRow("bucket too short") << "s3://ab/x"
                                          << "the bucket name has 2 characters";
        QTest::newRow("capital in bucket") << "s3://Bucket/x"
                                           << "the bucket name holds 'B'";
        QTest::newRow("space in prefix") << "s3://bucket/a b"
                                         << "the prefix holds ' '";
        QTest::newRow("empty segment") << "s3://bucket/a//b"
                                       << "an empty path segment";
    }

    void badUrisNameWhatIsWrong() {
        QFETCH(QString, uri);
        QFETCH(QString, says);
        try {
            parse_s3_uri(uri.toStdString());
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("remote"));
            QVERIFY2(QString::fromUtf8(e.what()).contains(says), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).contains(uri), e.what());
        }
    }

    void credentialsFromVariablesBeforeFiles() {
        QTemporaryDir home;
        EnvVar h("HOME", home.path().toUtf8().constData());
        EnvVar a("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE"), s("AWS_SECRET_ACCESS_KEY", "s3cr3t"),
            t("AWS_SESSION_TOKEN", "tok");
        EnvVar r("AWS_REGION", "eu-west-3"), e("AWS_ENDPOINT_URL", "http://127.0.0.1:9000/"),
            e2("AWS_ENDPOINT_URL_S3", nullptr);
        S3Settings st = s3_settings_from_environment();
        QCOMPARE(QString::fromStdString(st.access_key), QStringLiteral("AKIAEXAMPLE"));
        QCOMPARE(QString::fromStdString(st.session_token), QStringLiteral("tok"));
        QCOMPARE(QString::fromStdString(st.region), QStringLiteral("eu-west-3"));
        QCOMPARE(QString::fromStdString(st.endpoint), QStringLiteral("http://127.0.0.1:9000"));
        QVERIFY(st.path_style());
    }

    void credentialsFromTheProfileInTheFiles() {
        QTemporaryDir home;
        QDir(home.path()).mkpath(QStringLiteral(".aws"));
        std::ofstream(home.filePath(QStringLiteral(".aws/credentials")).toStdString())
            << "[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = d\n\n[lab]\n"
               "aws_access_key_id = LABKEY\naws_secret_access_key = labsecret\n";
        std::ofstream(home.filePath(QStringLiteral(".aws/config")).toStdString())
            << "[default]\nregion = us-west-2\n[profile lab]\nregion = ap-south-1\n";
        EnvVar h("HOME", home.path().toUtf8().constData());
        EnvVar a("AWS_ACCESS_KEY_ID", nullptr), s("AWS_SECRET_ACCESS_KEY", nullptr), t("AWS_SESSION_TOKEN", nullptr);
        EnvVar r("AWS_REGION", nullptr), r2("AWS_DEFAULT_REGION", nullptr), e("AWS_ENDPOINT_URL", nullptr),
            e2("AWS_ENDPOINT_URL_S3", nullptr), f1("AWS_SHARED_CREDENTIALS_FILE", nullptr),
            f2("AWS_CONFIG_FILE", nullptr);
        {
            EnvVar p("AWS_PROFILE", "lab");
            S3Settings st = s3_settings_from_environment();
            QCOMPARE(QString::fromStdString(st.access_key), QStringLiteral("LABKEY"));
            QCOMPARE(QString::fromStdString(st.secret_key), QStringLiteral("labsecret"));
            QCOMPARE(QString::fromStdString(st.region), QStringLiteral("ap-south-1"));
            QVERIFY(!st.path_style());  // AWS itself: virtual-hosted
        }
        {
            EnvVar p("AWS_PROFILE", "nobody");
            try {
                s3_settings_from_environment();
                QFAIL("a profile without keys was accepted");
            } catch (const InputError& err) {
                QVERIFY2(QString::fromUtf8(err.what()).contains(QLatin1String("[nobody]")), err.what());
                // Never a secret in a message, even one of another profile.
                QVERIFY(!QString::fromUtf8(err.what()).contains(QLatin1String("labsecret")));
            }
        }
    }

    void manifestKeysParseBack() {
        const S3Uri u = parse_s3_uri("s3://bucket/a/b");
        const std::string key = remote_manifest_key(u, "run-1", 12);
        QCOMPARE(QString::fromStdString(key), QStringLiteral("a/b/run-1/manifests/ckpt-00000012.json"));
        QCOMPARE(QString::fromStdString(remote_file_key(u, "run-1", 12)),
                 QStringLiteral("a/b/run-1/checkpoints/ckpt-00000012.svpt"));
        std::string run;
        std::int64_t id = 0;
        QVERIFY(parse_manifest_key(u, key, run, id));
        QCOMPARE(QString::fromStdString(run), QStringLiteral("run-1"));
        QCOMPARE(id, std::int64_t(12));
        QVERIFY(!parse_manifest_key(u, "a/b/run-1/checkpoints/ckpt-00000012.svpt", run, id));
        QVERIFY(!parse_manifest_key(u, "a/b/run-1/manifests/ckpt-00000012.json.tmp", run, id));
        QVERIFY(!parse_manifest_key(u, "other/run-1/manifests/ckpt-00000012.json", run, id));
    }

    void manifestRoundTrip() {
        Manifest m;
        m.run.name = "r";
        m.run.config_json = R"({"lr":0.001})";
        m.run.steps_per_epoch = 100;
        m.run.total_steps = 300;
        BranchRow b;
        b.id = 3;
        b.parent_branch_id = 1;
        b.fork_checkpoint_id = 7;
        b.lr = 1e-4;
        m.branches = {b};
        m.checkpoint.id = 9;
        m.checkpoint.branch_id = 3;
        m.checkpoint.parent_id = 7;
        m.checkpoint.global_step = 130;
        m.checkpoint.kind = CheckpointKind::Emergency;
        m.checkpoint.bytes = 4891432;
        m.checkpoint.sha256 = "ab";
        m.checkpoint.val_loss = 0.25;  // train_loss stays NaN: null in JSON, NaN again
        m.file_sha256 = "cd";
        const Manifest back = parse_manifest(nlohmann::json::parse(manifest_json(m).dump()));
        QCOMPARE(back.checkpoint.id, std::int64_t(9));
        QCOMPARE(*back.checkpoint.parent_id, std::int64_t(7));
        QCOMPARE(back.checkpoint.kind, CheckpointKind::Emergency);
        QCOMPARE(back.checkpoint.bytes, std::int64_t(4891432));
        QCOMPARE(back.checkpoint.val_loss, 0.25);
        QVERIFY(std::isnan(back.checkpoint.train_loss));
        QCOMPARE(*back.branches.at(0).lr, 1e-4);
        QCOMPARE(*back.branches.at(0).fork_checkpoint_id, std::int64_t(7));
        QCOMPARE(QString::fromStdString(back.file_sha256), QStringLiteral("cd"));
        QCOMPARE(QString::fromStdString(back.run.config_json), QString::fromStdString(m.run.config_json));
        QVERIFY_THROWS_EXCEPTION(std::exception, parse_manifest(nlohmann::json::parse(R"({"format":"x"})")));
    }

    void xmlValuesAndBlocks() {
        const std::string xml =
            "<ListBucketResult><Contents><Key>a&amp;b</Key><ETag>&quot;e1&quot;</ETag></Contents>"
            "<Contents><Key>c</Key><ETag>\"e2-5\"</ETag></Contents><IsTruncated>false</IsTruncated></ListBucketResult>";
        const auto blocks = xml_blocks(xml, "Contents");
        QCOMPARE(blocks.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(xml_value(blocks[0], "Key")), QStringLiteral("a&b"));
        QCOMPARE(QString::fromStdString(unquote_etag(xml_value(blocks[0], "ETag"))), QStringLiteral("e1"));
        QCOMPARE(QString::fromStdString(unquote_etag(xml_value(blocks[1], "ETag"))), QStringLiteral("e2-5"));
        QCOMPARE(QString::fromStdString(xml_value(xml, "Missing")), QString());
    }
};

QTEST_GUILESS_MAIN(TestRemoteUnits)
#include "test_remote_units.moc"
