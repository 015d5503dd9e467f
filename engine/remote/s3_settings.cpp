#include "remote/s3_settings.h"

#include "platform/errors.h"

#include <cstdlib>
#include <fstream>
#include <map>

namespace savepoint {
namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r");
    const auto b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The keys of section `section` of an AWS INI file (empty if either is absent).
std::map<std::string, std::string> ini_section(const std::string& path, const std::string& section) {
    std::map<std::string, std::string> out;
    std::ifstream in(path);
    std::string line, current;
    while (std::getline(in, line)) {
        line = trim(line);
        if (line.empty() || line[0] == '#' || line[0] == ';') continue;
        if (line.front() == '[' && line.back() == ']') {
            current = trim(line.substr(1, line.size() - 2));
            continue;
        }
        const auto eq = line.find('=');
        if (current == section && eq != std::string::npos) out[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
    }
    return out;
}

}  // namespace

S3Settings s3_settings_from_environment() {
    S3Settings s;
    const std::string home = env("HOME");
    const std::string profile = env("AWS_PROFILE").empty() ? "default" : env("AWS_PROFILE");
    const std::string cred_file =
        !env("AWS_SHARED_CREDENTIALS_FILE").empty() ? env("AWS_SHARED_CREDENTIALS_FILE") : home + "/.aws/credentials";
    const std::string config_file = !env("AWS_CONFIG_FILE").empty() ? env("AWS_CONFIG_FILE") : home + "/.aws/config";

    if (!env("AWS_ACCESS_KEY_ID").empty() || !env("AWS_SECRET_ACCESS_KEY").empty()) {
        if (env("AWS_ACCESS_KEY_ID").empty() || env("AWS_SECRET_ACCESS_KEY").empty())
            throw InputError("remote", "credentials: both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
                             std::string("only ") +
                                 (env("AWS_ACCESS_KEY_ID").empty() ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID"));
        s.access_key = env("AWS_ACCESS_KEY_ID");
        s.secret_key = env("AWS_SECRET_ACCESS_KEY");
        s.session_token = env("AWS_SESSION_TOKEN");
        s.credentials_from = "AWS_ACCESS_KEY_ID";
    } else {
        auto keys = ini_section(cred_file, profile);
        s.access_key = keys["aws_access_key_id"];
        s.secret_key = keys["aws_secret_access_key"];
        s.session_token = keys["aws_session_token"];
        s.credentials_from = cred_file + " [" + profile + "]";
        if (s.access_key.empty() || s.secret_key.empty())
            throw InputError("remote",
                             "credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or aws_access_key_id and "
                             "aws_secret_access_key in " +
                                 cred_file + " [" + profile + "]",
                             "none", "(set them, or AWS_PROFILE to a profile that has them)");
    }
    const auto cfg = ini_section(config_file, profile == "default" ? "default" : "profile " + profile);
    if (!env("AWS_REGION").empty())
        s.region = env("AWS_REGION");
    else if (!env("AWS_DEFAULT_REGION").empty())
        s.region = env("AWS_DEFAULT_REGION");
    else if (cfg.count("region"))
        s.region = cfg.at("region");
    s.endpoint = !env("AWS_ENDPOINT_URL_S3").empty() ? env("AWS_ENDPOINT_URL_S3") : env("AWS_ENDPOINT_URL");
    while (!s.endpoint.empty() && s.endpoint.back() == '/') s.endpoint.pop_back();
    if (!s.endpoint.empty() && s.endpoint.rfind("http://", 0) != 0 && s.endpoint.rfind("https://", 0) != 0)
        throw InputError("remote", "AWS_ENDPOINT_URL as http://HOST[:PORT] or https://HOST[:PORT]",
                         "'" + s.endpoint + "'");
    return s;
}

}  // namespace savepoint
