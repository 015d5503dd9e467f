// Turns a --data spec into train/test tensors. Owns the spec grammar, the
// MNIST-directory layout (four files, raw or .gz) and the conversion of IDX
// bytes to image tensors; the byte-level checks live in idx_reader.cpp.
#include "data/dataset.h"

#include <ATen/Parallel.h>

#include "data/batch_gather.h"
#include "data/tensor_file_dataset.h"
#include "formats/idx_reader.h"
#include "platform/errors.h"

#include <array>
#include <filesystem>
#include <system_error>

namespace savepoint {

namespace {

namespace fs = std::filesystem;

// Finds `base` or `base.gz` in dir; naming both in the error saves the user
// from guessing which spelling we accept.
std::string find_idx_file(const std::string& dir, const std::string& base) {
    std::string found = find_mnist_file(dir, base);
    if (!found.empty()) return found;
    throw InputError(dir + ": " + base + ": expected a file named " + base + " or " + base + ".gz, found neither");
}

// The pixel bytes become the tensor's storage: no copy, no conversion.
torch::Tensor images_to_tensor(IdxImages&& img, const std::string& path) {
    if (img.rows != kImageSide || img.cols != kImageSide)
        throw InputError(path + ": rows x cols: expected 28x28, found " + std::to_string(img.rows) + "x" +
                         std::to_string(img.cols));
    auto* owner = new std::vector<std::uint8_t>(std::move(img.pixels));
    return torch::from_blob(
        owner->data(), {img.count, 1, kImageSide, kImageSide}, [owner](void*) { delete owner; }, torch::kUInt8);
}

torch::Tensor labels_to_tensor(const IdxLabels& lab) {
    torch::Tensor t = torch::empty({static_cast<std::int64_t>(lab.labels.size())}, torch::kInt64);
    std::int64_t* dst = t.data_ptr<std::int64_t>();
    for (std::size_t i = 0; i < lab.labels.size(); ++i) dst[i] = lab.labels[i];
    return t;
}

// The images and labels of one split: kMnistFiles[first] and kMnistFiles[first + 1].
Dataset load_split(const std::string& dir, std::size_t first) {
    const std::string images_path = find_idx_file(dir, kMnistFiles[first]);
    const std::string labels_path = find_idx_file(dir, kMnistFiles[first + 1]);
    Dataset d;
    { d.images = images_to_tensor(read_idx_images(images_path), images_path); }
    const IdxLabels lab = read_idx_labels(labels_path, 10);
    if (static_cast<std::int64_t>(lab.labels.size()) != d.images.size(0))
        throw InputError(labels_path + ": label count: expected " + std::to_string(d.images.size(0)) +
                         " (the image count in " + fs::path(images_path).filename().string() + "), found " +
                         std::to_string(lab.labels.size()));
    d.labels = labels_to_tensor(lab);
    return d;
}

std::string describe(const std::string& what, const DatasetPair& p) {
    return what + ": " + std::to_string(p.train.size()) + " train, " + std::to_string(p.test.size()) + " test";
}

}  // namespace

torch::Tensor pixels_to_float(const torch::Tensor& pixels) {
    // On a GPU a lookup table gives exactly pixel/255.0f whatever the device's
    // division does; on the CPU convert_pixels divides (IEEE, the same bits).
    static const std::array<float, 256> lut = [] {
        std::array<float, 256> t{};
        for (int i = 0; i < 256; ++i) t[i] = static_cast<float>(i) / 255.0f;
        return t;
    }();
    TORCH_CHECK(pixels.scalar_type() == torch::kUInt8, "pixels_to_float: expected uint8 pixels, found ",
                pixels.scalar_type());
    if (!pixels.device().is_cpu()) {
        // The same table, gathered on the device.
        const torch::Tensor table =
            torch::from_blob(const_cast<float*>(lut.data()), {256}, torch::kFloat32).to(pixels.device());
        return table.index_select(0, pixels.flatten().to(torch::kInt64)).view(pixels.sizes());
    }
    const torch::Tensor src = pixels.contiguous();
    torch::Tensor out = torch::empty(src.sizes(), torch::kFloat32);
    const std::uint8_t* in = src.data_ptr<std::uint8_t>();
    float* dst = out.data_ptr<float>();
    at::parallel_for(0, src.numel(), 32768, [&](std::int64_t first, std::int64_t last) {
        convert_pixels(in + first, dst + first, last - first);
    });
    return out;
}

DatasetPair load_idx_directory(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(dir + ": expected a directory holding the MNIST-format files, found " +
                         (fs::exists(dir, ec) ? "something else" : "nothing"));
    DatasetPair p;
    p.train = load_split(dir, 0);
    p.test = load_split(dir, 2);
    p.description = describe("MNIST-format directory (" + dir + ")", p);
    return p;
}

DatasetPair load_dataset(const std::string& spec) {
    if (spec == "synthetic") return make_synthetic_dataset();
    if (is_tensor_file_spec(spec)) return load_tensor_file(spec);
    // Where the files are (the same lookup as the New run dialog's); what they hold is read below.
    const DatasetSpecCheck where = check_dataset_spec(spec);
    using Problem = DatasetSpecCheck::Problem;
    if (spec == "fashion-mnist") {
        const std::string& dir = where.dir;
        if (where.problem == Problem::FashionMnistMissing)
            throw InputError("fashion-mnist: expected the dataset in " + dir +
                             ", found no such directory (install Debian's "
                             "dataset-fashion-mnist or set SAVEPOINT_FASHION_MNIST_DIR)");
        DatasetPair p = load_idx_directory(dir);
        p.description = describe("fashion-mnist (" + dir + ")", p);
        return p;
    }
    if (where.problem == Problem::Empty || where.problem == Problem::NotADirectory)
        throw InputError("data", "fashion-mnist, synthetic or a directory holding the MNIST files", "'" + spec + "'");
    return load_idx_directory(spec);
}

}  // namespace savepoint
