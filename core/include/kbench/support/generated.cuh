// Arrays filled from a generator, and outputs checked against one, where the case lives: by a
// kernel for device arrays, on all host threads for host arrays. A generator is a functor with
// `KB_HOST_DEVICE T operator()(std::uint64_t index) const`. A family that checks against values
// it regenerates never reads a reference from memory a strategy could have written. CUDA only
// (a family's library is compiled by nvcc).
#pragma once

#include <kbench/plugin.h>
#include <kbench/support/array.hpp>
#include <kbench/support/error.hpp>
#include <kbench/support/parallel.hpp>
#include <kbench/support/random.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace kb {

// Seeded values of random_value, as a generator.
template <typename T>
struct RandomValues {
  std::uint64_t seed, stream;
  std::int64_t low = -100, high = 100;
  KB_HOST_DEVICE T operator()(std::uint64_t index) const {
    return random_value<T>(seed, stream, index, low, high);
  }
};

// The elements a KB_DRAW_NEAR draw changes: kNearChanges positions of `size`, drawn from the
// draw's seed (two may coincide; at least one changes). Few on purpose: a strategy that looks at a
// few inputs to decide whether they changed is unlikely to look where they did.
constexpr int kNearChanges = 4;
constexpr std::uint64_t kNearStream = 0x4E3A12;

struct NearPositions {
  std::uint64_t at[kNearChanges] = {};
  int count = 0;  // 0: not a near draw

  static NearPositions of(std::uint64_t seed, std::uint64_t size) {
    NearPositions near;
    if (size == 0) return near;
    for (int k = 0; k < kNearChanges; ++k) near.at[k] = random_bits(seed, kNearStream, k) % size;
    near.count = kNearChanges;
    return near;
  }
  KB_HOST_DEVICE bool contains(std::uint64_t i) const {
    for (int k = 0; k < count; ++k) {
      if (at[k] == i) return true;
    }
    return false;
  }
};

namespace detail {

template <typename T, typename Generator>
__global__ void fill_kernel(T* data, std::uint64_t count, Generator generate) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    data[i] = generate(i);
  }
}

// Mismatches and the largest relative error (as the bits of a non-negative double, which order
// like the doubles themselves) of a whole output.
struct MismatchCounts {
  unsigned long long mismatches;
  unsigned long long max_error_bits;
};

template <typename T>
KB_HOST_DEVICE double relative_difference(const T& got, const T& expected) {
  if constexpr (std::is_integral_v<T>) {
    return INFINITY;
  } else {
    const double g = static_cast<double>(static_cast<float>(got));
    const double e = static_cast<double>(static_cast<float>(expected));
    const double d = std::is_same_v<T, double>
                         ? fabs(static_cast<double>(got) - static_cast<double>(expected)) /
                               fmax(fabs(static_cast<double>(expected)), 1e-300)
                         : fabs(g - e) / fmax(fabs(e), 1e-300);
    return isnan(d) ? INFINITY : d;
  }
}

template <typename T>
KB_HOST_DEVICE bool same_bits(const T& a, const T& b) {
  const unsigned char* x = reinterpret_cast<const unsigned char*>(&a);
  const unsigned char* y = reinterpret_cast<const unsigned char*>(&b);
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    if (x[i] != y[i]) return false;
  }
  return true;
}

template <typename T, typename Generator>
__global__ void check_kernel(const T* data, std::uint64_t count, Generator expected,
                             MismatchCounts* counts) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  unsigned long long mismatches = 0;
  double worst = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const T want = expected(i);
    const T got = data[i];
    if (!same_bits(got, want)) {
      ++mismatches;
      worst = fmax(worst, relative_difference(got, want));
    }
  }
  if (mismatches != 0) {
    atomicAdd(&counts->mismatches, mismatches);
    unsigned long long bits;
    memcpy(&bits, &worst, sizeof bits);
    atomicMax(&counts->max_error_bits, bits);
  }
}

inline unsigned grid_for(std::uint64_t count) {
  return static_cast<unsigned>(std::min<std::uint64_t>((count + 255) / 256, 4096));
}

}  // namespace detail

// Fills `array` with generate(0), generate(1), ...
template <typename T, typename Generator>
void fill_generated(Array<T>& array, Generator generate, cudaStream_t stream) {
  if (array.size() == 0) return;
  if (array.where() == KB_DEVICE_CUDA) {
    detail::fill_kernel<<<detail::grid_for(array.size()), 256, 0, stream>>>(
        array.data(), array.size(), generate);
    KB_CUDA_CHECK(cudaGetLastError());
  } else {
    T* data = array.data();
    parallel_for(array.size(), kHostGrain, [=](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) data[i] = generate(i);
    });
  }
}

// Element i of `array` bit for bit against expected(i), for every i: passed, the largest relative
// error of a mismatch (infinite for integers and NaNs), the count compared.
template <typename T, typename Generator>
kb_verification check_generated(const Array<T>& array, Generator expected, cudaStream_t stream) {
  detail::MismatchCounts counts{0, 0};
  if (array.size() == 0) {
  } else if (array.where() == KB_DEVICE_CUDA) {
    detail::MismatchCounts* device_counts = nullptr;
    KB_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&device_counts), sizeof counts, stream));
    cudaMemsetAsync(device_counts, 0, sizeof counts, stream);
    detail::check_kernel<<<detail::grid_for(array.size()), 256, 0, stream>>>(
        array.data(), array.size(), expected, device_counts);
    const cudaError_t launched = cudaGetLastError();
    cudaMemcpyAsync(&counts, device_counts, sizeof counts, cudaMemcpyDeviceToHost, stream);
    const cudaError_t done = cudaStreamSynchronize(stream);
    cudaFreeAsync(device_counts, stream);
    KB_CUDA_CHECK(launched);
    KB_CUDA_CHECK(done);
  } else {
    const T* data = array.data();
    struct Partial {
      unsigned long long mismatches = 0;
      double worst = 0;
    };
    const auto partials = parallel_map(array.size(), kHostGrain, [=](std::size_t begin,
                                                                     std::size_t end) {
      Partial p;
      for (std::size_t i = begin; i < end; ++i) {
        const T want = expected(i);
        if (!detail::same_bits(data[i], want)) {
          ++p.mismatches;
          p.worst = std::max(p.worst, detail::relative_difference(data[i], want));
        }
      }
      return p;
    });
    double worst = 0;
    for (const Partial& p : partials) {
      counts.mismatches += p.mismatches;
      worst = std::max(worst, p.worst);
    }
    std::memcpy(&counts.max_error_bits, &worst, sizeof worst);
  }
  kb_verification v{};
  v.passed = counts.mismatches == 0;
  std::memcpy(&v.max_rel_error, &counts.max_error_bits, sizeof v.max_rel_error);
  v.checked = array.size();
  std::snprintf(v.metrics, sizeof v.metrics, "mismatches=%llu", counts.mismatches);
  return v;
}

}  // namespace kb
