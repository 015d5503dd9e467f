#include "model/linear_stack_step.h"

#include "model/fast_dropout.h"
#include "platform/simd_clones.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>

namespace savepoint {
namespace {

// Work below this many elements stays on the calling thread.
constexpr std::int64_t kElementsPerTask = 16384;

bool plain_cpu_float(const torch::Tensor& t) {
    return t.defined() && t.device().is_cpu() && t.scalar_type() == torch::kFloat32 && t.is_contiguous();
}

// The element-wise passes, out of line so each is cloned per instruction set
// (simd_clones.h). All work on feature-major [rows, batch] buffers.

// Rows [first, last): v = z + bias; z = relu(v) * mask; gate = mask where v > 0, else 0.
// Written !(v <= 0) so a NaN passes, as through torch::relu and its backward:
// a diverging run must still show NaN.
SAVEPOINT_SIMD_CLONES
void bias_relu_dropout(float* z, float* gate, const float* bias, const float* mask, std::int64_t first,
                       std::int64_t last, std::int64_t batch) {
    for (std::int64_t j = first; j < last; ++j) {
        float* zr = z + j * batch;
        float* gr = gate + j * batch;
        const float b = bias[j];
        if (mask) {
            const float* mr = mask + j * batch;
            for (std::int64_t k = 0; k < batch; ++k) {
                const float v = zr[k] + b;
                const bool keep = !(v <= 0);
                gr[k] = keep ? mr[k] : 0.0f;
                zr[k] = keep ? v * mr[k] : 0.0f;
            }
        } else {
            for (std::int64_t k = 0; k < batch; ++k) {
                const float v = zr[k] + b;
                const bool keep = !(v <= 0);
                gr[k] = keep ? 1.0f : 0.0f;
                zr[k] = keep ? v : 0.0f;
            }
        }
    }
}

SAVEPOINT_SIMD_CLONES
void add_row_bias(float* z, const float* bias, std::int64_t rows, std::int64_t batch) {
    for (std::int64_t j = 0; j < rows; ++j)
        for (std::int64_t k = 0; k < batch; ++k) z[j * batch + k] += bias[j];
}

SAVEPOINT_SIMD_CLONES
void multiply_in_place(float* d, const float* gate, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) d[i] *= gate[i];
}

}  // namespace

std::unique_ptr<LinearStackStep> LinearStackStep::for_model(ClassifierImpl& model) {
    std::vector<Layer> layers;
    auto add = [&layers](const torch::nn::Linear& fc, double dropout) {
        Layer l;
        l.fc = fc;
        l.dropout = dropout;
        layers.push_back(std::move(l));
    };
    if (auto* m = dynamic_cast<MlpImpl*>(&model)) {
        add(m->fc1, m->drop->options.p());
        add(m->fc2, 0);
    } else if (auto* d = dynamic_cast<DnnImpl*>(&model)) {
        add(d->fc1, d->drop->options.p());
        add(d->fc2, d->drop->options.p());
        add(d->fc3, 0);
    } else {
        return nullptr;
    }
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const Layer& l = layers[i];
        if (!plain_cpu_float(l.fc->weight) || !plain_cpu_float(l.fc->bias)) return nullptr;
        if (l.dropout < 0 || l.dropout >= 1) return nullptr;
        if (i > 0 && layers[i - 1].fc->weight.size(0) != l.fc->weight.size(1)) return nullptr;
    }
    for (Layer& l : layers) {
        l.grad_w = torch::empty_like(l.fc->weight);
        l.grad_b = torch::empty_like(l.fc->bias);
    }
    return std::unique_ptr<LinearStackStep>(new LinearStackStep(std::move(layers)));
}

void LinearStackStep::allocate(std::int64_t batch) {
    for (Layer& l : layers_) {
        const std::int64_t out = l.fc->weight.size(0);
        l.z = torch::empty({out, batch}, torch::kFloat32);
        l.gate = torch::empty({out, batch}, torch::kFloat32);
        l.dz = torch::empty({out, batch}, torch::kFloat32);
        l.mask = torch::empty({out, batch}, torch::kFloat32);
    }
    batch_ = batch;
}

