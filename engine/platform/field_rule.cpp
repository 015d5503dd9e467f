#include "platform/field_rule.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace savepoint {
namespace {

std::string number_text(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

}  // namespace

FieldRule FieldRule::integers(std::int64_t lo, std::int64_t hi) {
    FieldRule r;
    r.kind = Kind::Integers;
    r.lo = static_cast<double>(lo);
    r.hi = static_cast<double>(hi);
    return r;
}

FieldRule FieldRule::numbers_above(double lo, double hi) {
    FieldRule r;
    r.kind = Kind::Numbers;
    r.lo = lo;
    r.hi = hi;
    r.lo_excluded = true;
    return r;
}

FieldRule FieldRule::one_of(std::vector<std::string> choices) {
    FieldRule r;
    r.kind = Kind::OneOf;
    r.choices = std::move(choices);
    return r;
}

bool FieldRule::admits(double value) const {
    if (kind != Kind::Integers && kind != Kind::Numbers) return false;
    if (!std::isfinite(value) || value > hi) return false;
    return lo_excluded ? value > lo : value >= lo;
}

bool FieldRule::admits(const std::string& choice) const {
    return kind == Kind::OneOf && std::find(choices.begin(), choices.end(), choice) != choices.end();
}

std::string FieldRule::english() const {
    switch (kind) {
        case Kind::Integers:
            return "an integer from " + std::to_string(static_cast<std::int64_t>(lo)) + " to " +
                   std::to_string(static_cast<std::int64_t>(hi));
        case Kind::Numbers:
            return lo_excluded ? "a number greater than " + number_text(lo) + " and at most " + number_text(hi)
                               : "a number from " + number_text(lo) + " to " + number_text(hi);
        case Kind::OneOf: {
            std::string list;
            for (const auto& c : choices) list += (list.empty() ? "" : "|") + c;
            return list;
        }
        case Kind::None:
            break;
    }
    return {};
}

}  // namespace savepoint
