#include "training_step.h"

#include "data_order.h"

namespace savepoint {

StepRunner::StepRunner(ClassifierImpl& model, torch::optim::Optimizer& optimizer, const DatasetPair& data,
                       torch::Device device, std::int64_t batch)
    : model_(model), optimizer_(optimizer), device_(device), batch_(batch) {
    train_x_ = data.train.images.to(device);
    train_y_ = data.train.labels.to(device);
    test_x_ = data.test.images.to(device);
    test_y_ = data.test.labels.to(device);
    index_cpu_ = torch::empty({batch}, torch::kInt64);
}

StepResult StepRunner::step(const std::vector<std::int64_t>& perm, std::int64_t step) {
    batch_positions(perm, step, batch_, index_cpu_.data_ptr<std::int64_t>());
    torch::Tensor index = device_.is_cpu() ? index_cpu_ : index_cpu_.to(device_);
    torch::Tensor x = train_x_.index_select(0, index);
    torch::Tensor y = train_y_.index_select(0, index);
    model_.train();
    optimizer_.zero_grad();
    torch::Tensor logits = model_.forward(x);
    torch::Tensor loss = torch::nn::functional::cross_entropy(logits, y);
    loss.backward();
    optimizer_.step();
    StepResult r;
    r.loss = loss.item<double>();
    r.accuracy = logits.argmax(1).eq(y).sum().item<double>() / static_cast<double>(batch_);
    return r;
}

EvalResult StepRunner::evaluate() {
    torch::NoGradGuard no_grad;
    model_.eval();
    const std::int64_t n = test_y_.size(0);
    double loss_sum = 0;
    std::int64_t correct = 0;
    for (std::int64_t i = 0; i < n; i += 1000) {
        const std::int64_t len = std::min<std::int64_t>(1000, n - i);
        torch::Tensor x = test_x_.narrow(0, i, len);
        torch::Tensor y = test_y_.narrow(0, i, len);
        torch::Tensor logits = model_.forward(x);
        loss_sum += torch::nn::functional::cross_entropy(
                        logits, y, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                        .item<double>();
        correct += logits.argmax(1).eq(y).sum().item<std::int64_t>();
    }
    model_.train();
    EvalResult r;
    r.loss = n ? loss_sum / static_cast<double>(n) : 0;
    r.accuracy = n ? static_cast<double>(correct) / static_cast<double>(n) : 0;
    return r;
}

}  // namespace savepoint
