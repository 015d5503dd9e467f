// read_world_env(): the variables torchrun sets, and every bad value refused
// with the variable, what was expected and what was found.
#include "distributed/world_env.h"
#include "platform/errors.h"

#include <QtTest>

#include <map>
#include <string>

using namespace savepoint;

namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char* name) -> const char* {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
}

std::map<std::string, std::string> good() {
    return {{"RANK", "1"},         {"WORLD_SIZE", "2"},      {"LOCAL_RANK", "1"},
            {"MASTER_ADDR", "h1"}, {"MASTER_PORT", "29500"}, {"TORCHELASTIC_RESTART_COUNT", "2"}};
}

}  // namespace

class TestWorldEnv : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void singleProcessWhenUnset() { QVERIFY(!read_world_env(env_of({}))); }

    void readsTorchrunsVariables() {
        const auto w = read_world_env(env_of(good()));
        QVERIFY(w);
        QCOMPARE(w->rank, 1);
        QCOMPARE(w->world_size, 2);
        QCOMPARE(w->local_rank, 1);
        QCOMPARE(w->master_addr, std::string("h1"));
        QCOMPARE(int(w->master_port), 29500);
        QCOMPARE(w->restart_count, 2);
        QVERIFY(!w->agent_store);
    }

    void refusesBadValues_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");  // "-": unset
        QTest::addColumn<QString>("message");
        QTest::addRow("world 0") << "WORLD_SIZE"
                                 << "0"
                                 << "WORLD_SIZE: expected a number of workers, 1 or more, found 0";
        QTest::addRow("rank too big") << "RANK"
                                      << "2"
                                      << "RANK: expected a rank from 0 to 1 (WORLD_SIZE is 2), found 2";
        QTest::addRow("rank not a number") << "RANK"
                                           << "one"
                                           << "RANK: expected a rank from 0 to 1 (WORLD_SIZE is 2), found 'one'";
        QTest::addRow("rank negative") << "RANK"
                                       << "-1"
                                       << "found -1";
        QTest::addRow("port") << "MASTER_PORT"
                              << "70000"
                              << "MASTER_PORT: expected a TCP port from 1 to 65535, found 70000";
        QTest::addRow("port trailing") << "MASTER_PORT"
                                       << "29500x"
                                       << "found '29500x'";
        QTest::addRow("no addr")
            << "MASTER_ADDR"
            << "-"
            << "MASTER_ADDR: expected rank 0's host name or address (torchrun sets it), found it unset";
        QTest::addRow("restarts") << "TORCHELASTIC_RESTART_COUNT"
                                  << "x"
                                  << "TORCHELASTIC_RESTART_COUNT: expected a number of restarts";
    }
    void refusesBadValues() {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, message);
        auto vars = good();
        if (value == "-")
            vars.erase(name.toStdString());
        else
            vars[name.toStdString()] = value.toStdString();
        try {
            read_world_env(env_of(vars));
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
            QVERIFY2(QString(e.what()).startsWith("environment variable " + name), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestWorldEnv)
#include "test_world_env.moc"