StackStepResult LinearStackStep::forward_backward(const torch::Tensor& x, const torch::Tensor& labels) {
    torch::NoGradGuard no_grad;
    const std::int64_t batch = x.size(0);
    const std::int64_t in_features = layers_.front().fc->weight.size(1);
    TORCH_CHECK(plain_cpu_float(x) && x.numel() == batch * in_features, "LinearStackStep: expected float [", batch,
                ", ", in_features, "] input, found ", x.sizes());
    TORCH_CHECK(labels.scalar_type() == torch::kInt64 && labels.numel() == batch && labels.is_contiguous(),
                "LinearStackStep: expected int64 [", batch, "] labels");
    if (batch != batch_) allocate(batch);
    const torch::Tensor x2d = x.view({batch, in_features});
    // The element-wise loops run on the intra-op threads too (each row or
    // element is written by one task, so the bits do not depend on the split);
    // on one thread they are what is left of the step besides GEMMs and Adam.
    const std::int64_t rows_per_task = std::max<std::int64_t>(1, kElementsPerTask / batch);

    // Forward. Each hidden layer's z buffer ends up holding its activation,
    // the next layer's input; `gate` keeps what the backward pass needs of it.
    torch::Tensor input = x2d.t();  // [in, B]
    for (std::size_t l = 0; l < layers_.size(); ++l) {
        Layer& L = layers_[l];
        const std::int64_t out = L.fc->weight.size(0);
        at::mm_out(L.z, L.fc->weight, input);
        float* z = L.z.data_ptr<float>();
        const float* bias = L.fc->bias.data_ptr<float>();
        if (l + 1 == layers_.size()) {
            add_row_bias(z, bias, out, batch);
        } else {
            // The mask fast_dropout would draw for the [B, out] activation (one key
            // per call, in layer order), laid out feature-major like z.
            const float* mask = nullptr;
            if (L.dropout > 0) {
                fill_dropout_mask_transposed(L.mask.data_ptr<float>(), batch, out, L.dropout, draw_dropout_key());
                mask = L.mask.data_ptr<float>();
            }
            float* gate = L.gate.data_ptr<float>();
            at::parallel_for(0, out, rows_per_task, [&](std::int64_t first, std::int64_t last) {
                bias_relu_dropout(z, gate, bias, mask, first, last, batch);
            });
        }
        input = L.z;
    }

    // Softmax cross-entropy, its gradient (mean over the batch) and accuracy, a column at a time.
    Layer& last = layers_.back();
    const std::int64_t classes = last.fc->weight.size(0);
    const float* logits = last.z.data_ptr<float>();
    float* dlogits = last.dz.data_ptr<float>();
    const std::int64_t* y = labels.data_ptr<std::int64_t>();
    const float inv_batch = 1.0f / static_cast<float>(batch);
    StackStepResult result;
    double loss_sum = 0;
    for (std::int64_t k = 0; k < batch; ++k) {
        TORCH_CHECK(y[k] >= 0 && y[k] < classes, "LinearStackStep: label ", y[k], " outside [0, ", classes, ")");
        std::int64_t best = 0;
        for (std::int64_t c = 1; c < classes; ++c)
            if (logits[c * batch + k] > logits[best * batch + k]) best = c;
        const float max = logits[best * batch + k];
        float sum = 0;
        for (std::int64_t c = 0; c < classes; ++c) sum += std::exp(logits[c * batch + k] - max);
        loss_sum += static_cast<double>(max + std::log(sum) - logits[y[k] * batch + k]);
        for (std::int64_t c = 0; c < classes; ++c) {
            const float p = std::exp(logits[c * batch + k] - max) / sum;
            dlogits[c * batch + k] = (p - (c == y[k] ? 1.0f : 0.0f)) * inv_batch;
        }
        result.correct += best == y[k];
    }
    result.loss = loss_sum / static_cast<double>(batch);

    // Backward, last layer first. dW = dz · inputᵀ, db = row sums of dz, and
    // the layer below gets Wᵀ · dz through its gate.
    for (std::size_t l = layers_.size(); l-- > 0;) {
        Layer& L = layers_[l];
        const std::int64_t out = L.fc->weight.size(0);
        const torch::Tensor layer_input = l == 0 ? x2d.t() : layers_[l - 1].z;
        at::mm_out(L.grad_w, L.dz, layer_input.t());
        const float* dz = L.dz.data_ptr<float>();
        float* db = L.grad_b.data_ptr<float>();
        at::parallel_for(0, out, rows_per_task, [&](std::int64_t first, std::int64_t last) {
            for (std::int64_t j = first; j < last; ++j) {
                float s = 0;
                for (std::int64_t k = 0; k < batch; ++k) s += dz[j * batch + k];
                db[j] = s;
            }
        });
        if (l > 0) {
            Layer& below = layers_[l - 1];
            at::mm_out(below.dz, L.fc->weight.t(), L.dz);
            float* d = below.dz.data_ptr<float>();
            const float* gate = below.gate.data_ptr<float>();
            at::parallel_for(0, below.dz.numel(), kElementsPerTask, [&](std::int64_t first, std::int64_t last) {
                multiply_in_place(d + first, gate + first, last - first);
            });
        }
        L.fc->weight.mutable_grad() = L.grad_w;
        L.fc->bias.mutable_grad() = L.grad_b;
    }
    return result;
}

}  // namespace savepoint
