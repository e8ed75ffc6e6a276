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
#include <vector>

namespace kb {

// Bit-for-bit equality of elements, folded: one element at a time or one chunk's result at a
// time. A mismatch of floats records its relative difference (NaN poison: infinite); of integers,
// infinity.
struct ExactCheck {
  int passed = 1;
  double max_rel_error = 0.0;

  template <typename T>
  void add(const T& output, const T& reference) {
    if (std::memcmp(&output, &reference, sizeof(T)) == 0) return;
    passed = 0;
    if constexpr (std::is_floating_point_v<T>) {
      const double ref = static_cast<double>(reference);
      const double err =
          std::fabs(static_cast<double>(output) - ref) / std::max(std::fabs(ref), 1e-300);
      max_rel_error = std::isnan(err) ? INFINITY : std::max(max_rel_error, err);
    } else {
      max_rel_error = INFINITY;
    }
  }

  void merge(const ExactCheck& other) {
    passed = passed && other.passed;
    max_rel_error = std::max(max_rel_error, other.max_rel_error);
  }

  kb_verification result(std::size_t checked) const {
    kb_verification v{};
    v.passed = passed;
    v.max_rel_error = max_rel_error;
    v.checked = checked;
    return v;
  }

  // The chunks of a parallel_map, folded in order, as the verification of `checked` elements.
  static kb_verification fold(const std::vector<ExactCheck>& chunks, std::size_t checked) {
    ExactCheck all;
    for (const ExactCheck& chunk : chunks) all.merge(chunk);
    return all.result(checked);
  }
};

// Bit-for-bit equality (families that only move data). NaN poison never matches.
template <typename T>
kb_verification compare_exact(const T* output, const T* reference, std::size_t count) {
  const auto chunks = parallel_map(count, kHostGrain, [=](std::size_t begin, std::size_t end) {
    ExactCheck chunk;
    // The common case, a correct output, at the speed of memcmp.
    if (std::memcmp(output + begin, reference + begin, (end - begin) * sizeof(T)) == 0) {
      return chunk;
    }
    for (std::size_t i = begin; i < end; ++i) chunk.add(output[i], reference[i]);
    return chunk;
  });
  return ExactCheck::fold(chunks, count);
}

// A device output compared a chunk at a time as it arrives (never held on the host whole), a host
// output in place: check(chunk, first, count) compares `count` elements starting at element
// `first`, and the results are folded.
template <typename T, typename Check>
kb_verification compare_in_chunks(const Array<T>& output, Check check) {
  if (output.where() != KB_DEVICE_CUDA) return check(output.data(), 0, output.size());
  ExactCheck all;
  download_staged(output.data(), output.bytes(),
                  [&](const void* chunk, std::size_t offset, std::size_t bytes) {
                    const kb_verification part =
                        check(static_cast<const T*>(chunk), offset / sizeof(T), bytes / sizeof(T));
                    all.merge({part.passed, part.max_rel_error});
                  });
  return all.result(output.size());
}

// compare_exact() of an output where it lives (see compare_in_chunks).
template <typename T>
kb_verification compare_exact(const Array<T>& output, const T* reference) {
  return compare_in_chunks(output, [reference](const T* chunk, std::size_t first, std::size_t count) {
    return compare_exact(chunk, reference + first, count);
  });
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
