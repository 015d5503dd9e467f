// The key under which torch::optim keeps a parameter's state: LibTorch 1.13
// uses the TensorImpl address printed as a string, 2.x the address itself.
// One definition, so snapshot, restore and FusedAdam always agree.
#pragma once

#include <torch/torch.h>

#include <sstream>
#include <string>
#include <type_traits>

namespace savepoint {

template <typename Map>
typename Map::key_type optimizer_state_key(const Map&, const torch::Tensor& p) {
    if constexpr (std::is_same_v<typename Map::key_type, std::string>) {
        std::ostringstream os;
        os << p.unsafeGetTensorImpl();
        return os.str();
    } else {
        return p.unsafeGetTensorImpl();
    }
}

}  // namespace savepoint
