// Host tests of the reduce family: the reference, the tolerance rule (a correct float sum passes,
// one element short fails), the check, and the acceptance rules; and the family's referee as the
// runner uses it (plugins/reduce/family.cu, loaded from reduce_family.so through the C ABI, on
// host buffers): its work, its operands, its timed and check draws, and the results it passes and
// fails. No GPU needed.
#include "families/family_library.hpp"

#include <kbench/families/reduce.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace kb::reduce {
namespace {

kb_case make_case(kb_dtype dtype, const char* op, std::int64_t n, int block = 0) {
  kb_case c{};
  c.dtype = dtype;
  c.op = op;
  c.rank = 1;
  c.shape[0] = n;
  c.block[0] = block;
  c.block[1] = block > 0 ? 1 : 0;
  c.block[2] = block > 0 ? 1 : 0;
  c.seed = 42;
  return c;
}

// Pairwise, as a tree reduction adds: depth ceil(log2 n).
template <typename T>
T tree_sum(const T* x, std::size_t n) {
  if (n == 1) return x[0];
  const std::size_t half = (n + 1) / 2;
  return tree_sum(x, half) + tree_sum(x + half, n - half);
}

template <typename T>
T serial_sum(const HostVector<T>& x, std::size_t count, Op op) {
  T sum = 0;
  for (std::size_t i = 0; i < count; ++i) sum += term(op, x[i]);
  return sum;
}

TEST(ReduceOp, ParsesTheFamilysOps) {
  EXPECT_EQ(parse_op("sum"), Op::sum);
  EXPECT_EQ(parse_op("sumsq"), Op::sumsq);
  try {
    parse_op("max");
    FAIL() << "an unknown op was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), KB_UNSUPPORTED);
    EXPECT_NE(std::string(e.what()).find("max"), std::string::npos);
  }
  EXPECT_STREQ(kOps, "sum,sumsq");
}

TEST(ReduceReference, IntegersAreExact) {
  const std::int32_t x[] = {3, -4, 5};
  const Reference sum = reference(x, 3, Op::sum);
  EXPECT_EQ(sum.value, 4.0L);
  EXPECT_EQ(sum.scale, 12.0L);
  const Reference squares = reference(x, 3, Op::sumsq);
  EXPECT_EQ(squares.value, 50.0L);
  EXPECT_EQ(squares.scale, 50.0L);
}

TEST(ReduceReference, IntegerSquaresAreAccumulatedIn64Bits) {
  // Each square overflows int32; their sum, 2^63 - 2^33 + 2, still fits int64.
  const std::int64_t m = std::numeric_limits<std::int32_t>::max();
  const std::int32_t x[] = {std::numeric_limits<std::int32_t>::max(),
                            std::numeric_limits<std::int32_t>::max()};
  EXPECT_EQ(reference(x, 2, Op::sumsq).value, static_cast<long double>(2 * m * m));
}

TEST(ReduceReference, FloatsAreCompensated) {
  // 1e20 + 1 loses the 1 even in long double (64-bit mantissa, ulp 16 there); TwoSum keeps it.
  const double x[] = {1e20, 1.0, -1e20};
  EXPECT_EQ(reference(x, 3, Op::sum).value, 1.0L);
  EXPECT_EQ(reference(x, 3, Op::sum).scale, 2e20L + 1.0L);
  const float f[] = {0.5f, -0.25f, 2.0f};
  EXPECT_EQ(reference(f, 3, Op::sum).value, 2.25L);
  EXPECT_EQ(reference(f, 3, Op::sumsq).value, 4.3125L);
}

TEST(ReduceTolerance, GrowsWithDepthAndPrecisionAndIsExactForIntegers) {
  EXPECT_EQ(tolerance<std::int32_t>(1e9), 0.0);
  EXPECT_DOUBLE_EQ(tolerance<float>(20), 2.0 * 0x1.0p-24 * 22);
  EXPECT_DOUBLE_EQ(tolerance<double>(20), 2.0 * 0x1.0p-53 * 22);
  EXPECT_LT(tolerance<float>(20), tolerance<float>(4096));
  EXPECT_LT(tolerance<double>(1e6), tolerance<float>(20));
  EXPECT_EQ(tolerance<float>(1e9), 1.0);  // capped: the check then only asks for the right size
}

TEST(ReduceTolerance, CorrectTreeSumPassesAndOneElementShortFails) {
  const std::size_t n = 4096;
  const HostVector<float> x = random_vector<float>(n, 7, 1);
  const Reference r = reference(x.data(), n, Op::sum);
  const double depth = ceil_log2(n);
  const kb_verification good = check(tree_sum(x.data(), n), r, tolerance<float>(depth), depth);
  EXPECT_TRUE(good.passed) << good.max_rel_error << " > " << good.tolerance;
  EXPECT_GT(good.max_rel_error, 0.0);  // float32 rounding is real, and reported
  const kb_verification short_one =
      check(tree_sum(x.data(), n - 1), r, tolerance<float>(depth), depth);
  EXPECT_FALSE(short_one.passed) << short_one.max_rel_error << " <= " << short_one.tolerance;
}

TEST(ReduceTolerance, SerialFloatSquaresStagnateAndPassOnlyWithTheirOwnDepth) {
  // One float32 chain over 2^20 squares: the partial sum grows until small squares round away.
  const std::size_t n = std::size_t{1} << 20;
  const HostVector<float> x = random_vector<float>(n, 7, 1);
  const Reference r = reference(x.data(), static_cast<std::int64_t>(n), Op::sumsq);
  const float got = serial_sum(x, n, Op::sumsq);
  const double serial = static_cast<double>(n - 1);
  const kb_verification as_serial = check(got, r, tolerance<float>(serial), serial);
  EXPECT_TRUE(as_serial.passed) << as_serial.max_rel_error;
  // Far worse than a tree's, as the seed's error table shows.
  EXPECT_GT(as_serial.max_rel_error, 1e-5);
  const double tree = ceil_log2(static_cast<std::int64_t>(n));
  EXPECT_FALSE(check(got, r, tolerance<float>(tree), tree).passed);
}

TEST(ReduceTolerance, DoubleSerialSumOneElementShortFails) {
  const std::size_t n = 1000000;
  const HostVector<double> x = random_vector<double>(n, 11, 1);
  const Reference r = reference(x.data(), static_cast<std::int64_t>(n), Op::sum);
  const double depth = static_cast<double>(n - 1);
  EXPECT_TRUE(check(serial_sum(x, n, Op::sum), r, tolerance<double>(depth), depth).passed);
  EXPECT_FALSE(check(serial_sum(x, n - 1, Op::sum), r, tolerance<double>(depth), depth).passed);
}

TEST(ReduceCheck, IntegersMustMatchExactly) {
  const HostVector<std::int32_t> x = random_vector<std::int32_t>(1000, 3, 1);
  const Reference r = reference(x.data(), 1000, Op::sumsq);
  std::int64_t exact = 0;
  for (const std::int32_t v : x) exact += std::int64_t{v} * v;
  const kb_verification good = check(exact, r, 0.0, 999);
  EXPECT_TRUE(good.passed);
  EXPECT_EQ(good.max_rel_error, 0.0);
  EXPECT_EQ(good.checked, 1u);
  const kb_verification off = check(exact - 1, r, 0.0, 999);
  EXPECT_FALSE(off.passed);
  EXPECT_GT(off.max_rel_error, 0.0);
  EXPECT_NE(std::string(off.metrics).find("reference="), std::string::npos);
}

TEST(ReduceCheck, NanFailsEvenUnderTheCap) {
  const float x[] = {0.5f, 0.25f};
  const Reference r = reference(x, 2, Op::sum);
  const kb_verification nan = check(std::numeric_limits<float>::quiet_NaN(), r, 1.0, 1e12);
  EXPECT_FALSE(nan.passed);
  EXPECT_TRUE(std::isinf(nan.max_rel_error));
  EXPECT_FALSE(check(INFINITY, r, 1.0, 1e12).passed);
}

// --- the referee, through reduce_family.so ------------------------------------------------------

template <typename T>
class ReduceFamily : public ::testing::Test {
 protected:
  using Out = Result<T>;
  void SetUp() override {
    family = kbtest::load_family("reduce");
    ASSERT_NE(family, nullptr);
  }
  static kb_case shape(std::int64_t n, const char* op) {
    return kbtest::make_case(dtype_of<T>(), 1, n, 0, 0, op);
  }
  const KernelFamily* family = nullptr;
};
using AnySize = ::testing::Types<float, double, std::int32_t, __half, __nv_bfloat16, std::int8_t>;
TYPED_TEST_SUITE(ReduceFamily, AnySize);

// An input element's value, exactly (16-bit floats through float).
template <typename T>
long double value_of(T x) {
  if constexpr (std::is_same_v<T, __half>) {
    return __half2float(x);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __bfloat162float(x);
  } else {
    return static_cast<long double>(x);
  }
}

// The check's metrics for a result and the reference it was held to.
std::string metrics_for(long double got, long double value, long double scale, double depth) {
  char text[KB_METRICS_CAPACITY];
  std::snprintf(text, sizeof text, "result=%.17Lg;reference=%.17Lg;scale=%.17Lg;depth=%.0f", got,
                value, scale, depth);
  return text;
}

TEST(ReduceFamilyLibrary, DescribesItselfAsTheVersionThreeReferee) {
  const KernelFamily* family = kbtest::load_family("reduce");
  ASSERT_NE(family, nullptr);
  EXPECT_EQ(family->abi_version, static_cast<std::uint32_t>(KB_ABI_VERSION));
  EXPECT_EQ(family->struct_size, sizeof(KernelFamily));
  ASSERT_NE(family->info, nullptr);
  EXPECT_STREQ(family->info->name, "reduce");
  EXPECT_EQ(family->info->rank, 1);
  EXPECT_STREQ(family->info->reference, descriptor()->reference);
  EXPECT_STREQ(family->ops, "sum,sumsq");
  EXPECT_EQ(family->dtypes, dtype_mask(DTypesOfAnySize{}));
  ASSERT_NE(family->version, nullptr);
  EXPECT_STRNE(family->version, "");
}

TYPED_TEST(ReduceFamily, WorkIsOneReadOfTheInputAndOneResult) {
  using Out = typename TestFixture::Out;
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{1} << 28}) {
    const auto count = static_cast<double>(n);
    const kb_work sum = kbtest::work_of(*this->family, this->shape(n, "sum"));
    EXPECT_DOUBLE_EQ(sum.bytes, count * sizeof(TypeParam) + sizeof(Out)) << n;
    EXPECT_DOUBLE_EQ(sum.flops, count) << n;
    const kb_work squares = kbtest::work_of(*this->family, this->shape(n, "sumsq"));
    EXPECT_DOUBLE_EQ(squares.bytes, sum.bytes) << n;
    EXPECT_DOUBLE_EQ(squares.flops, 2.0 * count) << n;
  }
}

