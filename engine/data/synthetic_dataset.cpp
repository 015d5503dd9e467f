// The "synthetic" dataset: ten classes of 28x28 stroke images, generated in
// memory so tests, demos and CI need no download. It must be bit-identical on
// every call and every machine, and must not consume torch's global RNG (that
// would shift the training run's random stream), so it uses its own splitmix64
// and integer-only geometry; pixels are uint8 before the exact division by 255.
#include "data/dataset.h"

#include "platform/errors.h"

#include <array>
#include <cstdint>

namespace savepoint {

namespace {

constexpr std::uint64_t kSeed = 0x5A7E9011D5EEDULL;
constexpr std::int64_t kMaxSize = 1000000;  // ~3 GB of float32; beyond that it is a typo

// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, well mixed, and its output
// is defined purely by integer arithmetic.
struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) by multiply-shift; the bias for n << 2^32 is negligible
    // and, unlike rejection sampling, the number of draws is fixed.
    int below(std::uint32_t n) { return static_cast<int>(((next() >> 32) * n) >> 32); }
    int between(int lo, int hi) { return lo + below(static_cast<std::uint32_t>(hi - lo + 1)); }
};

// A primitive is a thick segment or a ring/disc around a centre. Coverage is
// 2 in the core, 1 on the soft edge, 0 outside, from integer distances only.
struct Primitive {
    enum Kind { Segment, Disc, Ring } kind;
    int x0, y0, x1, y1;  // segment ends, or centre in (x0, y0)
};

constexpr std::array<Primitive, 10> kPrimitives = {{
    {Primitive::Segment, 6, 6, 21, 6},    // 0 top bar
    {Primitive::Segment, 6, 21, 21, 21},  // 1 bottom bar
    {Primitive::Segment, 7, 5, 7, 22},    // 2 left bar
    {Primitive::Segment, 20, 5, 20, 22},  // 3 right bar
    {Primitive::Segment, 6, 6, 21, 21},   // 4 diagonal "\"
    {Primitive::Segment, 21, 6, 6, 21},   // 5 diagonal "/"
    {Primitive::Disc, 14, 14, 0, 0},      // 6 central blob
    {Primitive::Ring, 14, 14, 0, 0},      // 7 ring
    {Primitive::Segment, 6, 14, 21, 14},  // 8 middle bar
    {Primitive::Segment, 14, 5, 14, 22},  // 9 middle vertical
}};

// Every primitive is shared by two classes, so no single stroke gives the
// answer away: the model has to look at combinations.
constexpr std::array<std::array<int, 2>, 10> kClasses = {{
    {0, 1},  // 0 "="
    {2, 3},  // 1 "||"
    {4, 5},  // 2 "X"
    {6, 7},  // 3 target
    {0, 2},  // 4 "Γ"
    {1, 3},  // 5 "_|"
    {8, 9},  // 6 "+"
    {0, 5},  // 7 "7"
    {2, 1},  // 8 "L"
    {3, 8},  // 9 "-|"
}};

int coverage(const Primitive& p, int x, int y) {
    if (p.kind == Primitive::Disc || p.kind == Primitive::Ring) {
        const int dx = x - p.x0, dy = y - p.y0;
        const int d2 = dx * dx + dy * dy;
        if (p.kind == Primitive::Disc) return d2 <= 9 ? 2 : d2 <= 16 ? 1 : 0;
        const int off = d2 > 49 ? d2 - 49 : 49 - d2;  // ring of radius 7
        return off <= 7 ? 2 : off <= 14 ? 1 : 0;
    }
    // Squared distance to the segment, scaled by its squared length so that
    // everything stays integral.
    const int ax = p.x1 - p.x0, ay = p.y1 - p.y0;
    const int px = x - p.x0, py = y - p.y0;
    const int len2 = ax * ax + ay * ay;
    const int dot = px * ax + py * ay;
    int d2_scaled;
    if (dot <= 0) {
        d2_scaled = (px * px + py * py) * len2;
    } else if (dot >= len2) {
        const int qx = x - p.x1, qy = y - p.y1;
        d2_scaled = (qx * qx + qy * qy) * len2;
    } else {
        const int cross = px * ay - py * ax;
        d2_scaled = cross * cross;
    }
    return d2_scaled <= 1 * len2 ? 2 : d2_scaled <= 3 * len2 ? 1 : 0;
}

