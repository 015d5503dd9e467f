#include "cli_flags.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <system_error>

namespace savepoint {
namespace {

// A flag's value as a message shows it: numbers as they are, the rest quoted.
std::string shown(const std::string& text) {
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    const bool number = !text.empty() && end == text.c_str() + text.size();
    return number ? text : "'" + text + "'";
}

}  // namespace

// Checks an integer flag's text before CLI11 converts it: its own conversion
// clamps an out-of-range value to the type's limit (a seed of 2^64 ran as
// 2^64-1) and says only "Could not convert" for "2.5".
// `what`, if given, says what is expected instead of the range.
CLI::Validator integer_in(std::int64_t lo, std::uint64_t hi, const std::string& what) {
    return CLI::Validator(
        [lo, hi, what](std::string& text) -> std::string {
            const std::string expected =
                "expected " +
                (what.empty() ? "an integer from " + std::to_string(lo) + " to " + std::to_string(hi) : what);
            const char* b = text.data();
            const char* e = b + text.size();
            bool ok = false;
            if (!text.empty() && text[0] == '-') {
                std::int64_t v = 0;
                const auto r = std::from_chars(b, e, v);
                ok = r.ec == std::errc() && r.ptr == e && v >= lo;
            } else {
                std::uint64_t v = 0;
                const auto r = std::from_chars(b, e, v);
                ok = r.ec == std::errc() && r.ptr == e && v <= hi && (lo <= 0 || v >= static_cast<std::uint64_t>(lo));
            }
            return ok ? std::string() : expected + ", found " + shown(text);
        },
        "INT");
}

// A finite number in [lo, hi]: CLI11's Range lets NaN through (no comparison holds).
CLI::Validator number_in(double lo, double hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            const bool ok =
                !text.empty() && end == text.c_str() + text.size() && std::isfinite(v) && v >= lo && v <= hi;
            std::ostringstream os;
            os << "expected a number from " << lo << " to " << hi << ", found " << shown(text);
            return ok ? std::string() : os.str();
        },
        "NUMBER");
}

// Any number, NaN and infinities included: the option's own range check
// (TrainConfig::validate) names those; this names what is not a number at all.
CLI::Validator a_number() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char* end = nullptr;
            std::strtod(text.c_str(), &end);
            const bool ok = !text.empty() && end == text.c_str() + text.size();
            return ok ? std::string() : "expected a number, found " + shown(text);
        },
        "NUMBER");
}

}  // namespace savepoint
