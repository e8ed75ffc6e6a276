#include <kbench/families/reduce.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace kb::reduce {

Op parse_op(const char* text) {
  const std::string op = text != nullptr ? text : "";
  if (op == "sum") return Op::sum;
  if (op == "sumsq") return Op::sumsq;
  throw Error(KB_UNSUPPORTED, "reduce: unknown op '" + op + "' (the family has sum,sumsq)");
}

namespace {

// Elements per chunk of the reference. Fixed, so the chunks, and so the rounding of the sum, are
// the same on every machine whatever its number of threads.
constexpr std::size_t kReferenceChunk = kHostGrain;

// A compensated running sum (Knuth's TwoSum): sum + t == s + the rounding error exactly, and the
// errors gather in `compensation`. Needs IEEE evaluation: no -ffast-math, no contraction (the ISO
// -std=c++17 default of g++).
struct CompensatedSum {
  long double sum = 0, compensation = 0, scale = 0;

  // t_compensation: the errors t itself carries, when t is a compensated sum of its own.
  void add(long double t, long double t_compensation = 0) {
    const long double s = sum + t;
    const long double z = s - sum;
    compensation += ((sum - (s - z)) + (t - z)) + t_compensation;
    sum = s;
  }
};

}  // namespace

template <typename T>
Reference reference(const T* x, std::int64_t n, Op op) {
  const auto count = static_cast<std::size_t>(std::max<std::int64_t>(n, 0));
  if constexpr (std::is_integral_v<T>) {
    struct Sums {
      std::int64_t sum = 0, scale = 0;
    };
    const auto sum_chunk = [=](std::size_t begin, std::size_t end) {
      Sums chunk;
      for (std::size_t i = begin; i < end; ++i) {
        const std::int64_t t = term(op, std::int64_t{x[i]});
        chunk.sum += t;
        chunk.scale += t < 0 ? -t : t;
      }
      return chunk;
    };
    std::int64_t sum = 0, scale = 0;
    for (const Sums& chunk : parallel_map(count, kReferenceChunk, sum_chunk)) {
      sum += chunk.sum;
      scale += chunk.scale;
    }
    return {static_cast<long double>(sum), static_cast<long double>(scale)};
  } else {
    // Each chunk compensated, then the chunks' (sum, compensation) pairs added with the same
    // compensated addition, in chunk order.
    const auto sum_chunk = [=](std::size_t begin, std::size_t end) {
      CompensatedSum chunk;
      for (std::size_t i = begin; i < end; ++i) {
        const long double t = term(op, static_cast<long double>(static_cast<Result<T>>(x[i])));
        chunk.add(t);
        chunk.scale += std::fabs(t);
      }
      return chunk;
    };
    CompensatedSum total;
    for (const CompensatedSum& chunk : parallel_map(count, kReferenceChunk, sum_chunk)) {
      total.add(chunk.sum, chunk.compensation);
      total.scale += chunk.scale;
    }
    return {total.sum + total.compensation, total.scale};
  }
}

template Reference reference<float>(const float*, std::int64_t, Op);
template Reference reference<double>(const double*, std::int64_t, Op);
template Reference reference<std::int32_t>(const std::int32_t*, std::int64_t, Op);
template Reference reference<__half>(const __half*, std::int64_t, Op);
template Reference reference<__nv_bfloat16>(const __nv_bfloat16*, std::int64_t, Op);
template Reference reference<std::int8_t>(const std::int8_t*, std::int64_t, Op);

kb_verification check(long double got, const Reference& expected, double tolerance, double depth) {
  kb_verification result{};
  result.checked = 1;
  result.tolerance = tolerance;
  const long double difference = std::fabs(got - expected.value);
  double error = static_cast<double>(
      difference /
      std::max(expected.scale, static_cast<long double>(std::numeric_limits<double>::min())));
  if (!std::isfinite(error)) error = INFINITY;
  result.max_rel_error = error;
  result.passed = tolerance == 0.0 ? got == expected.value : error <= tolerance;
  std::snprintf(result.metrics, sizeof result.metrics,
                "result=%.17Lg;reference=%.17Lg;scale=%.17Lg;depth=%.0f", got, expected.value,
                expected.scale, depth);
  return result;
}

namespace {

bool is_1d(const kb_case* c, kb_message* why) {
  if (c->block[1] > 1 || c->block[2] > 1) {
    std::snprintf(why->text, sizeof why->text, "block must be 1D, threads per block (got %dx%dx%d)",
                  c->block[0], c->block[1], c->block[2]);
    return false;
  }
  return true;
}

}  // namespace

int accepts_1d_block(const kb_case* c, kb_message* why) { return is_1d(c, why); }

int accepts_power_of_two_block(const kb_case* c, kb_message* why) {
  if (!is_1d(c, why)) return 0;
  const int x = c->block[0];
  if (x < 1 || (x & (x - 1)) != 0) {
    std::snprintf(why->text, sizeof why->text,
                  "the tree halves the block each level: threads per block must be a power of "
                  "two (got %d)",
                  x);
    return 0;
  }
  return 1;
}

int accepts_warp_multiple_block(const kb_case* c, kb_message* why) {
  if (!is_1d(c, why)) return 0;
  if (c->block[0] < 32 || c->block[0] % 32 != 0) {
    std::snprintf(why->text, sizeof why->text,
                  "warp shuffles need whole warps: threads per block must be a multiple of 32 "
                  "(got %d)",
                  c->block[0]);
    return 0;
  }
  return 1;
}

}  // namespace kb::reduce
