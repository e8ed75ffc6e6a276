// Comparing an output with its reference, into the kb_verification the ABI returns.
#pragma once

#include <kbench/plugin.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>

namespace kb {

// Bit-for-bit equality (families that only move data). NaN poison never matches.
template <typename T>
kb_verification compare_exact(const T* output, const T* reference, std::size_t count) {
  kb_verification result{};
  result.passed = 1;
  result.checked = count;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::memcmp(&output[i], &reference[i], sizeof(T)) != 0) {
      result.passed = 0;
      if constexpr (std::is_floating_point_v<T>) {
        const double ref = static_cast<double>(reference[i]);
        const double err = std::fabs(static_cast<double>(output[i]) - ref) /
                           std::max(std::fabs(ref), 1e-300);
        result.max_rel_error = std::isnan(err) ? INFINITY : std::max(result.max_rel_error, err);
      } else {
        result.max_rel_error = INFINITY;
      }
    }
  }
  return result;
}

// |output - reference| / max(|reference|, floor) for every element, held to `tolerance`. The floor
// keeps entries whose exact value is near zero from dominating (pass the typical magnitude of
// the result). NaN or an infinity fails.
template <typename T>
kb_verification compare_relative(const T* output, const double* reference, std::size_t count,
                                 double tolerance, double floor) {
  kb_verification result{};
  result.tolerance = tolerance;
  result.checked = count;
  for (std::size_t i = 0; i < count; ++i) {
    const double value = static_cast<double>(output[i]);
    double err = std::fabs(value - reference[i]) / std::max(std::fabs(reference[i]), floor);
    if (!std::isfinite(err)) err = INFINITY;
    result.max_rel_error = std::max(result.max_rel_error, err);
  }
  result.passed = result.max_rel_error <= tolerance;
  return result;
}

}  // namespace kb
