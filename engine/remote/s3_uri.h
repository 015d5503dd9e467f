// s3://BUCKET/PREFIX as typed to --remote: checked, split, and put back.
#pragma once

#include <string>

namespace savepoint {

struct S3Uri {
    std::string bucket;
    std::string prefix;  // without leading or trailing '/', may be empty
    std::string text() const { return "s3://" + bucket + (prefix.empty() ? "" : "/" + prefix); }
    // The object key of `name` under the prefix.
    std::string key(const std::string& name) const { return prefix.empty() ? name : prefix + "/" + name; }
};

// Throws InputError("remote", …) naming what is wrong with `text`.
S3Uri parse_s3_uri(const std::string& text);

}  // namespace savepoint
