#include "storage/sha256_streams.h"

#include "storage/sha256.h"

#include <algorithm>
#include <cstring>
#include <deque>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define SAVEPOINT_HAVE_SHA_NI_CODE 1
#endif

namespace savepoint {
namespace {

// The message of a stream as whole 64-byte blocks: its ranges, then the
// padding (0x80, zeros, the bit length big-endian) from a buffer of its own.
class BlockCursor {
public:
    explicit BlockCursor(Sha256Stream& s) : stream_(&s) {  // not copyable: ranges_ points into pad_
        std::uint64_t length = 0;
        for (const auto& r : s.ranges)
            if (r.size) {
                ranges_.push_back({static_cast<const std::uint8_t*>(r.data), r.size});
                length += r.size;
            }
        const std::size_t pad = 64 - static_cast<std::size_t>((length + 8) % 64);  // 1..64 bytes, then the length
        std::memset(pad_, 0, sizeof pad_);
        pad_[0] = 0x80;
        const std::uint64_t bits = length * 8;
        for (int i = 0; i < 8; ++i)
            pad_[pad + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
        ranges_.push_back({pad_, pad + 8});
        blocks_left_ = (length + pad + 8) / 64;
    }

    BlockCursor(const BlockCursor&) = delete;
    BlockCursor& operator=(const BlockCursor&) = delete;

    std::uint64_t blocks_left() const { return blocks_left_; }
    std::uint32_t* state() { return state_; }

    // The next blocks, up to `most`, contiguous: in place where a range holds a
    // whole block, else one block gathered across ranges into `scratch`.
    const std::uint8_t* next(std::size_t most, std::size_t& n, std::uint8_t* scratch) const {
        const Range& r = ranges_[range_];
        const std::size_t here = r.size - offset_;
        if (here >= 64) {
            n = std::min<std::size_t>(most, here / 64);
            return r.data + offset_;
        }
        std::size_t got = 0, ri = range_, off = offset_;
        while (got < 64) {
            const std::size_t take = std::min<std::size_t>(64 - got, ranges_[ri].size - off);
            std::memcpy(scratch + got, ranges_[ri].data + off, take);
            got += take;
            off += take;
            if (off == ranges_[ri].size) {
                ++ri;
                off = 0;
            }
        }
        n = 1;
        return scratch;
    }

    void advance(std::size_t blocks) {
        blocks_left_ -= blocks;
        std::size_t bytes = blocks * 64;
        while (bytes) {
            const std::size_t take = std::min(bytes, ranges_[range_].size - offset_);
            offset_ += take;
            bytes -= take;
            if (offset_ == ranges_[range_].size && range_ + 1 < ranges_.size()) {
                ++range_;
                offset_ = 0;
            }
        }
    }

    void finish() {
        for (int i = 0; i < 8; ++i)
            for (int b = 0; b < 4; ++b)
                stream_->digest[static_cast<std::size_t>(4 * i + b)] =
                    static_cast<std::uint8_t>(state_[i] >> (24 - 8 * b));
    }

private:
    struct Range {
        const std::uint8_t* data;
        std::size_t size;
    };
    Sha256Stream* stream_;
    std::vector<Range> ranges_;
    std::size_t range_ = 0, offset_ = 0;
    std::uint64_t blocks_left_ = 0;
    std::uint8_t pad_[128];
    std::uint32_t state_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
};

#ifdef SAVEPOINT_HAVE_SHA_NI_CODE

alignas(16) const std::uint32_t kRoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

bool cpu_has_sha_ni() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 29))) return false;  // SHA
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    return (c & (1u << 19)) && (c & (1u << 9));  // SSE4.1, SSSE3
}

// One step of four rounds for lane l, group g (words 4g..4g+3). The message
// words live in a ring of four registers: w[l][g % 4] holds group g - 4 until
// it is overwritten with group g.
#define SP_MESSAGE(l, g)                                                                                      \
    if ((g) < 4) {                                                                                            \
        w[l][(g) % 4] =                                                                                       \
            _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p[l] + 16 * (g))), byte_swap);  \
    } else {                                                                                                  \
        w[l][(g) % 4] =                                                                                       \
            _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w[l][(g) % 4], w[l][((g) + 1) % 4]),      \
                                               _mm_alignr_epi8(w[l][((g) + 3) % 4], w[l][((g) + 2) % 4], 4)), \
                                 w[l][((g) + 3) % 4]);                                                        \
    }
#define SP_ROUNDS(l, g)                                                                                                \
    {                                                                                                                  \
        __m128i m =                                                                                                    \
            _mm_add_epi32(w[l][(g) % 4], _mm_load_si128(reinterpret_cast<const __m128i*>(kRoundConstants + 4 * (g)))); \
        cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], m);                                                          \
        m = _mm_shuffle_epi32(m, 0x0E);                                                                                \
        abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], m);                                                          \
    }
