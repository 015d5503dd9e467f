#include "remote/s3_client.h"

#include "remote/s3_xml.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

namespace savepoint {

// One request: what to send (nothing, a string, or a range of a file) and
// where the answer goes (a string, or the caller's sink once the status is 2xx).
struct S3Client::Request {
    const char* method = "GET";
    std::string key, query;
    const std::string* body = nullptr;
    int fd = -1;
    std::uint64_t offset = 0, length = 0, sent = 0;
    const std::function<void(const char*, std::size_t)>* sink = nullptr;
    std::string answer, etag;
    std::int64_t received = 0;
    long status = 0;
    std::exception_ptr sink_error;
    std::atomic<bool>* cancel = nullptr;
    void* curl = nullptr;
};

namespace {

std::once_flag g_curl_init;

size_t on_read(char* buf, size_t size, size_t n, void* p) {
    auto* r = static_cast<S3Client::Request*>(p);
    const std::uint64_t want = std::min<std::uint64_t>(size * n, r->length - r->sent);
    if (want == 0) return 0;
    if (r->body) {
        std::memcpy(buf, r->body->data() + r->sent, want);
        r->sent += want;
        return want;
    }
    const ssize_t got = ::pread(r->fd, buf, want, static_cast<off_t>(r->offset + r->sent));
    if (got <= 0) return CURL_READFUNC_ABORT;
    r->sent += static_cast<std::uint64_t>(got);
    return static_cast<size_t>(got);
}

size_t on_write(char* data, size_t size, size_t n, void* p) {
    auto* r = static_cast<S3Client::Request*>(p);
    long status = 0;
    curl_easy_getinfo(static_cast<CURL*>(r->curl), CURLINFO_RESPONSE_CODE, &status);
    if (r->sink && status >= 200 && status < 300) {
        try {
            (*r->sink)(data, size * n);
        } catch (...) {
            r->sink_error = std::current_exception();
            return 0;
        }
    } else {
        r->answer.append(data, size * n);
    }
    r->received += static_cast<std::int64_t>(size * n);
    return size * n;
}

size_t on_header(char* data, size_t size, size_t n, void* p) {
    auto* r = static_cast<S3Client::Request*>(p);
    std::string line(data, size * n);
    if (line.size() > 5 && strncasecmp(line.c_str(), "etag:", 5) == 0) r->etag = unquote_etag(line.substr(5));
    return size * n;
}

int on_progress(void* p, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto* r = static_cast<S3Client::Request*>(p);
    return r->cancel && r->cancel->load() ? 1 : 0;
}

// RFC 3986 unreserved characters stay; SigV4 wants the rest %XX-encoded, '/' too.
std::string encode(const std::string& s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

}  // namespace

S3Client::S3Client(S3Settings settings, std::string bucket)
    : settings_(std::move(settings)), bucket_(std::move(bucket)) {
    std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    curl_ = curl_easy_init();
}

S3Client::~S3Client() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

std::string S3Client::url(const std::string& key, const std::string& query) const {
    std::string path;
    for (char c : key) path += c == '/' ? std::string("/") : encode(std::string(1, c));
    const std::string base = settings_.path_style()
                                 ? settings_.endpoint + "/" + bucket_
                                 : "https://" + bucket_ + ".s3." + settings_.region + ".amazonaws.com";
    return base + (key.empty() ? "/" : "/" + path) + (query.empty() ? "" : "?" + query);
}

std::string S3Client::perform(Request& r) {
    CURL* c = static_cast<CURL*>(curl_);
    curl_easy_reset(c);
    r.curl = c;
    r.cancel = cancel;
    r.answer.clear();
    r.etag.clear();
    r.received = 0;
    r.sent = 0;
    const std::string target = url(r.key, r.query);
    const std::string sigv4 = "aws:amz:" + settings_.region + ":s3";
    curl_easy_setopt(c, CURLOPT_URL, target.c_str());
    curl_easy_setopt(c, CURLOPT_AWS_SIGV4, sigv4.c_str());
    curl_easy_setopt(c, CURLOPT_USERNAME, settings_.access_key.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, settings_.secret_key.c_str());
    curl_slist* headers = nullptr;
    // The payload is not hashed a second time: TLS (or loopback) protects it, and pull checks every SHA-256.
    headers = curl_slist_append(headers, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
    std::string token;
    if (!settings_.session_token.empty()) {
        token = "x-amz-security-token: " + settings_.session_token;
        headers = curl_slist_append(headers, token.c_str());
    }
    const std::string method = r.method;
    if (method == "PUT") {
        curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(c, CURLOPT_READFUNCTION, on_read);
        curl_easy_setopt(c, CURLOPT_READDATA, &r);
        curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(r.length));
        headers = curl_slist_append(headers, "Content-Type: application/octet-stream");
    } else if (method == "POST") {
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, r.body ? r.body->c_str() : "");
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body ? r.body->size() : 0));
        headers = curl_slist_append(headers, "Content-Type: application/xml");
    } else if (method != "GET") {
        curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, r.method);
    }
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_write);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &r);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &r);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);  // a stalled transfer is given up after 30 s
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 30L);
    char curl_error[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_error);
    const CURLcode rc = curl_easy_perform(c);
    curl_slist_free_all(headers);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
    const std::string what = "s3://" + bucket_ + "/" + r.key + ": " + method;
    if (r.sink_error) std::rethrow_exception(r.sink_error);
    if (rc == CURLE_ABORTED_BY_CALLBACK)
        throw S3Error(what + ": cancelled (the upload grace ran out)", 0, "cancelled", false);
    if (rc != CURLE_OK) {
        const std::string why = curl_error[0] ? curl_error : curl_easy_strerror(rc);
        const std::string where = settings_.path_style() ? settings_.endpoint : "AWS S3 (" + settings_.region + ")";
        throw S3Error(what + ": no answer from " + where + ": " + why, 0, why, true);
    }
    if (r.status >= 300) {
        const std::string code = xml_value(r.answer, "Code");
        const std::string message = xml_value(r.answer, "Message");
        throw S3Error(what + ": " + std::to_string(r.status) + " " + (code.empty() ? "error" : code) +
                          (message.empty() ? "" : " (" + message + ")"),
                      r.status, code, r.status >= 500 || r.status == 429);
    }
    return r.answer;
}

