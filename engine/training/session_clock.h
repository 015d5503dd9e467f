// The clock the trainer times its steps, stalls and reports with.
#pragma once

#include <chrono>

namespace savepoint::trainer_detail {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
inline double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace savepoint::trainer_detail
