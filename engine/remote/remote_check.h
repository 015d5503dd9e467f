// The check before anything is trained or pulled: one listing of the bucket,
// whose failure becomes an InputError("remote", …) with the server's reason
// (wrong credentials, a missing bucket, an endpoint that does not answer).
#pragma once

#include "remote/s3_client.h"
#include "remote/s3_uri.h"

namespace savepoint {

void check_remote_access(S3Client& client, const S3Uri& uri);

// The same for a front end that has only the URI: credentials and endpoint
// from the environment (s3_settings.h). Throws InputError.
void check_remote(const S3Uri& uri, const S3Settings& settings);

}  // namespace savepoint