void draw(std::uint8_t* canvas, const Primitive& p, int shift_x, int shift_y, int intensity) {
    for (int y = 0; y < kImageSide; ++y) {
        for (int x = 0; x < kImageSide; ++x) {
            const int c = coverage(p, x - shift_x, y - shift_y);
            if (c == 0) continue;
            const int v = intensity * c / 2;
            std::uint8_t& px = canvas[y * kImageSide + x];
            if (v > px) px = static_cast<std::uint8_t>(v);
        }
    }
}

// One sample depends only on (split, index), so growing a split keeps its
// first samples and train/test never share a sample stream.
int make_sample(std::uint64_t split, std::int64_t index, std::uint8_t* canvas) {
    SplitMix64 seeder{kSeed ^ (split << 56)};
    SplitMix64 rng{seeder.next() ^ (static_cast<std::uint64_t>(index) * 0xD1B54A32D192ED03ULL)};
    rng.next();  // decorrelate neighbouring indices

    const int label = rng.below(10);
    for (int i = 0; i < kImageSide * kImageSide; ++i) canvas[i] = 0;
    // Draws are sequenced one per statement: the evaluation order of function
    // arguments is unspecified, and would make the images compiler-dependent.
    const int sx = rng.between(-3, 3);
    const int sy = rng.between(-3, 3);
    for (int prim : kClasses[label]) {
        const int jx = rng.between(-1, 1);
        const int jy = rng.between(-1, 1);
        const int intensity = rng.between(150, 255);
        draw(canvas, kPrimitives[prim], sx + jx, sy + jy, intensity);
    }
    // A faint stroke from another class half of the time: a distractor the
    // model must learn to discount by intensity.
    if (rng.below(2) == 0) {
        const int prim = rng.below(10);
        const int dx = rng.between(-3, 3);
        const int dy = rng.between(-3, 3);
        const int intensity = rng.between(50, 110);
        draw(canvas, kPrimitives[prim], dx, dy, intensity);
    }
    for (int i = 0; i < kImageSide * kImageSide; ++i) {
        const int v = canvas[i] + rng.below(64);
        canvas[i] = static_cast<std::uint8_t>(v > 255 ? 255 : v);
    }
    return label;
}

Dataset make_split(std::uint64_t split, std::int64_t n) {
    Dataset d;
    d.images = torch::empty({n, 1, kImageSide, kImageSide}, torch::kUInt8);
    d.labels = torch::empty({n}, torch::kInt64);
    std::uint8_t* img = d.images.data_ptr<std::uint8_t>();
    std::int64_t* lab = d.labels.data_ptr<std::int64_t>();
    for (std::int64_t i = 0; i < n; ++i) lab[i] = make_sample(split, i, img + i * kImageSide * kImageSide);
    return d;
}

void check_size(const char* field, std::int64_t n) {
    if (n < 1 || n > kMaxSize)
        throw InputError(std::string("synthetic: ") + field + ": expected 1.." + std::to_string(kMaxSize) + ", found " +
                         std::to_string(n));
}

}  // namespace

DatasetPair make_synthetic_dataset(std::int64_t train_size, std::int64_t test_size) {
    check_size("train size", train_size);
    check_size("test size", test_size);
    DatasetPair p;
    p.train = make_split(1, train_size);
    p.test = make_split(2, test_size);
    p.description = "synthetic (10 classes, generated): " + std::to_string(train_size) + " train, " +
                    std::to_string(test_size) + " test";
    return p;
}

}  // namespace savepoint