TEST(ReduceFamilyLibrary, RefusesAnUnknownOp) {
  const KernelFamily* family = kbtest::load_family("reduce");
  ASSERT_NE(family, nullptr);
  for (const char* op : {"prod", ""}) {
    const kb_case c = kbtest::make_case(KB_DTYPE_F64, 1, 10, 0, 0, op);
    kb_work work{};
    kb_message message{};
    EXPECT_EQ(family->work(&c, &work, &message), KB_UNSUPPORTED) << op;
    EXPECT_NE(std::string(message.text).find("'" + std::string(op) + "'"), std::string::npos)
        << message.text;
    kbtest::HostCase refused(*family, c);
    EXPECT_EQ(refused.created, KB_UNSUPPORTED) << op;
  }
  // int64 is the type of an integer sum, never of a case.
  kbtest::HostCase refused(*family, kbtest::make_case(KB_DTYPE_I64, 1, 10, 0, 0, "sum"));
  EXPECT_EQ(refused.created, KB_UNSUPPORTED);
}

TYPED_TEST(ReduceFamily, CreatesTheInputAndOneResult) {
  using Out = typename TestFixture::Out;
  kbtest::HostCase c(*this->family, this->shape(1000, "sum"));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.buffers.input_count, 1u);
  EXPECT_NE(c.buffers.inputs[0].data, nullptr);
  EXPECT_EQ(c.buffers.inputs[0].count, 1000u);
  EXPECT_EQ(c.buffers.inputs[0].bytes, 1000u * sizeof(TypeParam));
  EXPECT_EQ(c.buffers.inputs[0].dtype, dtype_of<TypeParam>());
  ASSERT_EQ(c.buffers.output_count, 1u);
  EXPECT_NE(c.buffers.outputs[0].data, nullptr);
  EXPECT_EQ(c.buffers.outputs[0].count, 1u);
  EXPECT_EQ(c.buffers.outputs[0].bytes, sizeof(Out));
  // int64 sums of integers, float32 sums of 16-bit floats, T's own otherwise.
  const kb_dtype want = std::is_integral_v<TypeParam> ? KB_DTYPE_I64
                        : sizeof(TypeParam) == 2      ? KB_DTYPE_F32
                                                      : dtype_of<TypeParam>();
  EXPECT_EQ(c.buffers.outputs[0].dtype, want);
}

