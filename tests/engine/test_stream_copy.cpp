// stream_copy (engine/storage/stream_copy.cpp): the non-temporal copy gives memcpy's
// bytes for every size around its thresholds (64 KiB, whole lines) and every
// alignment of source and destination, and writes nothing outside the
// destination: a canary before it, and a page with no access right after it.
// The same for the unfenced copy of any size (FusedAdam's update copy), whose
// stores start at the first line boundary even when the copy ends before it.
// What it saves (the training core's caches) is a timing effect; bench_train's
// "copy" rows show it.
#include "storage/stream_copy.h"

#include <QtTest>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace savepoint;

class TestStreamCopy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sameBytesAsMemcpyAndNothingOutside() {
        const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        const std::size_t max = 300 * 1024;
        std::vector<std::uint8_t> src(max + 64);
        for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::uint8_t>(i * 2654435761u >> 11);
        const std::size_t span = (max + 128 + page - 1) / page * page;
        void* map = ::mmap(nullptr, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        QVERIFY(map != MAP_FAILED);
        auto* base = static_cast<std::uint8_t*>(map);
        QCOMPARE(::mprotect(base + span, page, PROT_NONE), 0);

        const std::size_t sizes[] = {
            0, 1, 63, 64, 65, 4095, 65535, 65536, 65537, 65536 + 63, 65536 + 64, 200 * 1024 + 17, max};
        int cases = 0;
        for (const bool unfenced : {false, true})
            for (std::size_t n : sizes) {
                for (std::size_t src_off : {0, 1, 17, 63}) {
                    for (std::size_t dst_shift : {0, 1, 31, 64}) {
                        // The destination ends `dst_shift` bytes before the guard page.
                        std::uint8_t* dst = base + span - n - dst_shift;
                        std::memset(base, 0xA5, span);
                        if (unfenced) {
                            copy_streaming_unfenced(dst, src.data() + src_off, n);
                            stream_fence();
                        } else {
                            copy_streaming(dst, src.data() + src_off, n);
                        }
                        QVERIFY2(std::memcmp(dst, src.data() + src_off, n) == 0,
                                 qPrintable(QString("%4: size %1, source offset %2, shift %3")
                                                .arg(n)
                                                .arg(src_off)
                                                .arg(dst_shift)
                                                .arg(unfenced ? "unfenced" : "fenced")));
                        for (std::uint8_t* p = base; p < dst; ++p) QVERIFY(*p == 0xA5);
                        for (std::uint8_t* p = dst + n; p < base + span; ++p) QVERIFY(*p == 0xA5);
                        ++cases;
                    }
                }
            }
        QCOMPARE(cases, 2 * 13 * 4 * 4);
        ::munmap(map, span + page);
    }
};

QTEST_APPLESS_MAIN(TestStreamCopy)
#include "test_stream_copy.moc"
