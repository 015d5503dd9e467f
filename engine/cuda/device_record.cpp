#include "cuda/device_record.h"

namespace savepoint {
namespace {

std::string text_of(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

nlohmann::json DeviceRecord::to_json() const {
    nlohmann::json j{{"kind", kind}, {"libtorch", libtorch}};
    if (kind == "cuda") {
        j["index"] = index;
        j["name"] = name;
        j["compute_capability"] = compute_capability;
        j["pci_bus_id"] = pci_bus_id;
        j["driver"] = driver;
        j["cuda"] = cuda;
        j["cudnn"] = cudnn;
    } else {
        j["cpu_model"] = name;
        j["blas"] = blas;
    }
    return j;
}

DeviceRecord DeviceRecord::from_json(const nlohmann::json& j) {
    DeviceRecord r;
    if (!j.is_object()) return r;
    r.kind = text_of(j, "kind");
    if (auto it = j.find("index"); it != j.end() && it->is_number_integer()) r.index = it->get<int>();
    r.name = r.kind == "cuda" ? text_of(j, "name") : text_of(j, "cpu_model");
    r.compute_capability = text_of(j, "compute_capability");
    r.pci_bus_id = text_of(j, "pci_bus_id");
    r.driver = text_of(j, "driver");
    r.cuda = text_of(j, "cuda");
    r.cudnn = text_of(j, "cudnn");
    r.libtorch = text_of(j, "libtorch");
    r.blas = text_of(j, "blas");
    return r;
}

std::string DeviceRecord::summary() const {
    if (kind == "cuda")
        return name + " (compute " + compute_capability + "), CUDA " + cuda + ", cuDNN " +
               (cudnn.empty() ? "none" : cudnn) + ", driver " + driver + ", LibTorch " + libtorch;
    return "CPU " + name + ", " + blas + ", LibTorch " + libtorch;
}

std::vector<DeviceDifference> device_differences(const DeviceRecord& saved, const DeviceRecord& now) {
    std::vector<DeviceDifference> out;
    if (saved.empty()) return out;
    const auto differs = [&](const char* what, const std::string& a, const std::string& b) {
        if (a != b) out.push_back({what, a.empty() ? "unknown" : a, b.empty() ? "unknown" : b});
    };
    if (saved.kind != now.kind) {
        out.push_back({"device", saved.summary(), now.summary()});
        return out;
    }
    if (now.kind == "cuda") {
        differs("GPU", saved.name, now.name);
        differs("compute capability", saved.compute_capability, now.compute_capability);
        differs("CUDA", saved.cuda, now.cuda);
        differs("cuDNN", saved.cudnn, now.cudnn);
        differs("driver", saved.driver, now.driver);
    } else {
        differs("CPU", saved.name, now.name);
        differs("BLAS", saved.blas, now.blas);
    }
    differs("LibTorch", saved.libtorch, now.libtorch);
    return out;
}

}  // namespace savepoint
