// Where a --data spec's files are, and whether they are there, without
// reading them (no LibTorch): "synthetic" needs none, FILE.pt is one file, "fashion-mnist" is
// Debian's dataset-fashion-mnist (or $SAVEPOINT_FASHION_MNIST_DIR), anything
// else is a directory holding the four MNIST-format files, raw or .gz. The
// loader (dataset.h) and the window's New run dialog look them up here.
#pragma once

#include <array>
#include <string>

namespace savepoint {

// "fashion-mnist" and "synthetic" name data by what it is; anything else is a directory.
inline bool is_builtin_dataset(const std::string& spec) { return spec == "fashion-mnist" || spec == "synthetic"; }

// Where "fashion-mnist" lives: $SAVEPOINT_FASHION_MNIST_DIR, else Debian's path.
std::string default_fashion_mnist_dir();

// The four files of an MNIST-format directory, each raw or with ".gz" added.
inline constexpr std::array<const char*, 4> kMnistFiles = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                                                           "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};

// FILE.pt or FILE.pth: how a --data or --model value says it names a PyTorch file.
bool has_torch_file_suffix(const std::string& name);

// Whether a --data spec names a tensor file (torch.save of a dict;
// tensor_file_dataset.h) rather than a dataset name or an IDX directory: an
// existing regular file, or a name ending in .pt or .pth.
bool is_tensor_file_spec(const std::string& spec);

// dir/base or dir/base.gz, whichever is a regular file (raw first); empty: neither.
std::string find_mnist_file(const std::string& dir, const std::string& base);

// What check_dataset_spec found, as data: each front end words it.
struct DatasetSpecCheck {
    enum class Problem {
        None,                 // loadable as far as files go
        Empty,                // no spec at all
        FashionMnistMissing,  // "fashion-mnist", and `dir` is not a directory
        NotADirectory,        // a path that is not a directory (`dir`)
        MissingFile,          // `dir` has neither `file` nor `file`.gz
        NoSuchFile,           // a tensor file (FILE.pt) `file` that is not there
    };
    Problem problem = Problem::None;
    std::string dir;   // the directory looked in (empty for "synthetic")
    std::string file;  // MissingFile: the base name looked for
    bool ok() const { return problem == Problem::None; }
};

// Checks a spec the way load_dataset finds its files, reading none of them.
// The files' contents (IDX headers, counts, image size) are load_dataset's to judge.
DatasetSpecCheck check_dataset_spec(const std::string& spec);

}  // namespace savepoint
