// What a setting takes when that is a range or a choice, as data: the engine
// checks a value against it, the CLI says it in English (english()), the
// window in its own translated words with its locale's numbers. An InputError
// about such a setting carries its rule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace savepoint {

struct FieldRule {
    enum class Kind {
        None,      // no rule the front ends can word (see the error's expected())
        Integers,  // a whole number from lo to hi
        Numbers,   // a number from lo (or, lo_excluded, greater than lo) to hi
        OneOf,     // one of choices
    };
    Kind kind = Kind::None;
    double lo = 0, hi = 0;     // Integers hold values up to 2^53 exactly
    bool lo_excluded = false;  // Numbers: lo itself is refused
    std::vector<std::string> choices;

    static FieldRule integers(std::int64_t lo, std::int64_t hi);
    static FieldRule numbers_above(double lo, double hi);  // lo < x <= hi
    static FieldRule one_of(std::vector<std::string> choices);

    bool admits(double value) const;  // a number inside the range (NaN never)
    bool admits(const std::string& choice) const;
    // The CLI's words: "an integer from 1 to 65536", "a number greater than 0
    // and at most 10", "adam|sgd".
    std::string english() const;
};

}  // namespace savepoint
