#include <kbench/families/matmul.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>
#include <vector>

namespace kb::matmul {

const char* name_of(Precision p) {
  switch (p) {
    case Precision::fp64: return "fp64";
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
  }
  return "?";
}

Precision precision_for(kb_dtype dtype, std::uint32_t flags) {
  if (dtype == KB_DTYPE_F64) return Precision::fp64;
  if (dtype != KB_DTYPE_F32) return Precision::fp32;  // 16-bit inputs: exact products
  if (flags & KB_FLAG_MATH_TF32) return Precision::tf32;
  if (flags & KB_FLAG_MATH_BF16) return Precision::bf16;
  if (flags & KB_FLAG_MATH_FP16) return Precision::fp16;
  return Precision::fp32;
}

namespace {

// Unit roundoff of rounding an input to the compute format. tf32 and bf16 take the truncation
// unit (one ulp), so the bound holds whether the conversion rounds or truncates (tensor cores fed
// float32 registers drop the low mantissa bits).
double input_unit(Precision p) {
  switch (p) {
    case Precision::tf32: return 0x1.0p-10;  // 10 stored mantissa bits
    case Precision::bf16: return 0x1.0p-7;   // 7 stored mantissa bits
    case Precision::fp16: return 0x1.0p-10;  // 10 stored mantissa bits (float16's range holds
                                             // the inputs in [-1, 1) without overflow)
    default: return 0.0;
  }
}

// Unit roundoff of the accumulation. Tensor cores accumulate in float32 but align and truncate
// the addends (Fasi, Higham, Mikaitis, Pranesh, PeerJ CS 7:e330, 2021), so they get one bit less.
double accumulation_unit(Precision p) {
  switch (p) {
    case Precision::fp64: return 0x1.0p-53;
    case Precision::fp32: return 0x1.0p-24;
    default: return 0x1.0p-23;
  }
}

constexpr double kLambda = 8.0;

// Entry (i, j) of A*B as if computed in twice float64 precision (Ogita, Rump, Oishi, "Accurate sum
// and dot product", SIAM J. Sci. Comput. 26(6), 2005, Dot2), and sum_k |a_ik b_kj|. Products of
// floats are exact in double, so only float64 inputs need the error of the product. Needs
// IEEE evaluation: no -ffast-math, no contraction (the ISO -std=c++17 default of g++).
struct Exact {
  double value;
  double abs_sum;
};

template <typename T>
double as_double(T x) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return static_cast<double>(__bfloat162float(x));
  } else if constexpr (std::is_same_v<T, __half>) {
    return static_cast<double>(__half2float(x));
  } else {
    return static_cast<double>(x);
  }
}

template <typename T>
Exact exact_entry(const T* a_row, const double* b_column, std::int64_t K) {
  double sum = 0.0, compensation = 0.0, abs_sum = 0.0;
  for (std::int64_t k = 0; k < K; ++k) {
    const double x = as_double(a_row[k]), y = b_column[k];
    const double product = x * y;
    // A product of two float32 (or bfloat16) values is exact in double.
    const double product_error = std::is_same_v<T, double> ? std::fma(x, y, -product) : 0.0;
    const double t = sum + product;  // TwoSum (Knuth): t + sum_error == sum + product exactly
    const double z = t - sum;
    const double sum_error = (sum - (t - z)) + (product - z);
    sum = t;
    compensation += product_error + sum_error;
    abs_sum += std::fabs(product);
  }
  return {sum + compensation, abs_sum};
}

// The entries checked in one run and the worst of them. Runs merged in order keep the first
// worst entry, as one pass over all of them would, so the metrics do not depend on the threads.
struct Tally {
  std::uint64_t checked = 0;
  double max_rel_error = 0.0;
  std::int64_t worst_i = 0, worst_j = 0;
  double worst_got = 0.0, worst_exact = 0.0;