std::string S3Client::with_retries(const std::function<std::string()>& fn) {
    double wait = backoff_seconds;
    for (int attempt = 1;; ++attempt) {
        try {
            return fn();
        } catch (const S3Error& e) {
            if (!e.transient() || attempt >= attempts) throw;
        }
        // Slept in slices, so that a cancel is seen within a tenth of a second.
        for (double t = 0; t < wait && !(cancel && cancel->load()); t += 0.1)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        wait *= 2;
    }
}

std::string S3Client::put_bytes(const std::string& key, const std::string& bytes) {
    return with_retries([&] {
        Request r;
        r.method = "PUT";
        r.key = key;
        r.body = &bytes;
        r.length = bytes.size();
        perform(r);
        return r.etag;
    });
}

std::string S3Client::put_file(const std::string& key, const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw S3Error("s3://" + bucket_ + "/" + key + ": PUT: cannot read " + path + ": " + std::strerror(errno), 0,
                      "local file", false);
    struct stat st {};
    ::fstat(fd, &st);
    const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
    ::close(fd);
    if (size > part_bytes) return put_multipart(key, path, size);
    return with_retries([&] {
        const int f = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (f < 0) throw S3Error("s3://" + bucket_ + "/" + key + ": PUT: cannot read " + path, 0, "local file", false);
        Request r;
        r.method = "PUT";
        r.key = key;
        r.fd = f;
        r.length = size;
        try {
            perform(r);
        } catch (...) {
            ::close(f);
            throw;
        }
        ::close(f);
        return r.etag;
    });
}