// Timed and check draws are one distribution (family version 5): integers uniform in
// [kLow, kHigh]; floats -1, 0 or +1, at most half of them non-zero, so a strategy cannot tell a
// draw it will be judged on from one it will not, and every sum is exact in any order.
TYPED_TEST(ReduceFamily, DrawsAreSeededExactlySummableAndAlikeForEveryPurpose) {
  constexpr std::size_t n = 1000;
  kbtest::HostCase a(*this->family, this->shape(n, "sum"));
  kbtest::HostCase b(*this->family, this->shape(n, "sumsq"));
  ASSERT_EQ(a.created, KB_OK) << a.message.text;
  ASSERT_EQ(b.created, KB_OK) << b.message.text;
  ASSERT_EQ(a.draw(42, KB_DRAW_TIMED), KB_OK) << a.message.text;
  ASSERT_EQ(b.draw(42, KB_DRAW_CHECK), KB_OK) << b.message.text;
  EXPECT_EQ(a.input_bytes(), b.input_bytes())
      << "the input depends on the seed, not on the op or the draw's purpose";

  const TypeParam* x = a.input<TypeParam>();
  std::size_t zeros = 0, negative = 0, outside = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double v = value_of(x[i]);
    zeros += v == 0;
    negative += v < 0;
    if constexpr (std::is_integral_v<TypeParam>) {
      outside += v < kLow || v > kHigh;
    } else {
      outside += v != -1 && v != 0 && v != 1;
    }
  }
  EXPECT_EQ(outside, 0u);
  if constexpr (std::is_integral_v<TypeParam>) {
    EXPECT_LT(zeros, 20u);
    EXPECT_GT(negative, 400u);
    EXPECT_LT(negative, 600u);
  } else {
    // Half of them zero: no result is known without reading (all +-1 would make sumsq n).
    EXPECT_GT(zeros, 400u);
    EXPECT_LT(zeros, 600u);
    EXPECT_GT(negative, 150u);
    EXPECT_LT(negative, 350u);
  }
  const std::vector<unsigned char> first = a.input_bytes();
  ASSERT_EQ(a.draw(42, KB_DRAW_TIMED), KB_OK) << a.message.text;
  EXPECT_EQ(a.input_bytes(), first);
  ASSERT_EQ(a.draw(43, KB_DRAW_TIMED), KB_OK) << a.message.text;
  EXPECT_NE(a.input_bytes(), first);
}

