// How long one validation pass takes (StepRunner::evaluate over the whole test
// split), for each batch size given; docs/PERFORMANCE.md, validation, has runs.
// --before also times the pass as it was before (NoGradGuard, 1000 a batch,
// argmax/eq/sum), for the comparison.
//   bench_validation [--model cnn] [--data fashion-mnist] [--threads N] [--repeat R] [--before] [batch...]
#include "data/dataset.h"
#include "model/models.h"
#include "training/training_step.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::string model_name = "cnn", data = "fashion-mnist";
    int threads = 1, repeat = 5;
    bool before = false;
    std::vector<std::int64_t> batches;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--model" && i + 1 < argc)
            model_name = argv[++i];
        else if (a == "--data" && i + 1 < argc)
            data = argv[++i];
        else if (a == "--threads" && i + 1 < argc)
            threads = std::stoi(argv[++i]);
        else if (a == "--repeat" && i + 1 < argc)
            repeat = std::stoi(argv[++i]);
        else if (a == "--before")
            before = true;
        else
            batches.push_back(std::stoll(a));
    }
    if (batches.empty()) batches = {savepoint::StepRunner::kEvalBatch};
    torch::set_num_threads(threads);
    torch::manual_seed(1);
    const savepoint::DatasetPair pair = savepoint::load_dataset(data);
    auto model = savepoint::make_model(model_name);
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.01));
    savepoint::StepRunner runner(*model, sgd, pair, torch::kCPU, 32);
    std::printf("%s on %s, %lld test images, %d thread(s)\n", model_name.c_str(), data.c_str(),
                static_cast<long long>(pair.test.labels.size(0)), threads);
    auto median_of = [](std::vector<double> ms) {
        std::sort(ms.begin(), ms.end());
        return ms[ms.size() / 2];
    };
    auto* cnn = dynamic_cast<savepoint::CnnImpl*>(model.get());
    auto before_cnn = [&](torch::Tensor x) {
        x = torch::max_pool2d(torch::relu(cnn->conv1(x)), 2);
        x = torch::max_pool2d(torch::relu(cnn->conv2(x)), 2);
        x = x.reshape({x.size(0), 32 * 7 * 7});
        return cnn->fc2(torch::relu(cnn->fc1(x)));
    };
    if (before) {
        std::vector<double> ms;
        for (int r = 0; r < repeat + 1; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            torch::NoGradGuard no_grad;
            model->eval();
            const std::int64_t n = pair.test.labels.size(0);
            double loss_sum = 0;
            std::int64_t correct = 0;
            for (std::int64_t i = 0; i < n; i += 1000) {
                const std::int64_t len = std::min<std::int64_t>(1000, n - i);
                torch::Tensor x = savepoint::pixels_to_float(pair.test.images.narrow(0, i, len));
                torch::Tensor y = pair.test.labels.narrow(0, i, len);
                // The cnn's forward as it was (relu, then LibTorch's max_pool2d), also in eval.
                torch::Tensor logits = model_name == "cnn" ? before_cnn(x) : model->forward(x);
                loss_sum += torch::nn::functional::cross_entropy(
                                logits, y, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                                .item<double>();
                correct += logits.argmax(1).eq(y).sum().item<std::int64_t>();
            }
            model->train();
            const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (r > 0) ms.push_back(t);
            (void)correct;
        }
        std::printf("before (NoGradGuard, batch 1000, max_pool2d): median %7.1f ms\n", median_of(ms));
    }
    for (std::int64_t b : batches) {
        runner.set_eval_batch(b);
        std::vector<double> ms;
        double loss = 0;
        for (int r = 0; r < repeat + 1; ++r) {  // the first pass warms up and is not counted
            const auto t0 = std::chrono::steady_clock::now();
            loss = runner.evaluate()->loss;
            const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (r > 0) ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        std::printf("batch %5lld: median %7.1f ms, min %7.1f ms (loss %.6f)\n", static_cast<long long>(b),
                    ms[ms.size() / 2], ms.front(), loss);
    }
    return 0;
}
