// cache_release (engine/storage/cache_release.cpp): flushing a range from the caches
// leaves its bytes as they were and touches no line outside the range. The
// range ends against a page with no access, so a flush one line too far
// faults (a cache-line flush needs read permission, as a load does). Its
// effect on the training thread is a timing one; bench_train shows it.
#include "storage/cache_release.h"

#include <QtTest>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace savepoint;

class TestCacheRelease : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void flushingLeavesTheBytesAndStaysInsideTheRange() {
        const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        const std::size_t pages = 4;
        void* map = ::mmap(nullptr, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        QVERIFY(map != MAP_FAILED);
        auto* base = static_cast<std::uint8_t*>(map);
        QCOMPARE(::mprotect(base + pages * page, page, PROT_NONE), 0);  // the guard page after the range
        for (std::size_t i = 0; i < pages * page; ++i) base[i] = static_cast<std::uint8_t>(i * 131 + 7);
        const std::vector<std::uint8_t> before(base, base + pages * page);

        // Ranges that start and end mid-line, end exactly at the guard page, or are empty.
        const std::size_t total = pages * page;
        release_from_caches(base + 3, total - 3);
        release_from_caches(base + total - 1, 1);
        release_from_caches(base + 65, 62);
        release_from_caches(base + 100, 0);
        release_from_caches(nullptr, 0);
        release_from_caches(base, total);

        QVERIFY(std::memcmp(before.data(), base, total) == 0);
        // Still writable and readable as before (a hint, not a change of ownership).
        base[total - 1] ^= 0xff;
        QCOMPARE(base[total - 1], static_cast<std::uint8_t>(before[total - 1] ^ 0xff));
        ::munmap(map, (pages + 1) * page);
    }
};

QTEST_APPLESS_MAIN(TestCacheRelease)
#include "test_cache_release.moc"
