#pragma once

#include <chrono>

namespace kb {

using SteadyClock = std::chrono::steady_clock;

// Seconds elapsed on the steady clock, which no change of the wall clock moves.
inline double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

}  // namespace kb
