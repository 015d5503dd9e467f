#include "training/cuda_kernel_check.h"

#include "cuda/cuda_determinism.h"
#include "model/script_model.h"
#include "platform/errors.h"

#include <torch/torch.h>

namespace savepoint {

void check_deterministic_kernels(ClassifierImpl& model, const DatasetPair& data, const TrainConfig& cfg,
                                 const torch::Device& device) {
    model.to(device);
    const std::int64_t n = std::min(cfg.batch, data.train.size());
    torch::Tensor x = data.train.images.narrow(0, 0, n);
    if (x.scalar_type() == torch::kUInt8) x = pixels_to_float(x);
    x = x.to(device);
    const torch::Tensor y = data.train.labels.narrow(0, 0, n).to(device);
    const bool was_training = model.is_training();
    model.eval();  // no dropout mask drawn, no running statistic moved
    try {
        const torch::Tensor out = model.forward(x);
        const torch::Tensor loss = cfg.loss == "mse" ? torch::mse_loss(out, y) : torch::cross_entropy_loss(out, y);
        loss.backward();
        torch::cuda::synchronize();
    } catch (const std::exception& e) {
        model.train(was_training);
        for (auto& p : model.parameters()) p.mutable_grad() = torch::Tensor();
        const auto* c10 = dynamic_cast<const c10::Error*>(&e);
        const std::string op = nondeterministic_operation(c10 ? c10->what_without_backtrace() : e.what());
        if (op.empty()) throw;
        throw InputError("model " + model_display_name(cfg.model) + ": " + op +
                         " has no deterministic CUDA implementation, so a run of it on the GPU could not give the "
                         "same bits twice (train it on the CPU, or replace that operation)");
    }
    model.train(was_training);
    for (auto& p : model.parameters()) p.mutable_grad() = torch::Tensor();
}

}  // namespace savepoint
