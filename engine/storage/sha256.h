// Incremental SHA-256 over OpenSSL's libcrypto, with hex output. Used for
// checkpoint checksums and for params_sha256 (bit-for-bit run comparison).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace savepoint {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(const void* data, std::size_t size);
    std::array<std::uint8_t, 32> finish();

private:
    void* ctx_;  // EVP_MD_CTX*, kept opaque so OpenSSL headers stay in the .cpp
};

std::string to_hex(const std::uint8_t* data, std::size_t size);
std::string sha256_hex(const void* data, std::size_t size);

}  // namespace savepoint