// Both lanes' instructions side by side, so each hides the other's latency.
// clang-format off
#define SP_GROUP(g)                                             \
    SP_MESSAGE(0, g) if constexpr (N == 2) { SP_MESSAGE(1, g) } \
    SP_ROUNDS(0, g) if constexpr (N == 2) { SP_ROUNDS(1, g) }
// clang-format on

// Compresses `blocks` consecutive blocks into each of N (1 or 2) states.
template <int N>
__attribute__((target("sha,sse4.1,ssse3"))) void compress(std::uint32_t* const* state, const std::uint8_t* const* data,
                                                          std::size_t blocks) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i abef[N], cdgh[N], w[N][4];
    const std::uint8_t* p[N];
    for (int l = 0; l < N; ++l) {
        // The state as the instructions want it: ABEF and CDGH.
        const __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state[l])), 0xB1);
        const __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state[l] + 4)), 0x1B);
        abef[l] = _mm_alignr_epi8(dcba, efgh, 8);
        cdgh[l] = _mm_blend_epi16(efgh, dcba, 0xF0);
        p[l] = data[l];
    }
    for (std::size_t b = 0; b < blocks; ++b) {
        __m128i abef_in[N], cdgh_in[N];
        for (int l = 0; l < N; ++l) {
            abef_in[l] = abef[l];
            cdgh_in[l] = cdgh[l];
        }
        SP_GROUP(0);
        SP_GROUP(1);
        SP_GROUP(2);
        SP_GROUP(3);
        SP_GROUP(4);
        SP_GROUP(5);
        SP_GROUP(6);
        SP_GROUP(7);
        SP_GROUP(8);
        SP_GROUP(9);
        SP_GROUP(10);
        SP_GROUP(11);
        SP_GROUP(12);
        SP_GROUP(13);
        SP_GROUP(14);
        SP_GROUP(15);
        for (int l = 0; l < N; ++l) {
            abef[l] = _mm_add_epi32(abef[l], abef_in[l]);
            cdgh[l] = _mm_add_epi32(cdgh[l], cdgh_in[l]);
            p[l] += 64;
        }
    }
    for (int l = 0; l < N; ++l) {
        const __m128i feba = _mm_shuffle_epi32(abef[l], 0x1B);
        const __m128i dchg = _mm_shuffle_epi32(cdgh[l], 0xB1);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(state[l]), _mm_blend_epi16(feba, dchg, 0xF0));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(state[l] + 4), _mm_alignr_epi8(dchg, feba, 8));
    }
}
#undef SP_GROUP
#undef SP_ROUNDS
#undef SP_MESSAGE

// Blocks per call: small enough that the two longest streams are re-picked
// often (the lanes stay balanced), large enough that picking costs nothing.
constexpr std::size_t kBlocksPerTurn = 64;

void hash_with_sha_ni(std::vector<Sha256Stream>& streams) {
    std::deque<BlockCursor> cursors;
    for (auto& s : streams) cursors.emplace_back(s);
    alignas(16) std::uint8_t scratch[2][64];
    for (;;) {
        // The two with the most left, so that the pairs last as long as possible.
        BlockCursor* first = nullptr;
        BlockCursor* second = nullptr;
        for (auto& c : cursors) {
            if (!c.blocks_left()) continue;
            if (!first || c.blocks_left() > first->blocks_left()) {
                second = first;
                first = &c;
            } else if (!second || c.blocks_left() > second->blocks_left()) {
                second = &c;
            }
        }
        if (!first) break;
        std::size_t n0 = 0, n1 = 0;
        const std::uint8_t* d0 = first->next(kBlocksPerTurn, n0, scratch[0]);
        if (!second) {
            std::uint32_t* st[1] = {first->state()};
            compress<1>(st, &d0, n0);
            first->advance(n0);
            continue;
        }
        const std::uint8_t* d1 = second->next(kBlocksPerTurn, n1, scratch[1]);
        const std::size_t n = std::min(n0, n1);
        std::uint32_t* st[2] = {first->state(), second->state()};
        const std::uint8_t* d[2] = {d0, d1};
        compress<2>(st, d, n);
        first->advance(n);
        second->advance(n);
    }
    for (auto& c : cursors) c.finish();
}

#endif  // SAVEPOINT_HAVE_SHA_NI_CODE

void hash_with_openssl(std::vector<Sha256Stream>& streams) {
    for (auto& s : streams) {
        Sha256 h;
        for (const auto& r : s.ranges) h.update(r.data, r.size);
        s.digest = h.finish();
    }
}

}  // namespace

bool sha256_streams_use_sha_ni() {
#ifdef SAVEPOINT_HAVE_SHA_NI_CODE
    static const bool yes = cpu_has_sha_ni();
    return yes;
#else
    return false;
#endif
}

void sha256_streams(std::vector<Sha256Stream>& streams, Sha256Engine engine) {
#ifdef SAVEPOINT_HAVE_SHA_NI_CODE
    if (engine == Sha256Engine::Auto && sha256_streams_use_sha_ni()) {
        hash_with_sha_ni(streams);
        return;
    }
#endif
    (void)engine;
    hash_with_openssl(streams);
}

}  // namespace savepoint