// After a check draw a result is held to the reference exactly: a correct sum passes with no
// error; one element short, or (floats) one ulp off, fails with its error in the metrics.
TYPED_TEST(ReduceFamily, CheckDrawIsHeldExactly) {
  using Out = typename TestFixture::Out;
  constexpr std::int64_t n = 1000;
  for (const char* op_name : {"sum", "sumsq"}) {
    const Op op = parse_op(op_name);
    kbtest::HostCase c(*this->family, this->shape(n, op_name));
    ASSERT_EQ(c.created, KB_OK) << c.message.text;
    ASSERT_EQ(c.draw(7, KB_DRAW_CHECK), KB_OK) << c.message.text;
    const TypeParam* x = c.input<TypeParam>();
    long double exact = 0, scale = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const long double t = term(op, value_of(x[i]));
      exact += t;  // integers far below 2^64: exact in long double
      scale += std::fabs(t);
    }
    Out* out = c.output<Out>();
    *out = static_cast<Out>(exact);
    kb_verification v = c.check();
    EXPECT_EQ(c.checked, KB_OK) << op_name << " " << c.message.text;
    EXPECT_TRUE(v.passed) << op_name;
    EXPECT_EQ(v.tolerance, 0.0) << op_name;
    EXPECT_EQ(v.max_rel_error, 0.0) << op_name;
    EXPECT_EQ(v.checked, 1u);
    EXPECT_EQ(v.metrics, metrics_for(exact, exact, scale, n - 1)) << op_name;

    // One element short: the last non-zero term missing.
    std::int64_t last = n - 1;
    while (value_of(x[last]) == 0) --last;
    const long double short_one = exact - term(op, value_of(x[last]));
    *out = static_cast<Out>(short_one);
    v = c.check();
    EXPECT_EQ(c.checked, KB_VERIFY_FAILED) << op_name;
    EXPECT_FALSE(v.passed) << op_name;
    EXPECT_DOUBLE_EQ(v.max_rel_error,
                     static_cast<double>(std::fabs(term(op, value_of(x[last]))) / scale))
        << op_name;
    EXPECT_EQ(v.metrics, metrics_for(short_one, exact, scale, n - 1)) << op_name;

    if constexpr (!std::is_integral_v<Out>) {
      // One ulp off: far inside any rounding tolerance, but the check draw's sums are exact.
      const Out off = std::nextafter(static_cast<Out>(exact), Out{1e30});
      *out = off;
      v = c.check();
      EXPECT_FALSE(v.passed) << op_name;
      EXPECT_EQ(v.tolerance, 0.0);
      EXPECT_DOUBLE_EQ(v.max_rel_error,
                       static_cast<double>(std::fabs(static_cast<long double>(off) - exact) / scale));
      EXPECT_LT(v.max_rel_error, tolerance<TypeParam>(1.0)) << "timed, it would have passed";
    }
  }
}

