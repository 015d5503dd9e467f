// Checks of flag values that CLI11 would convert badly: its own conversion
// clamps an out-of-range integer to the type's limit and says only "Could not
// convert" for "2.5"; its Range lets NaN through. Each says what it expected
// and what it found, as every other bad input does.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace savepoint {

// An integer in [lo, hi], checked as typed; `what`, if given, is said instead of the range.
CLI::Validator integer_in(std::int64_t lo, std::uint64_t hi, const std::string& what = std::string());
// A finite number in [lo, hi].
CLI::Validator number_in(double lo, double hi);
// Any number, NaN and infinities included (the option's own range check names those).
CLI::Validator a_number();

}  // namespace savepoint
