// A worker lost while this one sends it gradients: two ranks joined over Gloo on
// loopback (threads of this process); rank 1 leaves after three all-reduces,
// closing its sockets, while rank 0 goes on sending it 64 MB. Rank 0 must get
// WorkerLost, as the trainer expects, and joining must have set SIGPIPE aside:
// Gloo's writev() to a closed socket would otherwise end the process before it
// records the loss (in a torchrun job: rank 0's session left open, and the
// restart blaming rank 0). Which side Gloo sees first is a race, hence both checks.
#include "distributed/process_group.h"

#include "free_port.h"

#include <QtTest>

#include <csignal>
#include <thread>

using namespace savepoint;

class TestLostPeer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        // Whatever the shell that started the test did with SIGPIPE, this test starts from the default.
        std::signal(SIGPIPE, SIG_DFL);
        torch::set_num_threads(1);
    }

    void aPeerThatLeavesMidSendIsWorkerLost() {
        WorldEnv env;
        env.world_size = 2;
        env.master_addr = "127.0.0.1";
        env.master_port = testsupport::freePort();
        torch::Tensor big = torch::ones({16 << 20});  // 64 MB: more than the socket buffers hold
        std::thread leaver([&] {
            WorldEnv e = env;
            e.rank = e.local_rank = 1;
            auto group = ProcessGroup::join(e, "same config", std::chrono::seconds(30));
            torch::Tensor mine = torch::ones({16 << 20});
            for (int i = 0; i < 3; ++i) group->allreduce_sum(mine);
            // Gone, as after kill -9: Gloo's pairs close their sockets with rank 0's next send unread.
        });
        WorldEnv e = env;
        auto group = ProcessGroup::join(e, "same config", std::chrono::seconds(30));
        std::string lost;
        int tries = 0;
        for (; tries < 20 && lost.empty(); ++tries) {
            try {
                group->allreduce_sum(big);
            } catch (const WorkerLost& w) {
                lost = w.what();
            }
        }
        leaver.join();
        QVERIFY2(!lost.empty(), "20 all-reduces with rank 1 gone: none said WorkerLost");
        qInfo("WorkerLost after %d all-reduce(s): %s", tries, lost.substr(0, 120).c_str());
        struct sigaction now {};
        sigaction(SIGPIPE, nullptr, &now);
        QVERIFY2(now.sa_handler == SIG_IGN, "joining a job must leave SIGPIPE ignored");
    }
};

QTEST_GUILESS_MAIN(TestLostPeer)
#include "test_lost_peer.moc"
