// libFuzzer target: the IDX reader (raw and gzip). Torch-free.
// The first byte picks the path: images, labels, or the gzip inflater (via a
// memfd, the same read_maybe_gzipped the dataset loader uses) followed by both parsers.
#include "formats/idx_reader.h"
#include "platform/errors.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

// The inflate cache would write every valid gzip input to ~/.cache: keep it off.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    ::setenv("SAVEPOINT_CACHE_DIR", "off", 1);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::uint8_t mode = data[0] % 3;
    std::vector<std::uint8_t> bytes(data + 1, data + size);
    try {
        if (mode == 0) {
            auto img = savepoint::parse_idx_images(bytes, "fuzz-images");
            if (img.pixels.size() != static_cast<std::size_t>(img.count * img.rows * img.cols)) __builtin_trap();
        } else if (mode == 1) {
            auto lab = savepoint::parse_idx_labels(bytes, "fuzz-labels", 10);
            for (auto l : lab.labels)
                if (l >= 10) __builtin_trap();
        } else {
            int fd = memfd_create("fuzz-idx", 0);
            if (fd < 0) return 0;
            if (write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
                close(fd);
                return 0;
            }
            const std::string path = "/proc/self/fd/" + std::to_string(fd);
            try {
                auto inflated = savepoint::read_maybe_gzipped(path, 1u << 24);
                if (inflated.size() > (1u << 24)) __builtin_trap();
                try {
                    savepoint::parse_idx_images(inflated, path);
                } catch (const savepoint::InputError&) {
                }
                try {
                    savepoint::parse_idx_labels(inflated, path);
                } catch (const savepoint::InputError&) {
                }
            } catch (...) {
                close(fd);
                throw;
            }
            close(fd);
        }
    } catch (const savepoint::InputError&) {
        // A clear refusal is the expected outcome for bad bytes.
    }
    return 0;
}