// After a timed draw a float result is held to the bound of any summation order (depth n - 1):
// the rounded reference and one ulp from it pass, one element short fails; integers are exact.
// A timed launch's result is held exactly too, and one step off fails.
TYPED_TEST(ReduceFamily, TimedDrawIsHeldExactly) {
  using Out = typename TestFixture::Out;
  constexpr std::int64_t n = 1000;
  for (const char* op_name : {"sum", "sumsq"}) {
    const Op op = parse_op(op_name);
    kbtest::HostCase c(*this->family, this->shape(n, op_name));
    ASSERT_EQ(c.created, KB_OK) << c.message.text;
    ASSERT_EQ(c.draw(8, KB_DRAW_TIMED), KB_OK) << c.message.text;
    const TypeParam* x = c.input<TypeParam>();
    const Reference r = reference(x, n, op);
    Out* out = c.output<Out>();
    *out = static_cast<Out>(r.value);
    kb_verification v = c.check();
    EXPECT_EQ(c.checked, KB_OK) << op_name << " " << c.message.text;
    EXPECT_TRUE(v.passed) << op_name << " " << v.max_rel_error;
    EXPECT_EQ(v.tolerance, 0.0) << op_name;
    EXPECT_EQ(v.max_rel_error, 0.0) << op_name;
    *out = static_cast<Out>(r.value + 1);
    v = c.check();
    EXPECT_EQ(c.checked, KB_VERIFY_FAILED) << op_name;
    EXPECT_FALSE(v.passed) << op_name;
  }
}

TYPED_TEST(ReduceFamily, APoisonedOutputFails) {
  using Out = typename TestFixture::Out;
  kbtest::HostCase c(*this->family, this->shape(1000, "sum"));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.draw(3, KB_DRAW_CHECK), KB_OK) << c.message.text;
  Out* out = c.output<Out>();
  *out = static_cast<Out>(reference(c.input<TypeParam>(), 1000, Op::sum).value);
  ASSERT_TRUE(c.check().passed);
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;
  const kb_verification v = c.check();
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
  if constexpr (std::is_integral_v<Out>) {
    // Not 0xFF bytes (-1, a possible sum): a value no sum of |x| <= 100 reaches.
    EXPECT_LT(*out, std::int64_t{-100} * (std::int64_t{1} << 40));
    EXPECT_GT(v.max_rel_error, 1e10);
  } else {
    EXPECT_TRUE(std::isnan(*out));
    EXPECT_EQ(v.max_rel_error, INFINITY);
  }
}

