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

template <typename T>
Reference reference(const T* x, std::int64_t n, Op op) {
  if constexpr (std::is_integral_v<T>) {
    std::int64_t sum = 0, scale = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t t = term(op, std::int64_t{x[i]});
      sum += t;
      scale += t < 0 ? -t : t;
    }
    return {static_cast<long double>(sum), static_cast<long double>(scale)};
  } else {
    // TwoSum (Knuth): s + e == sum + t exactly, so `compensation` gathers every rounding error.
    // Needs IEEE evaluation: no -ffast-math, no contraction (the ISO -std=c++17 default of g++).
    long double sum = 0, compensation = 0, scale = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const long double t = term(op, static_cast<long double>(x[i]));
      const long double s = sum + t;
      const long double z = s - sum;
      compensation += (sum - (s - z)) + (t - z);
      sum = s;
      scale += std::fabs(t);
    }
    return {sum + compensation, scale};
  }
}

template Reference reference<float>(const float*, std::int64_t, Op);
template Reference reference<double>(const double*, std::int64_t, Op);
template Reference reference<std::int32_t>(const std::int32_t*, std::int64_t, Op);

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
