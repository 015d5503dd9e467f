// An S3 client over libcurl with its own AWS SigV4 signing
// (CURLOPT_AWS_SIGV4): put (in parts above part_bytes), get, list, delete.
// One object per thread; requests are blocking. Transient failures (no
// connection, 5xx, 429) are retried with backoff; `cancel`, when set,
// abandons a transfer at once (the preemption grace ran out).
#pragma once

#include "remote/s3_settings.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace savepoint {

// A request the store refused or could not be reached for. The message never
// holds a credential (a test checks).
class S3Error : public std::runtime_error {
public:
    S3Error(const std::string& message, long http_status, std::string code, bool transient)
        : std::runtime_error(message), status_(http_status), code_(std::move(code)), transient_(transient) {}
    long http_status() const { return status_; }       // 0: no answer (connection refused, DNS, timeout)
    const std::string& code() const { return code_; }  // S3's <Code>, or curl's words when no answer
    bool transient() const { return transient_; }

private:
    long status_;
    std::string code_;
    bool transient_;
};

struct S3Object {
    std::string key;
    std::int64_t size = 0;
    std::string etag;
};

class S3Client {
public:
    S3Client(S3Settings settings, std::string bucket);
    ~S3Client();
    S3Client(const S3Client&) = delete;
    S3Client& operator=(const S3Client&) = delete;

    // Uploads a file; returns its ETag. Above part_bytes it goes up in parts
    // (multipart upload), each retried on its own; an abandoned one is aborted.
    std::string put_file(const std::string& key, const std::string& path);
    std::string put_bytes(const std::string& key, const std::string& bytes);
    // Streams the object to `sink` (which may throw: the transfer stops and the
    // exception is rethrown); returns its size.
    std::int64_t get(const std::string& key, const std::function<void(const char*, std::size_t)>& sink);
    std::string get_bytes(const std::string& key);
    std::vector<S3Object> list(const std::string& prefix);
    void remove(const std::string& key);
    // One listing of the bucket (what a check before training costs).
    void check_access(const std::string& prefix);

    std::uint64_t part_bytes = 64ull << 20;  // multipart above this, in parts of this size (S3: at least 5 MiB)
    int attempts = 4;                        // per request, transient failures only
    double backoff_seconds = 0.5;            // doubled after each
    std::atomic<bool>* cancel = nullptr;     // set: the transfer in flight stops (S3Error, code "cancelled")

    const std::string& bucket() const { return bucket_; }
    const S3Settings& settings() const { return settings_; }

    struct Request;  // s3_client.cpp

private:
    std::string url(const std::string& key, const std::string& query) const;
    std::string perform(Request& r);
    std::string with_retries(const std::function<std::string()>& fn);
    std::string put_multipart(const std::string& key, const std::string& path, std::uint64_t size);

    S3Settings settings_;
    std::string bucket_;
    void* curl_ = nullptr;  // CURL*, reused: one connection kept alive
};

}  // namespace savepoint
