#include "remote/s3_uri.h"

#include "platform/errors.h"

namespace savepoint {
namespace {

const char* kExpected = "s3://BUCKET/PREFIX (BUCKET: 3-63 of a-z 0-9 . -; PREFIX: A-Z a-z 0-9 . _ - /)";

bool bucket_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-'; }
bool prefix_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
           c == '_' || c == '/';
}

}  // namespace

S3Uri parse_s3_uri(const std::string& text) {
    const std::string scheme = "s3://";
    if (text.compare(0, scheme.size(), scheme) != 0)
        throw InputError("remote", kExpected, "'" + text + "'", "(only s3:// is known)");
    const std::string rest = text.substr(scheme.size());
    const auto slash = rest.find('/');
    S3Uri u;
    u.bucket = rest.substr(0, slash);
    if (u.bucket.size() < 3 || u.bucket.size() > 63)
        throw InputError("remote", kExpected, "'" + text + "'",
                         "(the bucket name has " + std::to_string(u.bucket.size()) + " characters)");
    for (char c : u.bucket)
        if (!bucket_char(c))
            throw InputError("remote", kExpected, "'" + text + "'", std::string("(the bucket name holds '") + c + "')");
    std::string prefix = slash == std::string::npos ? "" : rest.substr(slash + 1);
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    for (char c : prefix)
        if (!prefix_char(c))
            throw InputError("remote", kExpected, "'" + text + "'", std::string("(the prefix holds '") + c + "')");
    if (prefix.find("//") != std::string::npos || (!prefix.empty() && prefix.front() == '/'))
        throw InputError("remote", kExpected, "'" + text + "'", "(an empty path segment in the prefix)");
    u.prefix = prefix;
    return u;
}

}  // namespace savepoint