  template <typename T>
  void check(T got, const Exact& exact, std::int64_t i, std::int64_t j) {
    const double denominator = std::max(exact.abs_sum, std::numeric_limits<double>::min());
    double error = std::fabs(static_cast<double>(got) - exact.value) / denominator;
    if (!std::isfinite(error)) error = INFINITY;
    if (checked++ == 0 || error > max_rel_error) {
      max_rel_error = error;
      worst_i = i, worst_j = j;
      worst_got = static_cast<double>(got), worst_exact = exact.value;
    }
  }

  void merge(const Tally& later) {
    if (later.checked == 0) return;
    const std::uint64_t before = checked;
    if (before == 0 || later.max_rel_error > max_rel_error) *this = later;
    checked = before + later.checked;
  }

  kb_verification finish(Precision p, double tolerance, bool full) const {
    kb_verification result{};
    result.checked = checked;
    result.max_rel_error = max_rel_error;
    result.tolerance = tolerance;
    result.passed = max_rel_error <= tolerance;
    std::snprintf(result.metrics, sizeof result.metrics,
                  "error=|c-exact|/sum_k|a*b|;precision=%s;entries=%s;worst=%lldx%lld;"
                  "worst_c=%.17g;worst_exact=%.17g",
                  name_of(p), full ? "all" : "sampled", static_cast<long long>(worst_i),
                  static_cast<long long>(worst_j), worst_got, worst_exact);
    return result;
  }
};

// Multiply-adds per chunk of checked entries (a fraction of a millisecond): few entries a chunk
// when K is large, many when it is small.
constexpr std::int64_t kCheckChunkMadds = std::int64_t{1} << 18;

}  // namespace

double tolerance(Precision computed_in, std::int64_t K) {
  return 2.0 * input_unit(computed_in) +
         kLambda * std::sqrt(static_cast<double>(K) + 2.0) * accumulation_unit(computed_in);
}

std::vector<std::pair<std::int64_t, std::int64_t>> sampled_entries(std::int64_t M, std::int64_t N,
                                                                   std::size_t count,
                                                                   std::uint64_t seed) {
  std::vector<std::pair<std::int64_t, std::int64_t>> entries;  // (j, i) while sorting by column
  if (M <= 0 || N <= 0) return entries;
  entries.reserve(count + static_cast<std::size_t>(M + N));
  for (std::size_t s = 0; s < count; ++s) {
    const std::uint64_t bits = random_bits(seed, /*stream=*/3, s);
    entries.emplace_back(static_cast<std::int64_t>((bits >> 32) % static_cast<std::uint64_t>(N)),
                         static_cast<std::int64_t>((bits & 0xFFFFFFFFu) %
                                                   static_cast<std::uint64_t>(M)));
  }
  for (std::int64_t j = 0; j < N; ++j) entries.emplace_back(j, M - 1);
  for (std::int64_t i = 0; i < M; ++i) entries.emplace_back(N - 1, i);
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  for (auto& e : entries) std::swap(e.first, e.second);
  return entries;
}

template <typename T>
kb_verification verify_product(const T* a, const T* b, const Product<T>* c, std::int64_t M,
                               std::int64_t N, std::int64_t K, Precision computed_in,
                               std::uint64_t seed) {
  const bool full = static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K) <=
                    kFullCheckLimit;
  // Entry e is (i, j): every entry column by column, or the e-th sample (also column by column),
  // so consecutive entries mostly share the column of B a chunk gathers.
  const auto samples = full ? std::vector<std::pair<std::int64_t, std::int64_t>>{}
                            : sampled_entries(M, N, kSampleCount, seed);
  const std::size_t count = full ? static_cast<std::size_t>(std::max<std::int64_t>(M, 0) *
                                                            std::max<std::int64_t>(N, 0))
                                 : samples.size();
  const auto entry = [&](std::size_t e) -> std::pair<std::int64_t, std::int64_t> {
    if (!full) return samples[e];
    return {static_cast<std::int64_t>(e % static_cast<std::size_t>(M)),
            static_cast<std::int64_t>(e / static_cast<std::size_t>(M))};
  };
  const auto grain = static_cast<std::size_t>(
      std::max<std::int64_t>(1, kCheckChunkMadds / std::max<std::int64_t>(K, 1)));

  const auto tallies = parallel_map(count, grain, [&](std::size_t begin, std::size_t end) {
    Tally tally;
    std::vector<double> column(static_cast<std::size_t>(K));
    std::int64_t gathered = -1;
    for (std::size_t e = begin; e < end; ++e) {
      const auto [i, j] = entry(e);
      if (j != gathered) {
        for (std::int64_t k = 0; k < K; ++k) column[k] = as_double(b[k * N + j]);
        gathered = j;
      }
      tally.check(c[i * N + j], exact_entry(a + i * K, column.data(), K), i, j);
    }
    return tally;
  });
  Tally total;
  for (const Tally& tally : tallies) total.merge(tally);
  return total.finish(computed_in, tolerance(computed_in, K), full);
}

