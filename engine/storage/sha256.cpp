#include "storage/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace savepoint {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
    if (!ctx_ || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256: OpenSSL could not initialise a digest context");
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void Sha256::update(const void* data, std::size_t size) {
    if (size) EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data, size);
}

std::array<std::uint8_t, 32> Sha256::finish() {
    std::array<std::uint8_t, 32> out{};
    unsigned int len = 0;
    EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), out.data(), &len);
    return out;
}

std::string to_hex(const std::uint8_t* data, std::size_t size) {
    static const char* digits = "0123456789abcdef";
    std::string s(size * 2, '0');
    for (std::size_t i = 0; i < size; ++i) {
        s[2 * i] = digits[data[i] >> 4];
        s[2 * i + 1] = digits[data[i] & 15];
    }
    return s;
}

std::string sha256_hex(const void* data, std::size_t size) {
    Sha256 h;
    h.update(data, size);
    auto d = h.finish();
    return to_hex(d.data(), d.size());
}

}  // namespace savepoint
