// Upload and download throughput to an S3-compatible store with Savepoint's
// own client (engine/remote/s3_client.h): one object of SIZE MiB, sent in one
// PUT and in parts, and read back, each REPEATS times; prints MB/s.
//   . /tmp/savepoint-s3-$UID/env && build/tests/benchmarks/bench_s3 [SIZE_MIB] [REPEATS]
// (tests/benchmarks/remote_overhead.sh runs it beside the training overhead; docs/REMOTE.md has figures.)
#include "remote/s3_client.h"
#include "remote/s3_settings.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace savepoint;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const std::uint64_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 64;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
    const char* bucket = std::getenv("SAVEPOINT_S3_BUCKET");
    S3Client client(s3_settings_from_environment(), bucket ? bucket : "savepoint-test");
    const std::string path = "/tmp/bench_s3_" + std::to_string(::getpid());
    {
        std::mt19937_64 rng(1);
        std::vector<std::uint64_t> block(1 << 17);  // 1 MiB
        std::ofstream out(path, std::ios::binary);
        for (std::uint64_t i = 0; i < mib; ++i) {
            for (auto& w : block) w = rng();
            out.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(block.size() * 8));
        }
    }
    const double mb = static_cast<double>(mib << 20) / 1e6;
    struct Mode {
        const char* name;
        std::uint64_t part_bytes;
    };
    for (const Mode m : {Mode{"one PUT", ~0ull}, Mode{"parts of 16 MiB", 16ull << 20}}) {
        client.part_bytes = m.part_bytes;
        std::vector<double> up, down;
        for (int i = 0; i < repeats; ++i) {
            auto t0 = std::chrono::steady_clock::now();
            client.put_file("bench/object", path);
            up.push_back(mb / seconds_since(t0));
            t0 = std::chrono::steady_clock::now();
            std::int64_t got = client.get("bench/object", [](const char*, std::size_t) {});
            down.push_back(static_cast<double>(got) / 1e6 / seconds_since(t0));
        }
        std::printf("%-16s %4llu MiB: upload %7.1f MB/s, download %7.1f MB/s (median of %d)\n", m.name,
                    static_cast<unsigned long long>(mib), median(up), median(down), repeats);
    }
    client.remove("bench/object");
    ::unlink(path.c_str());
    return 0;
}
