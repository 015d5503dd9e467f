// startup_heap (engine/platform/startup_heap.cpp): this test executable links the
// preinit step as savepoint-cli does. Checked: the heap it grew is advised
// for huge pages (the kernel's own view, /proc/self/smaps), the allocator
// thresholds hold (a 4 MiB block comes from that heap and is kept on free),
// and SAVEPOINT_HEAP_HUGE_PAGES=off leaves a fresh process's heap alone.
#include "platform/startup_heap.h"

#include <QtTest>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace savepoint;

namespace {

struct Mapping {
    std::uintptr_t begin = 0, end = 0;
    std::string flags;
};

// The [heap] mappings of this process with their VmFlags (the heap may be
// split in several: brk growth after the advised range is a mapping of its own).
std::vector<Mapping> heap_mappings() {
    std::ifstream smaps("/proc/self/smaps");
    std::vector<Mapping> out;
    std::string line;
    bool in_heap = false;
    while (std::getline(smaps, line)) {
        unsigned long b = 0, e = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx ", &b, &e) == 2) {
            in_heap = line.find("[heap]") != std::string::npos;
            if (in_heap) out.push_back({b, e, ""});
        } else if (in_heap && line.rfind("VmFlags:", 0) == 0) {
            out.back().flags = line.substr(8) + " ";
        }
    }
    return out;
}

bool kernel_has_thp() {
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    return f.good();
}

// Run as a child: print what the preinit step did and exit.
int report_and_exit() {
    const StartupHeap h = startup_heap();
    std::printf("applied=%d huge_bytes=%zu why_not=%s\n", h.applied ? 1 : 0, h.huge_bytes, h.why_not);
    return 0;
}

QString child_report(const QStringList& extra_env) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("SAVEPOINT_STARTUP_HEAP_REPORT", "1");
    env.remove("SAVEPOINT_HEAP_HUGE_PAGES");
    for (const QString& kv : extra_env) env.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(env);
    p.start(QCoreApplication::applicationFilePath(), {});
    if (!p.waitForFinished(30000)) return "child did not finish";
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

}  // namespace

class TestStartupHeap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        if (!startup_heap().applied && std::string(startup_heap().why_not).find("sanitizer") != std::string::npos)
            QSKIP("sanitizer build: the step is compiled out (their allocator is not glibc's)");
        if (!kernel_has_thp()) QSKIP("this kernel has no transparent huge pages");
    }

    void heapGrownAndAdvisedBeforeMain() {
        const StartupHeap h = startup_heap();
        QVERIFY2(h.applied, h.why_not);
        QVERIFY2(h.huge_bytes >= (std::size_t{62} << 20), qPrintable(QString::number(h.huge_bytes)));
        // The kernel marks an advised mapping "hg"; the advised range must lie in one such [heap] mapping.
        bool found = false;
        for (const Mapping& m : heap_mappings())
            if (m.flags.find(" hg ") != std::string::npos && m.end - m.begin >= h.huge_bytes) found = true;
        QVERIFY2(found, "no [heap] mapping of that size carries VmFlags hg");
    }

    void midSizedBlocksComeFromTheHeapAndStay() {
        // glibc's default would mmap a fresh 4 MiB block (and fault it in again
        // after every free); with the thresholds fixed it is carved from the heap.
        const auto top = reinterpret_cast<std::uintptr_t>(sbrk(0));
        void* volatile block = std::malloc(std::size_t{4} << 20);
        const auto at = reinterpret_cast<std::uintptr_t>(static_cast<void*>(block));
        bool in_heap = false;
        for (const Mapping& m : heap_mappings()) in_heap = in_heap || (at >= m.begin && at < m.end);
        QVERIFY2(in_heap, "a 4 MiB block was not allocated from the heap");
        std::free(block);
        QCOMPARE(reinterpret_cast<std::uintptr_t>(sbrk(0)), top);  // not trimmed on free either
    }

    void offLeavesTheHeapAlone() {
        const QString on = child_report({});
        QVERIFY2(on.startsWith("applied=1"), qPrintable(on));
        const QString off = child_report({"SAVEPOINT_HEAP_HUGE_PAGES=off"});
        QCOMPARE(off, QString("applied=0 huge_bytes=0 why_not=SAVEPOINT_HEAP_HUGE_PAGES=off"));
    }
};

int main(int argc, char** argv) {
    if (std::getenv("SAVEPOINT_STARTUP_HEAP_REPORT")) return report_and_exit();
    QCoreApplication app(argc, argv);
    TestStartupHeap t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_startup_heap.moc"
