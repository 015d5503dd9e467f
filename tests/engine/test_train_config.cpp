// Tests for TrainConfig (engine/training/train_config.cpp): validation messages name
// the flag, the allowed values and the value found; --save-freq parsing; run
// names; and the JSON round trip that every checkpoint and the registry rely
// on (a resumed run must continue with exactly the stored settings).
#include "platform/errors.h"
#include "training/train_config.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>

using namespace savepoint;

namespace {

QString inputErrorOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("WRONG EXCEPTION TYPE: ") + QString::fromStdString(e.what());
    }
    return QString();
}

}  // namespace

class TestTrainConfig : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void defaultsMatchTheIssue() {
        TrainConfig c;
        QCOMPARE(QString::fromStdString(c.data), QStringLiteral("fashion-mnist"));
        QCOMPARE(QString::fromStdString(c.model), QStringLiteral("mlp"));
        QCOMPARE(QString::fromStdString(c.optimizer), QStringLiteral("adam"));
        QCOMPARE(c.batch, std::int64_t(32));
        QCOMPARE(c.lr, 1e-3);
        QCOMPARE(c.keep, std::int64_t(5));
        QCOMPARE(c.steps_per_epoch, std::int64_t(0));
        QCOMPARE(c.save_every_steps, std::int64_t(0));
        QCOMPARE(QString::fromStdString(c.device), QStringLiteral("auto"));
        QVERIFY(inputErrorOf([&] { c.validate(); }).isEmpty());
    }

    void validBoundaryValuesPass() {
        TrainConfig c;
        c.epochs = 1;
        c.batch = 1;
        c.lr = 10;
        c.keep = 1;
        c.threads = 0;
        c.save_every_steps = 1;
        c.model = "cnn";
        c.optimizer = "sgd";
        c.device = "cpu";
        c.async_policy = "skip";
        c.data = "synthetic";
        QVERIFY(inputErrorOf([&] { c.validate(); }).isEmpty());
        c.model = "dnn";
        c.device = "cuda";  // validity of the name; availability is checked when training starts
        c.batch = 65536;
        c.epochs = 1000000;
        QVERIFY(inputErrorOf([&] { c.validate(); }).isEmpty());
    }

    void invalidFieldsNameFieldAndValue_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("model") << "model"
                               << "xyz"
                               << "--model: expected mlp, dnn, cnn or a TorchScript file (FILE.pt), found 'xyz'";
        QTest::newRow("optimizer") << "optimizer"
                                   << "rmsprop"
                                   << "--optimizer: expected adam|sgd, found 'rmsprop'";
        QTest::newRow("device") << "device"
                                << "tpu"
                                << "--device: expected auto|cpu|cuda, found 'tpu'";
        QTest::newRow("async") << "async_policy"
                               << "later"
                               << "--async-policy: expected wait|skip|defer, found 'later'";
        QTest::newRow("epochs 0") << "epochs"
                                  << "0"
                                  << "--epochs: expected an integer from 1 to 1000000, found 0";
        QTest::newRow("epochs huge") << "epochs"
                                     << "1000001"
                                     << "--epochs: expected an integer from 1 to 1000000, found 1000001";
        QTest::newRow("batch -1") << "batch"
                                  << "-1"
                                  << "--batch: expected an integer from 1 to 65536, found -1";
        QTest::newRow("batch 0") << "batch"
                                 << "0"
                                 << "--batch: expected an integer from 1 to 65536, found 0";
        QTest::newRow("steps -1") << "steps_per_epoch"
                                  << "-1"
                                  << "--steps-per-epoch: expected an integer from 0 to 1000000000, found -1";
        QTest::newRow("save -3") << "save_every_steps"
                                 << "-3"
                                 << "--save-freq: expected an integer from 0 to 1000000000, found -3";
        QTest::newRow("keep 0") << "keep"
                                << "0"
                                << "--keep: expected an integer from 1 to 100000, found 0";
        QTest::newRow("threads -1") << "threads"
                                    << "-1"
                                    << "--threads: expected an integer from 0 to 1024, found -1";
        QTest::newRow("lr 0") << "lr"
                              << "0"
                              << "--lr: expected a number greater than 0 and at most 10, found 0";
        QTest::newRow("lr -1") << "lr"
                               << "-1"
                               << "--lr: expected a number greater than 0 and at most 10, found -1";
        QTest::newRow("lr 11") << "lr"
                               << "11"
                               << "--lr: expected a number greater than 0 and at most 10, found 11";
        QTest::newRow("lr nan") << "lr"
                                << "nan"
                                << "--lr: expected a number greater than 0 and at most 10, found nan";
        QTest::newRow("lr inf") << "lr"
                                << "inf"
                                << "--lr: expected a number greater than 0 and at most 10, found inf";
        QTest::newRow("data empty") << "data"
                                    << ""
                                    << "--data: expected fashion-mnist, synthetic or a directory, found ''";
    }
    void invalidFieldsNameFieldAndValue() {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        TrainConfig c;
        const std::string v = value.toStdString();
        if (field == "model")
            c.model = v;
        else if (field == "optimizer")
            c.optimizer = v;
        else if (field == "device")
            c.device = v;
        else if (field == "async_policy")
            c.async_policy = v;
        else if (field == "epochs")
            c.epochs = value.toLongLong();
        else if (field == "batch")
            c.batch = value.toLongLong();
        else if (field == "steps_per_epoch")
            c.steps_per_epoch = value.toLongLong();
        else if (field == "save_every_steps")
            c.save_every_steps = value.toLongLong();
        else if (field == "keep")
            c.keep = value.toLongLong();
        else if (field == "threads")
            c.threads = value.toLongLong();
        else if (field == "lr")
            c.lr = value == "nan"   ? std::nan("")
                   : value == "inf" ? std::numeric_limits<double>::infinity()
                                    : value.toDouble();
        else if (field == "data")
            c.data = v;
        else
            QFAIL("unknown field in test table");
        QCOMPARE(inputErrorOf([&] { c.validate(); }), expected);
    }

    // The rule a refusal carries is the one validate() checks, so a front end
    // can word it itself; the CLI's text stays the rule's English.
    void refusalCarriesTheFieldsRule() {
        TrainConfig c;
        c.batch = 0;
        try {
            c.validate();
            QFAIL("batch 0 passed");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("batch"));
            QVERIFY(e.rule().kind == FieldRule::Kind::Integers);
            QCOMPARE(e.rule().lo, 1.0);
            QCOMPARE(e.rule().hi, 65536.0);
            QCOMPARE(QString::fromStdString(e.expected()), QStringLiteral("an integer from 1 to 65536"));
        }
        c = TrainConfig();
        c.optimizer = "rmsprop";
        try {
            c.validate();
            QFAIL("optimizer rmsprop passed");
        } catch (const InputError& e) {
            QVERIFY(e.rule().kind == FieldRule::Kind::OneOf);
            QVERIFY(e.rule().choices == (std::vector<std::string>{"adam", "sgd"}));
        }
        QVERIFY(TrainConfig::rule("lr").lo_excluded);
        QVERIFY(!TrainConfig::rule("lr").admits(0.0));
        QVERIFY(TrainConfig::rule("lr").admits(10.0));
        QVERIFY(TrainConfig::rule("seed").kind == FieldRule::Kind::None);
    }

    void parseSaveFreq_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("steps");  // -1: must be refused
        QTest::newRow("epoch") << "epoch" << qint64(0);
        QTest::newRow("30") << "30" << qint64(30);
        QTest::newRow("1") << "1" << qint64(1);
        QTest::newRow("0") << "0" << qint64(-1);
        QTest::newRow("negative") << "-5" << qint64(-1);
        QTest::newRow("abc") << "abc" << qint64(-1);
        QTest::newRow("trailing junk") << "12abc" << qint64(-1);
        QTest::newRow("empty") << "" << qint64(-1);
        QTest::newRow("Epoch") << "Epoch" << qint64(-1);
        QTest::newRow("space") << "30 " << qint64(-1);
        QTest::newRow("overflow") << "99999999999999999999999" << qint64(-1);
    }
    void parseSaveFreq() {
        QFETCH(QString, text);
        QFETCH(qint64, steps);
        if (steps >= 0) {
            QCOMPARE(qint64(parse_save_freq(text.toStdString())), steps);
            QCOMPARE(QString::fromStdString(save_freq_text(steps)), steps == 0 ? QStringLiteral("epoch") : text);
        } else {
            QCOMPARE(
                inputErrorOf([&] { parse_save_freq(text.toStdString()); }),
                QStringLiteral("--save-freq: expected 'epoch' or a positive number of steps, found '%1'").arg(text));
        }
    }

    void runNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("simple") << "tf" << true;
        QTest::newRow("all classes") << "Run_1.v-2" << true;
        QTest::newRow("64 chars") << QString(64, QLatin1Char('a')) << true;
        QTest::newRow("inner dot") << "a..b" << true;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("65 chars") << QString(65, QLatin1Char('a')) << false;
        QTest::newRow("leading dot") << ".hidden" << false;
        QTest::newRow("dot dot") << ".." << false;
        QTest::newRow("slash") << "a/b" << false;
        QTest::newRow("traversal") << "../etc" << false;
        QTest::newRow("space") << "a b" << false;
        QTest::newRow("unicode") << QString::fromUtf8("r\xc3\xbcn") << false;
        QTest::newRow("quote") << "a'b" << false;
    }
    void runNames() {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        const QByteArray utf8 = name.toUtf8();
        const std::string n(utf8.constData(), std::size_t(utf8.size()));
        const QString err = inputErrorOf([&] { validate_run_name(n); });
        if (valid) {
            QVERIFY2(err.isEmpty(), qPrintable(err));
        } else {
            QVERIFY2(err.startsWith(QLatin1String("--run: expected 1 to 64 characters")), qPrintable(err));
            QVERIFY2(err.endsWith(QLatin1String("found '") + QString::fromUtf8(utf8) + QLatin1String("'")),
                     qPrintable(err));
        }
    }

    void jsonRoundTripKeepsEveryField() {
        TrainConfig c;
        c.data = "/some/dir";
        c.model = "cnn";
        c.optimizer = "sgd";
        c.epochs = 7;
        c.steps_per_epoch = 33;
        c.batch = 17;
        c.lr = 0.0123456789012345;
        c.seed = 18446744073709551557ull;  // > INT64_MAX: must survive as unsigned
        c.save_every_steps = 11;
        c.keep = 9;
        c.device = "cpu";
        c.threads = 3;
        c.async_policy = "skip";
        const nlohmann::json j = c.to_json();
        for (const char* k : {"data", "model", "optimizer", "epochs", "steps_per_epoch", "batch", "lr", "seed",
                              "save_every_steps", "keep", "device", "threads", "async_policy"})
            QVERIFY2(j.contains(k), k);
        // Through text, as stored in the registry and the checkpoint meta.
        TrainConfig back = TrainConfig::from_json(nlohmann::json::parse(j.dump()), "test");
        QCOMPARE(QString::fromStdString(back.to_json().dump()), QString::fromStdString(j.dump()));
        QCOMPARE(back.seed, c.seed);
        QCOMPARE(back.lr, c.lr);  // bit-exact double round trip
        QCOMPARE(back.steps_per_epoch, std::int64_t(33));
        QCOMPARE(QString::fromStdString(back.async_policy), QStringLiteral("skip"));
    }

    void fromJsonDefaultsAndUnknownKeys() {
        TrainConfig c =
            TrainConfig::from_json(nlohmann::json{{"epochs", 3}, {"future_key", "x"}, {"model", nullptr}}, "w");
        QCOMPARE(c.epochs, std::int64_t(3));
        QCOMPARE(QString::fromStdString(c.model), QStringLiteral("mlp"));
        QCOMPARE(c.batch, std::int64_t(32));
    }

    void fromJsonWrongTypeNamesWhereAndKey() {
        const QString err = inputErrorOf([] {
            TrainConfig::from_json(nlohmann::json{{"epochs", "ten"}}, "/home/x/registry.sqlite run 'r'");
        });
        QCOMPARE(err, QStringLiteral(
                          "/home/x/registry.sqlite run 'r': config field 'epochs' has the wrong type: found \"ten\""));
        const QString err2 = inputErrorOf([] { TrainConfig::from_json(nlohmann::json::array({1, 2}), "ckpt"); });
        QCOMPARE(err2, QStringLiteral("ckpt: config: expected a JSON object, found [1,2]"));
    }
};

QTEST_APPLESS_MAIN(TestTrainConfig)
#include "test_train_config.moc"
