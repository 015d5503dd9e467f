#include "data/tensor_file_dataset.h"

#include "platform/errors.h"
#include "storage/sha256.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

namespace savepoint {

namespace {

namespace fs = std::filesystem;

std::string keys_text(const c10::impl::GenericDict& dict) {
    std::string keys;
    for (const auto& entry : dict) {
        const auto& k = entry.key();
        keys += (keys.empty() ? "" : ", ") + (k.isString() ? "'" + k.toStringRef() + "'" : k.tagKind());
    }
    return keys.empty() ? "none" : keys;
}

torch::Tensor tensor_at(const c10::impl::GenericDict& dict, const std::string& key, const std::string& path) {
    const auto it = dict.find(key);
    if (it == dict.end())
        throw InputError(path + ": key '" + key + "': expected the keys train_x, train_y, test_x and test_y, found " +
                         keys_text(dict));
    if (!it->value().isTensor())
        throw InputError(path + ": key '" + key + "': expected a tensor, found " + it->value().tagKind());
    return it->value().toTensor().contiguous();
}

// Inputs stay uint8 (scaled per batch, like the MNIST files) or become float32.
torch::Tensor inputs(torch::Tensor x, const std::string& key, const std::string& path) {
    if (x.dim() < 1 || x.size(0) == 0)
        throw InputError(path + ": " + key + ": expected at least one sample, found a tensor of shape " +
                         tensor_shape_text(x));
    if (x.scalar_type() == torch::kUInt8) return x;
    if (!at::isFloatingType(x.scalar_type()))
        throw InputError(path + ": " + key + ": expected uint8 pixels or floating-point inputs, found " +
                         tensor_shape_text(x));
    x = x.to(torch::kFloat32).contiguous();
    const torch::Tensor bad = torch::isfinite(x).logical_not().reshape({x.size(0), -1}).any(1).nonzero();
    if (bad.numel() > 0) {
        const std::int64_t first = bad[0][0].item<std::int64_t>();
        throw InputError(path + ": " + key + ": expected finite inputs, found NaN or infinite values in " +
                         std::to_string(bad.size(0)) + " sample(s), the first at index " + std::to_string(first));
    }
    return x;
}

torch::Tensor targets(torch::Tensor y, const std::string& key, const std::string& loss, const std::string& path) {
    if (loss == "mse") {
        if (!at::isFloatingType(y.scalar_type()))
            throw InputError(path + ": " + key + ": expected floating-point targets for loss 'mse', found " +
                             tensor_shape_text(y));
        y = y.to(torch::kFloat32).contiguous();
        if (!torch::isfinite(y).all().item<bool>())
            throw InputError(path + ": " + key + ": expected finite targets, found NaN or infinite values");
        return y;
    }
    if (y.dim() != 1 || at::isFloatingType(y.scalar_type()) || y.scalar_type() == torch::kBool)
        throw InputError(path + ": " + key + ": expected integer class labels of shape [N] for loss 'ce', found " +
                         tensor_shape_text(y) +
                         (at::isFloatingType(y.scalar_type()) ? " (float targets: loss 'mse')" : ""));
    y = y.to(torch::kInt64).contiguous();
    if (y.numel() > 0 && y.min().item<std::int64_t>() < 0)
        throw InputError(path + ": " + key + ": expected class labels from 0, found " +
                         std::to_string(y.min().item<std::int64_t>()));
    return y;
}

Dataset split(const c10::impl::GenericDict& dict, const std::string& x_key, const std::string& y_key,
              const std::string& loss, const std::string& path) {
    Dataset d;
    d.images = inputs(tensor_at(dict, x_key, path), x_key, path);
    d.labels = targets(tensor_at(dict, y_key, path), y_key, loss, path);
    if (d.labels.dim() < 1 || d.labels.size(0) != d.images.size(0))
        throw InputError(path + ": " + y_key + ": expected " + std::to_string(d.images.size(0)) + " samples (as in " +
                         x_key + "), found " + tensor_shape_text(d.labels));
    return d;
}

}  // namespace

std::string dtype_name(c10::ScalarType type) {
    switch (type) {
        case torch::kUInt8:
            return "uint8";
        case torch::kInt8:
            return "int8";
        case torch::kInt16:
            return "int16";
        case torch::kInt32:
            return "int32";
        case torch::kInt64:
            return "int64";
        case torch::kFloat16:
            return "float16";
        case torch::kBFloat16:
            return "bfloat16";
        case torch::kFloat32:
            return "float32";
        case torch::kFloat64:
            return "float64";
        case torch::kBool:
            return "bool";
        default:
            return c10::toString(type);
    }
}

std::string tensor_shape_text(const torch::Tensor& t) {
    std::ostringstream os;
    os << "[";
    for (std::int64_t d = 0; d < t.dim(); ++d) os << (d ? ", " : "") << t.size(d);
    os << "] " << dtype_name(t.scalar_type());
    return os.str();
}

DatasetPair load_tensor_file(const std::string& path, const std::string& loss, std::string* sha256) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        throw InputError(path +
                         ": expected a file written by torch.save({\"train_x\": ..., \"train_y\": ..., "
                         "\"test_x\": ..., \"test_y\": ...}), found " +
                         (fs::exists(path, ec) ? "something that is not a regular file" : "no such file"));
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (sha256) *sha256 = sha256_hex(bytes.data(), bytes.size());
    torch::IValue value;
    try {
        value = torch::pickle_load(bytes);
    } catch (const std::exception& e) {
        std::string why = e.what();
        why = why.substr(0, why.find('\n'));
        throw InputError(path + ": expected a dictionary of tensors written by torch.save, found a file LibTorch " +
                         "cannot read as one (" + why + ")");
    }
    if (!value.isGenericDict())
        throw InputError(path + ": expected a dictionary of tensors (train_x, train_y, test_x, test_y), found " +
                         value.tagKind());
    const auto dict = value.toGenericDict();
    DatasetPair p;
    p.train = split(dict, "train_x", "train_y", loss, path);
    p.test = split(dict, "test_x", "test_y", loss, path);
    if (p.train.images.sizes().slice(1) != p.test.images.sizes().slice(1) ||
        p.train.images.scalar_type() != p.test.images.scalar_type())
        throw InputError(path + ": test_x: expected samples shaped like train_x's (" +
                         tensor_shape_text(p.train.images) + "), found " + tensor_shape_text(p.test.images));
    p.description = fs::path(path).filename().string() + ": " + std::to_string(p.train.size()) + " train, " +
                    std::to_string(p.test.size()) + " test, inputs " + tensor_shape_text(p.train.images);
    return p;
}

}  // namespace savepoint