std::string S3Client::put_multipart(const std::string& key, const std::string& path, std::uint64_t size) {
    const std::string upload_id = xml_value(with_retries([&] {
                                                Request r;
                                                r.method = "POST";
                                                r.key = key;
                                                r.query = "uploads=";
                                                return perform(r);
                                            }),
                                            "UploadId");
    if (upload_id.empty()) throw S3Error("s3://" + bucket_ + "/" + key + ": POST ?uploads: no UploadId", 0, "", true);
    const std::string id_q = "uploadId=" + encode(upload_id);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    try {
        if (fd < 0) throw S3Error("s3://" + bucket_ + "/" + key + ": PUT: cannot read " + path, 0, "local file", false);
        std::string complete = "<CompleteMultipartUpload>";
        int part = 1;
        for (std::uint64_t off = 0; off < size; off += part_bytes, ++part) {
            const std::string etag = with_retries([&] {
                Request r;
                r.method = "PUT";
                r.key = key;
                r.query = "partNumber=" + std::to_string(part) + "&" + id_q;
                r.fd = fd;
                r.offset = off;
                r.length = std::min<std::uint64_t>(part_bytes, size - off);
                perform(r);
                return r.etag;
            });
            complete +=
                "<Part><PartNumber>" + std::to_string(part) + "</PartNumber><ETag>\"" + etag + "\"</ETag></Part>";
        }
        complete += "</CompleteMultipartUpload>";
        const std::string answer = with_retries([&] {
            Request r;
            r.method = "POST";
            r.key = key;
            r.query = id_q;
            r.body = &complete;
            return perform(r);
        });
        ::close(fd);
        // S3 may answer 200 with an <Error> body when completing fails late.
        if (!xml_value(answer, "Code").empty())
            throw S3Error("s3://" + bucket_ + "/" + key + ": completing the upload: " + xml_value(answer, "Code"), 200,
                          xml_value(answer, "Code"), true);
        return unquote_etag(xml_value(answer, "ETag"));
    } catch (...) {
        if (fd >= 0) ::close(fd);
        // The parts uploaded so far are not an object; the store is asked to drop them.
        try {
            std::atomic<bool>* saved = cancel;
            cancel = nullptr;
            Request r;
            r.method = "DELETE";
            r.key = key;
            r.query = id_q;
            perform(r);
            cancel = saved;
        } catch (...) {
        }
        throw;
    }
}

std::int64_t S3Client::get(const std::string& key, const std::function<void(const char*, std::size_t)>& sink) {
    // Not retried: the sink has already taken part of it.
    Request r;
    r.key = key;
    r.sink = &sink;
    perform(r);
    return r.received;
}

std::string S3Client::get_bytes(const std::string& key) {
    return with_retries([&] {
        Request r;
        r.key = key;
        return perform(r);
    });
}

std::vector<S3Object> S3Client::list(const std::string& prefix) {
    std::vector<S3Object> out;
    std::string token;
    for (;;) {
        const std::string answer = with_retries([&] {
            Request r;
            r.key = "";
            // Sorted by name, as SigV4's canonical query is.
            r.query = (token.empty() ? "" : "continuation-token=" + encode(token) + "&") +
                      "list-type=2&prefix=" + encode(prefix);
            return perform(r);
        });
        for (const std::string& block : xml_blocks(answer, "Contents")) {
            S3Object o;
            o.key = xml_value(block, "Key");
            o.size = std::atoll(xml_value(block, "Size").c_str());
            o.etag = unquote_etag(xml_value(block, "ETag"));
            out.push_back(o);
        }
        token = xml_value(answer, "NextContinuationToken");
        if (xml_value(answer, "IsTruncated") != "true" || token.empty()) break;
    }
    return out;
}

void S3Client::remove(const std::string& key) {
    with_retries([&] {
        Request r;
        r.method = "DELETE";
        r.key = key;
        return perform(r);
    });
}

void S3Client::check_access(const std::string& prefix) {
    Request r;
    r.query = "list-type=2&max-keys=1&prefix=" + encode(prefix);
    perform(r);
}

}  // namespace savepoint
