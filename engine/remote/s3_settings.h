// Where an S3-compatible store is and who we are to it, from the standard AWS
// variables and files (never from the registry, which keeps no secret):
//   AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, or the
//   profile AWS_PROFILE (default "default") of ~/.aws/credentials
//   (AWS_SHARED_CREDENTIALS_FILE); AWS_REGION / AWS_DEFAULT_REGION or the
//   profile's region in ~/.aws/config (AWS_CONFIG_FILE), else us-east-1;
//   AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL (MinIO, Ceph, Swift: path-style).
#pragma once

#include <string>

namespace savepoint {

struct S3Settings {
    std::string endpoint;  // "http://127.0.0.1:8080"; empty: AWS's own, virtual-hosted
    std::string region = "us-east-1";
    std::string access_key, secret_key, session_token;
    std::string
        credentials_from;  // where they were found, for messages ("AWS_ACCESS_KEY_ID", "~/.aws/credentials [x]")
    bool path_style() const { return !endpoint.empty(); }
};

// Throws InputError("remote", …) when no credentials are found, naming where it looked.
S3Settings s3_settings_from_environment();

}  // namespace savepoint
