#include "remote/remote_check.h"

#include "platform/errors.h"

namespace savepoint {

void check_remote_access(S3Client& client, const S3Uri& uri) {
    const S3Settings& s = client.settings();
    const std::string where = s.path_style() ? s.endpoint : "AWS S3 in " + s.region;
    try {
        client.check_access(uri.prefix);
    } catch (const S3Error& e) {
        const std::string found = e.what();
        if (e.http_status() == 0)
            throw InputError("remote", "an S3 endpoint that answers at " + where + " (AWS_ENDPOINT_URL, AWS_REGION)",
                             found);
        if (e.http_status() == 404 || e.code() == "NoSuchBucket")
            throw InputError("remote", "an existing bucket '" + uri.bucket + "' at " + where, found);
        if (e.http_status() == 403 || e.http_status() == 401)
            throw InputError("remote", "credentials that " + where + " accepts (from " + s.credentials_from + ")",
                             found);
        throw InputError("remote", "a bucket that can be listed at " + where, found);
    }
}

void check_remote(const S3Uri& uri, const S3Settings& settings) {
    S3Client client(settings, uri.bucket);
    client.attempts = 1;
    check_remote_access(client, uri);
}

}  // namespace savepoint