TEST(ReduceFamilyLibrary, LargeCheckDrawHasAbout2To22NonZerosWhoseFloatSumsAreExact) {
  const KernelFamily* family = kbtest::load_family("reduce");
  ASSERT_NE(family, nullptr);
  constexpr std::int64_t n = std::int64_t{1} << 23;
  for (const char* op_name : {"sum", "sumsq"}) {
    const Op op = parse_op(op_name);
    kbtest::HostCase c(*family, kbtest::make_case(KB_DTYPE_F32, 1, n, 0, 0, op_name));
    ASSERT_EQ(c.created, KB_OK) << c.message.text;
    ASSERT_EQ(c.draw(5, KB_DRAW_CHECK), KB_OK) << c.message.text;
    const float* x = c.input<float>();
    // Summed in float32 in the worst order for a float (one serial chain): every partial sum is
    // an integer below 2^24, so the chain is exact.
    float serial = 0;
    std::int64_t exact = 0, non_zeros = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_TRUE(x[i] == -1.0f || x[i] == 0.0f || x[i] == 1.0f) << i << ": " << x[i];
      serial += term(op, x[i]);
      exact += static_cast<std::int64_t>(term(op, x[i]));
      non_zeros += x[i] != 0.0f;
    }
    // 2^23 elements, each non-zero with probability 1/2: 2^22 give or take 1448 (one sigma).
    EXPECT_NEAR(static_cast<double>(non_zeros), kExactNonZeros, 8192.0) << op_name;
    EXPECT_EQ(static_cast<std::int64_t>(serial), exact) << op_name;
    *c.output<float>() = serial;
    kb_verification v = c.check();
    EXPECT_TRUE(v.passed) << op_name << " " << v.metrics;
    EXPECT_EQ(v.max_rel_error, 0.0);
    EXPECT_EQ(v.tolerance, 0.0);
    // One non-zero element skipped shows: an error of 1 / (number of non-zeros).
    *c.output<float>() = serial - 1.0f;
    v = c.check();
    EXPECT_FALSE(v.passed) << op_name;
    EXPECT_DOUBLE_EQ(v.max_rel_error, 1.0 / static_cast<double>(non_zeros)) << op_name;
  }
}

TEST(ReduceFamilyLibrary, AcceptsAnyCaseWithAnElement) {
  const KernelFamily* family = kbtest::load_family("reduce");
  ASSERT_NE(family, nullptr);
  ASSERT_NE(family->accepts, nullptr);
  EXPECT_TRUE(kbtest::family_accepts(*family, kbtest::make_case(KB_DTYPE_I8, 1, 1, 0, 0, "sum")));
  kb_case wide = kbtest::make_case(KB_DTYPE_F32, 1, 1000, 0, 0, "sumsq");
  wide.block[1] = 16;  // a 2D block is for the strategies to refuse (accepts_1d_block)
  EXPECT_TRUE(kbtest::family_accepts(*family, wide));
  std::string why;
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{-5}}) {
    EXPECT_FALSE(
        kbtest::family_accepts(*family, kbtest::make_case(KB_DTYPE_F32, 1, n, 0, 0, "sum"), &why))
        << n;
    EXPECT_NE(why.find("at least one element"), std::string::npos) << why;
  }
}

TEST(ReduceAccepts, BlockRules) {
  kb_message why{};
  kb_case c = make_case(KB_DTYPE_F32, "sum", 1 << 20, 96);
  EXPECT_TRUE(accepts_1d_block(&c, &why));
  EXPECT_TRUE(accepts_warp_multiple_block(&c, &why));
  EXPECT_FALSE(accepts_power_of_two_block(&c, &why));
  EXPECT_NE(std::string(why.text).find("power of two"), std::string::npos);

  c.block[0] = 256;
  EXPECT_TRUE(accepts_power_of_two_block(&c, &why));
  EXPECT_TRUE(accepts_warp_multiple_block(&c, &why));

  c.block[0] = 100;
  EXPECT_TRUE(accepts_1d_block(&c, &why));
  EXPECT_FALSE(accepts_warp_multiple_block(&c, &why));
  EXPECT_NE(std::string(why.text).find("multiple of 32"), std::string::npos);

  c.block[0] = 16;
  EXPECT_TRUE(accepts_power_of_two_block(&c, &why));
  EXPECT_FALSE(accepts_warp_multiple_block(&c, &why));

  c.block[0] = 16, c.block[1] = 16;
  EXPECT_FALSE(accepts_1d_block(&c, &why));
  EXPECT_FALSE(accepts_power_of_two_block(&c, &why));
  EXPECT_NE(std::string(why.text).find("1D"), std::string::npos);
}

TEST(ReduceDepth, LastBlockDepthCountsTheChainsAndBothTrees) {
  EXPECT_EQ(ceil_log2(1), 0);
  EXPECT_EQ(ceil_log2(256), 8);
  EXPECT_EQ(ceil_log2(257), 9);
  EXPECT_EQ(ceil_div(10, 4), 3);
  // 2^20 over 4 blocks of 256: a chain of 1024, 1 total per thread of the last block, 2 x 8 levels.
  EXPECT_DOUBLE_EQ(last_block_depth(1 << 20, 4, 256, 8), 1024 + 1 + 16);
}

}  // namespace
}  // namespace kb::reduce
