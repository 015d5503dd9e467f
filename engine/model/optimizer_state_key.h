// The key under which torch::optim keeps a parameter's state: LibTorch 1.13
// uses the TensorImpl address printed as a string, 2.x the address itself.
// One definition, so snapshot, restore and FusedAdam always agree.
#pragma once

#include <torch/torch.h>

#include <cstdio>
#include <string>
#include <type_traits>

namespace savepoint {

template <typename Map>
typename Map::key_type optimizer_state_key(const Map&, const torch::Tensor& p) {
    if constexpr (std::is_same_v<typename Map::key_type, std::string>) {
        // What `std::ostringstream() << ptr` writes (c10::guts::to_string), at a
        // quarter of the cost: FusedAdam looks every parameter up on every step.
        // test_fused_adam checks the two agree.
        char text[32];
        const int n = std::snprintf(text, sizeof text, "%p", static_cast<const void*>(p.unsafeGetTensorImpl()));
        return std::string(text, static_cast<std::size_t>(n));
    } else {
        return p.unsafeGetTensorImpl();
    }
}

}  // namespace savepoint
