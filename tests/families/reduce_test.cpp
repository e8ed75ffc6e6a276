// Host tests of the reduce family: the reference, the tolerance rule (a correct float sum passes,
// one element short fails), the check, the problem on the host, and the acceptance rules.
#include <kbench/families/reduce.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
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

TEST(ReduceProblem, FillsCountsAndVerifiesOnTheHost) {
  kb_work work{};
  const kb_case c = make_case(KB_DTYPE_F32, "sumsq", 1000);
  Problem<float> p(c, KB_DEVICE_HOST, work);
  EXPECT_EQ(p.n, 1000);
  EXPECT_EQ(p.op, Op::sumsq);
  EXPECT_EQ(p.block, 0u);
  EXPECT_DOUBLE_EQ(work.bytes, 1000.0 * sizeof(float) + sizeof(float));
  EXPECT_DOUBLE_EQ(work.flops, 2000.0);

  // Inputs are seeded, in [-1, 1), not all zero.
  const HostVector<float> expected = random_vector<float>(1000, 42, 1);
  ASSERT_EQ(std::memcmp(p.in(), expected.data(), 1000 * sizeof(float)), 0);

  double sum = 0;
  for (int i = 0; i < 1000; ++i) sum += static_cast<double>(p.in()[i]) * p.in()[i];
  *p.out() = static_cast<float>(sum);
  EXPECT_TRUE(p.verify().passed);
  p.poison(nullptr);
  EXPECT_TRUE(std::isnan(*p.out()));
  EXPECT_FALSE(p.verify().passed);
}

TEST(ReduceProblem, IntegerPoisonIsNoPossibleSum) {
  kb_work work{};
  Problem<std::int32_t> p(make_case(KB_DTYPE_I32, "sum", 1), KB_DEVICE_HOST, work);
  EXPECT_DOUBLE_EQ(work.bytes, 4.0 + 8.0);  // int32 in, int64 out
  *p.out() = p.in()[0];
  EXPECT_TRUE(p.verify().passed);
  p.poison(nullptr);
  EXPECT_LT(*p.out(), std::int64_t{-100} * (std::int64_t{1} << 40));
  EXPECT_FALSE(p.verify().passed);
}

TEST(ReduceProblem, RejectsAnUnknownOp) {
  kb_work work{};
  try {
    Problem<double> p(make_case(KB_DTYPE_F64, "prod", 10), KB_DEVICE_HOST, work);
    FAIL() << "an unknown op was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), KB_UNSUPPORTED);
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