template kb_verification verify_product<float>(const float*, const float*, const float*,
                                               std::int64_t, std::int64_t, std::int64_t,
                                               Precision, std::uint64_t);
template kb_verification verify_product<double>(const double*, const double*, const double*,
                                                std::int64_t, std::int64_t, std::int64_t,
                                                Precision, std::uint64_t);
template kb_verification verify_product<__nv_bfloat16>(const __nv_bfloat16*, const __nv_bfloat16*,
                                                       const float*, std::int64_t, std::int64_t,
                                                       std::int64_t, Precision, std::uint64_t);
template kb_verification verify_product<__half>(const __half*, const __half*, const float*,
                                                std::int64_t, std::int64_t, std::int64_t,
                                                Precision, std::uint64_t);

namespace {

int refuse(kb_message* why, const char* format, long long x, long long y = 0) {
  std::snprintf(why->text, sizeof why->text, format, x, y);
  return 0;
}

// gridDim.y is at most 65535.
bool grid_rows_fit(const kb_case* c, std::int64_t rows_per_block) {
  return (c->shape[0] + rows_per_block - 1) / rows_per_block <= 65535;
}

}  // namespace

int accepts_2d_block(const kb_case* c, kb_message* why) {
  if (c->block[2] > 1) return refuse(why, "block must be 2D (got z=%lld)", c->block[2]);
  if (!grid_rows_fit(c, c->block[1])) {
    return refuse(why, "M=%lld needs more than 65535 block rows of %lld", c->shape[0],
                  c->block[1]);
  }
  return 1;
}

int accepts_square_block(const kb_case* c, kb_message* why) {
  if (c->block[0] != c->block[1] || c->block[0] > 32 || c->block[2] > 1) {
    return refuse(why, "block must be a square tile of at most 32x32 (got %lldx%lld)",
                  c->block[0], c->block[1]);
  }
  if (!grid_rows_fit(c, c->block[1])) {
    return refuse(why, "M=%lld needs more than 65535 tile rows of %lld", c->shape[0], c->block[1]);
  }
  return 1;
}

int accepts_row_in_shared(const kb_case* c, kb_message* why) {
  constexpr std::int64_t kSharedBytes = 48 * 1024;  // the default limit, no opt-in needed
  const std::int64_t element = c->dtype == KB_DTYPE_F64 ? 8 : 4;
  if (c->shape[2] * element > kSharedBytes) {
    return refuse(why, "a row of A (K=%lld) does not fit in 48 KB of shared memory (K <= %lld)",
                  c->shape[2], kSharedBytes / element);
  }
  return 1;
}

int accepts_host_size(const kb_case* c, kb_message* why) {
  const double madds = static_cast<double>(c->shape[0]) * static_cast<double>(c->shape[1]) *
                       static_cast<double>(c->shape[2]);
  if (madds > 2147483648.0) {
    std::snprintf(why->text, sizeof why->text,
                  "the serial host loop takes seconds per launch; M*N*K = %.3g is over 2^31",
                  madds);
    return 0;
  }
  return 1;
}

}  // namespace kb::matmul
