// Deterministic inputs: element i of stream `stream` under `seed` is a pure function of the three,
// so every run, machine and plugin sees the same data, and no input is all zeros.
#pragma once

#include <kbench/support/host_vector.hpp>
#include <kbench/support/parallel.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define KB_HOST_DEVICE __host__ __device__
#else
#define KB_HOST_DEVICE
#endif

namespace kb {

// SplitMix64 (Steele, Lea, Flood 2014): a counter-based generator, so any element can be drawn
// without drawing the ones before it.
KB_HOST_DEVICE constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

KB_HOST_DEVICE constexpr std::uint64_t random_bits(std::uint64_t seed, std::uint64_t stream,
                                    std::uint64_t index) noexcept {
  return mix64(mix64(seed ^ mix64(stream)) + index);
}

// A floating-point type of the ABI, the 16-bit ones included (std::is_floating_point knows only
// the built-in ones).
template <typename T>
inline constexpr bool is_float_like_v = std::is_floating_point_v<T> ||
                                        std::is_same_v<T, __half> ||
                                        std::is_same_v<T, __nv_bfloat16>;

// Element `index` of stream `stream` under `seed`. Floating point: uniform in [-1, 1), rounded to
// T. Integers: uniform in [int_low, int_high] (reduced modulo T's range where that is narrower,
// as for int8). The same on the host and the device, so a family draws on either and checks
// against values it regenerates rather than reads back.
template <typename T>
KB_HOST_DEVICE T random_value(std::uint64_t seed, std::uint64_t stream, std::uint64_t index,
                              std::int64_t int_low = -100, std::int64_t int_high = 100) {
  const std::uint64_t bits = random_bits(seed, stream, index);
  if constexpr (is_float_like_v<T>) {
    const double unit = static_cast<double>(bits >> 11) * 0x1.0p-53;
    if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(2.0 * unit - 1.0);
    } else {
      return T(static_cast<float>(2.0 * unit - 1.0));  // the 16-bit types round from float
    }
  } else {
    const std::uint64_t span = static_cast<std::uint64_t>(int_high - int_low) + 1;
    return static_cast<T>(int_low + static_cast<std::int64_t>(bits % span));
  }
}

// random_value for elements [0, count), filled on all host threads; each element depends on its
// index alone, so the thread count cannot change it.
template <typename T>
HostVector<T> random_vector(std::size_t count, std::uint64_t seed, std::uint64_t stream,
                            std::int64_t int_low = -100, std::int64_t int_high = 100) {
  HostVector<T> values(count);
  T* out = values.data();
  parallel_for(count, kHostGrain, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      out[i] = random_value<T>(seed, stream, i, int_low, int_high);
    }
  });
  return values;
}

}  // namespace kb
