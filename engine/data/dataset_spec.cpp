#include "data/dataset_spec.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace savepoint {

namespace {
namespace fs = std::filesystem;
}  // namespace

std::string default_fashion_mnist_dir() {
    const char* env = std::getenv("SAVEPOINT_FASHION_MNIST_DIR");
    if (env && *env) return env;
    return "/usr/share/datasets/fashion-mnist";
}

std::string find_mnist_file(const std::string& dir, const std::string& base) {
    std::error_code ec;
    for (const fs::path& p : {fs::path(dir) / base, fs::path(dir) / (base + ".gz")})
        if (fs::is_regular_file(p, ec)) return p.string();
    return {};
}

bool has_torch_file_suffix(const std::string& name) {
    const auto ends = [&](const std::string& tail) {
        return name.size() > tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
    };
    return ends(".pt") || ends(".pth");
}

bool is_tensor_file_spec(const std::string& spec) {
    std::error_code ec;
    return fs::is_regular_file(spec, ec) || has_torch_file_suffix(spec);
}

DatasetSpecCheck check_dataset_spec(const std::string& spec) {
    using Problem = DatasetSpecCheck::Problem;
    DatasetSpecCheck c;
    if (spec == "synthetic") return c;
    if (spec.empty()) {
        c.problem = Problem::Empty;
        return c;
    }
    if (is_tensor_file_spec(spec)) {
        std::error_code ec;
        if (!fs::is_regular_file(spec, ec)) {
            c.problem = Problem::NoSuchFile;
            c.file = spec;
        }
        return c;
    }
    const bool fashion = spec == "fashion-mnist";
    c.dir = fashion ? default_fashion_mnist_dir() : spec;
    std::error_code ec;
    if (!fs::is_directory(c.dir, ec)) {
        c.problem = fashion ? Problem::FashionMnistMissing : Problem::NotADirectory;
        return c;
    }
    for (const char* base : kMnistFiles) {
        if (!find_mnist_file(c.dir, base).empty()) continue;
        c.problem = Problem::MissingFile;
        c.file = base;
        return c;
    }
    return c;
}

}  // namespace savepoint
