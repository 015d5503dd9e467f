#include "data/dataset_fingerprint.h"

#include "platform/errors.h"
#include "storage/sha256.h"
#include "storage/sha256_streams.h"

#include <vector>

namespace savepoint {

std::map<std::string, std::string> dataset_fingerprint(const DatasetPair& data) {
    const std::pair<const char*, const torch::Tensor*> parts[] = {{"train-images", &data.train.images},
                                                                  {"t10k-images", &data.test.images},
                                                                  {"train-labels", &data.train.labels},
                                                                  {"t10k-labels", &data.test.labels}};
    std::vector<Sha256Stream> streams;
    std::vector<torch::Tensor> held;  // contiguous CPU copies, alive while hashed
    for (const auto& [name, tensor] : parts) {
        (void)name;
        torch::Tensor t = tensor->defined() ? tensor->cpu().contiguous() : torch::Tensor();
        // Labels are held as int64; as the file has them (one byte each, all < 10)
        // the hash is the IDX payload's, which `zcat FILE | tail -c +9 | sha256sum` gives.
        if (t.defined() && t.scalar_type() != torch::kUInt8) t = t.to(torch::kUInt8);
        held.push_back(t);
        Sha256Stream s;
        if (t.defined() && t.numel() > 0) s.ranges.push_back({t.data_ptr(), static_cast<std::size_t>(t.nbytes())});
        streams.push_back(std::move(s));
    }
    // The two image arrays first: paired, they keep the SHA-NI unit busy.
    sha256_streams(streams);
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < streams.size(); ++i)
        out[parts[i].first] = to_hex(streams[i].digest.data(), streams[i].digest.size());
    return out;
}

void check_dataset_fingerprint(const std::map<std::string, std::string>& recorded,
                               const std::map<std::string, std::string>& found, const std::string& source,
                               const std::string& run_name) {
    for (const auto& [part, sha] : recorded) {
        const auto it = found.find(part);
        const std::string now = it == found.end() ? std::string("nothing") : it->second;
        if (now == sha) continue;
        throw InputError(
            "data", "SHA-256 " + sha + " for " + part, now,
            InputError::Says{part + " in " + source + " is not what run '" + run_name +
                             "' was trained on (SHA-256 of its decoded bytes: recorded " + sha + ", found " + now +
                             "); resuming on other data would not continue the same run. Put the "
                             "original files back, or resume the run from a copy of them"});
    }
}

}  // namespace savepoint
