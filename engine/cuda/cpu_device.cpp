// The CPU half of device_probe.h: what every build can say about itself.
#include "cuda/device_probe.h"

#include <ATen/Version.h>
#include <torch/cuda.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace savepoint {
namespace {

std::string trimmed(std::string s) {
    const auto b = s.find_first_not_of(" \t\n");
    const auto e = s.find_last_not_of(" \t\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// The loaded shared object whose file name names a BLAS, e.g. "libblas.so.3"
// resolved to the reference BLAS through Debian's alternatives.
std::string loaded_blas_file() {
    std::string found;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) {
            const std::string path = info->dlpi_name ? info->dlpi_name : "";
            const std::string base = path.substr(path.find_last_of('/') + 1);
            if (base.rfind("libblas", 0) == 0 || base.rfind("libopenblas", 0) == 0 || base.rfind("libmkl", 0) == 0) {
                char real[4096];
                const std::string r = ::realpath(path.c_str(), real) ? std::string(real) : path;
                *static_cast<std::string*>(out) = r;
                return 1;
            }
            return 0;
        },
        &found);
    return found;
}

}  // namespace

std::string cpu_model_name() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
            return trimmed(line.substr(line.find(':') + 1));
    return "unknown CPU";
}

std::string blas_in_use() {
    // OpenBLAS names its version and the kernel it chose for this CPU, which is what decides the bits.
    using Config = char* (*)();
    if (auto config = reinterpret_cast<Config>(::dlsym(RTLD_DEFAULT, "openblas_get_config")))
        if (const char* text = config()) return trimmed(text);
    const std::string file = loaded_blas_file();
    if (!file.empty()) return file.substr(file.find_last_of('/') + 1) + " (" + file + ")";
    // LibTorch linked its BLAS in (PyTorch's wheels): its build configuration names it.
    const std::string cfg = at::show_config();
    const auto at = cfg.find("BLAS_INFO=");
    if (at != std::string::npos) return trimmed(cfg.substr(at + 10, cfg.find_first_of(",\n", at) - at - 10));
    return "unknown BLAS";
}

DeviceRecord describe_device(const torch::Device& device) {
    if (device.is_cuda()) return describe_cuda_device(device.has_index() ? device.index() : 0);
    DeviceRecord r;
    r.kind = "cpu";
    r.name = cpu_model_name();
    r.blas = blas_in_use();
    r.libtorch = TORCH_VERSION;
    return r;
}

std::string cuda_unavailable_reason() {
    if (!cuda_built())
        return std::string("this Savepoint was built with LibTorch ") + TORCH_VERSION +
               ", which has no CUDA (docs/CUDA.md, section \"Building with CUDA\")";
    if (torch::cuda::is_available()) return {};
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    return std::string("no GPU is visible to LibTorch ") + TORCH_VERSION +
           (visible ? std::string(" (CUDA_VISIBLE_DEVICES=") + visible + ")"
                    : std::string(" (is the NVIDIA driver loaded?)"));
}

}  // namespace savepoint
