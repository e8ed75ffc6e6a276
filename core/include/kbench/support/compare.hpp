// Comparing an output with its reference, into the kb_verification the ABI returns. Both compare
// on all host threads, in fixed chunks folded in order, so the result is the same on any machine.
#pragma once

#include <kbench/plugin.h>
#include <kbench/support/array.hpp>
#include <kbench/support/parallel.hpp>
#include <kbench/support/staging.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>

namespace kb {

// Bit-for-bit equality (families that only move data). NaN poison never matches.
template <typename T>
kb_verification compare_exact(const T* output, const T* reference, std::size_t count) {
  struct Chunk {
    int passed = 1;
    double max_rel_error = 0.0;
  };
  const auto chunks = parallel_map(count, kHostGrain, [=](std::size_t begin, std::size_t end) {
    Chunk chunk;
    // The common case, a correct output, at the speed of memcmp.
    if (std::memcmp(output + begin, reference + begin, (end - begin) * sizeof(T)) == 0) {
      return chunk;
    }
    for (std::size_t i = begin; i < end; ++i) {
      if (std::memcmp(&output[i], &reference[i], sizeof(T)) != 0) {
        chunk.passed = 0;
        if constexpr (std::is_floating_point_v<T>) {
          const double ref = static_cast<double>(reference[i]);
          const double err = std::fabs(static_cast<double>(output[i]) - ref) /
                             std::max(std::fabs(ref), 1e-300);
          chunk.max_rel_error = std::isnan(err) ? INFINITY : std::max(chunk.max_rel_error, err);
        } else {
          chunk.max_rel_error = INFINITY;
        }
      }
    }
    return chunk;
  });
  kb_verification result{};
  result.passed = 1;
  result.checked = count;
  for (const Chunk& chunk : chunks) {
    result.passed = result.passed && chunk.passed;
    result.max_rel_error = std::max(result.max_rel_error, chunk.max_rel_error);
  }
  return result;
}

// The same for an output where it lives: a device output is compared a chunk at a time as it
// arrives, never held on the host whole.
template <typename T>
kb_verification compare_exact(const Array<T>& output, const T* reference) {
  if (output.where() != KB_DEVICE_CUDA) return compare_exact(output.data(), reference, output.size());
  kb_verification result{};
  result.passed = 1;
  result.checked = output.size();
  download_staged(output.data(), output.bytes(),
                  [&](const void* chunk, std::size_t offset, std::size_t bytes) {
                    const kb_verification part = compare_exact(
                        static_cast<const T*>(chunk), reference + offset / sizeof(T), bytes / sizeof(T));
                    result.passed = result.passed && part.passed;
                    result.max_rel_error = std::max(result.max_rel_error, part.max_rel_error);
                  });
  return result;
}

// |output - reference| / max(|reference|, floor) for every element, held to `tolerance`. The floor
// keeps entries whose exact value is near zero from dominating (pass the typical magnitude of
// the result). NaN or an infinity fails.
template <typename T>
kb_verification compare_relative(const T* output, const double* reference, std::size_t count,
                                 double tolerance, double floor) {
  const auto chunks = parallel_map(count, kHostGrain, [=](std::size_t begin, std::size_t end) {
    double max_rel_error = 0.0;
    for (std::size_t i = begin; i < end; ++i) {
      const double value = static_cast<double>(output[i]);
      double err = std::fabs(value - reference[i]) / std::max(std::fabs(reference[i]), floor);
      if (!std::isfinite(err)) err = INFINITY;
      max_rel_error = std::max(max_rel_error, err);
    }
    return max_rel_error;
  });
  kb_verification result{};
  result.tolerance = tolerance;
  result.checked = count;
  for (const double error : chunks) result.max_rel_error = std::max(result.max_rel_error, error);
  result.passed = result.max_rel_error <= tolerance;
  return result;
}

}  // namespace kb
