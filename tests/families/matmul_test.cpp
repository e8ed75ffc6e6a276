// Host tests of the matmul family: the compensated float64 reference, the tolerance rule, the full
// and the sampling verifier (a wrong entry anywhere it looks must fail), the precision a strategy's
// declared math is held to, and the acceptance rules; and the family's referee as the runner uses
// it (plugins/matmul/family.cu, loaded from matmul_family.so through the C ABI, on host buffers):
// its work, its operands, its draws, and the products it passes and fails. No GPU needed.
#include "families/family_library.hpp"

#include <kbench/families/matmul.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using kb::matmul::Precision;

kb_case make_case(std::int64_t M, std::int64_t N, std::int64_t K, kb_dtype dtype = KB_DTYPE_F32,
                  std::uint64_t seed = 42) {
  kb_case c{};
  c.dtype = dtype;
  c.op = "";
  c.rank = 3;
  c.shape[0] = M, c.shape[1] = N, c.shape[2] = K;
  c.block[0] = 16, c.block[1] = 16, c.block[2] = 1;
  c.seed = seed;
  return c;
}

template <typename T>
double value_of(T x) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __bfloat162float(x);
  } else if constexpr (std::is_same_v<T, __half>) {
    return __half2float(x);
  } else {
    return x;
  }
}

const KernelFamily& matmul_family() {
  const KernelFamily* family = kbtest::load_family("matmul");
  if (family == nullptr) throw std::runtime_error("matmul_family.so cannot be loaded");
  return *family;
}

// A host case of the matmul family, drawn from `seed`, whose C is the exact product rounded to C's
// type (what a perfect kernel writes), computed here from the inputs the family drew.
template <typename T>
struct Solved {
  using Out = kb::matmul::Product<T>;

  explicit Solved(const kb_case& shape, std::uint64_t seed = 42)
      : M(shape.shape[0]), N(shape.shape[1]), K(shape.shape[2]), host(matmul_family(), shape) {
    if (host.created != KB_OK) throw std::runtime_error(host.message.text);
    if (host.draw(seed) != KB_OK) throw std::runtime_error(host.message.text);
    std::vector<double> row(static_cast<std::size_t>(N));
    for (std::int64_t i = 0; i < M; ++i) {
      std::fill(row.begin(), row.end(), 0.0);
      for (std::int64_t k = 0; k < K; ++k) {
        const double aik = value_of(a()[i * K + k]);
        for (std::int64_t j = 0; j < N; ++j) row[j] += aik * value_of(b()[k * N + j]);
      }
      for (std::int64_t j = 0; j < N; ++j) at(i, j) = static_cast<Out>(row[j]);
    }
  }
  const T* a() const { return host.input<T>(0); }
  const T* b() const { return host.input<T>(1); }
  Out* c() const { return host.output<Out>(0); }
  Out& at(std::int64_t i, std::int64_t j) { return c()[i * N + j]; }
  kb_verification check(std::uint32_t strategy_flags = 0) { return host.check(strategy_flags); }

  // |c_ij - exact_ij| / sum_k |a_ik b_kj|, in long double: the error the check reports.
  double error_at(std::int64_t i, std::int64_t j) const {
    long double exact = 0, magnitude = 0;
    for (std::int64_t k = 0; k < K; ++k) {
      const long double product =
          static_cast<long double>(value_of(a()[i * K + k])) * value_of(b()[k * N + j]);
      exact += product;
      magnitude += std::fabs(product);
    }
    return static_cast<double>(std::fabs(static_cast<long double>(c()[i * N + j]) - exact) /
                               magnitude);
  }

  const std::int64_t M, N, K;
  kbtest::HostCase host;
};

std::string metrics(const kb_verification& v) { return v.metrics; }

// --- the referee, through matmul_family.so ------------------------------------------------------

template <typename T>
class MatmulFamily : public ::testing::Test {};
using MatmulTypes = ::testing::Types<float, double, __nv_bfloat16, __half>;
TYPED_TEST_SUITE(MatmulFamily, MatmulTypes);

TEST(MatmulFamilyLibrary, DescribesItselfAsTheVersionThreeReferee) {
  const KernelFamily& family = matmul_family();
  EXPECT_EQ(family.abi_version, static_cast<std::uint32_t>(KB_ABI_VERSION));
  EXPECT_EQ(family.struct_size, sizeof(KernelFamily));
  ASSERT_NE(family.info, nullptr);
  EXPECT_STREQ(family.info->name, "matmul");
  EXPECT_EQ(family.info->rank, 3);
  EXPECT_STREQ(family.info->shape_names, "M,N,K");
  EXPECT_STREQ(family.info->reference, kb::matmul::descriptor()->reference);
  EXPECT_EQ(family.dtypes, static_cast<std::uint32_t>(KB_DTYPE_F32 | KB_DTYPE_F64 | KB_DTYPE_F16 |
                                                      KB_DTYPE_BF16));
  EXPECT_STREQ(family.ops, "");
  ASSERT_NE(family.version, nullptr);
  EXPECT_STRNE(family.version, "");
}

TYPED_TEST(MatmulFamily, CountsTheWorkOfOneProduct) {
  const kb_work work =
      kbtest::work_of(matmul_family(), make_case(33, 65, 17, kb::dtype_of<TypeParam>()));
  EXPECT_DOUBLE_EQ(work.flops, 2.0 * 33 * 65 * 17);
  // A and B of T read once, C written once: float32 for 16-bit inputs.
  const double c_element = sizeof(TypeParam) == 2 ? 4.0 : sizeof(TypeParam);
  EXPECT_DOUBLE_EQ(work.bytes, sizeof(TypeParam) * (33.0 * 17 + 17 * 65) + c_element * 33 * 65);
}

TEST(MatmulFamilyLibrary, CountsTheWorkOfFloat64) {
  const kb_work work = kbtest::work_of(matmul_family(), make_case(33, 65, 17, KB_DTYPE_F64));
  EXPECT_DOUBLE_EQ(work.bytes, 8.0 * (33 * 17 + 17 * 65 + 33 * 65));
  const kb_work large = kbtest::work_of(matmul_family(), make_case(4096, 4096, 4096));
  EXPECT_DOUBLE_EQ(large.flops, 2.0 * 4096.0 * 4096.0 * 4096.0);
}

TEST(MatmulFamilyLibrary, RefusesIntegers) {
  const KernelFamily& family = matmul_family();
  const kb_case c = make_case(8, 8, 8, KB_DTYPE_I32);
  kb_work work{};
  kb_message message{};
  EXPECT_EQ(family.work(&c, &work, &message), KB_UNSUPPORTED);
  EXPECT_NE(std::string(message.text).find("data type"), std::string::npos) << message.text;
  kbtest::HostCase refused(family, c);
  EXPECT_EQ(refused.created, KB_UNSUPPORTED);
}

TYPED_TEST(MatmulFamily, CreatesAAndBOfTAndCOfTheProductType) {
  kbtest::HostCase c(matmul_family(), make_case(33, 65, 17, kb::dtype_of<TypeParam>()));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.buffers.input_count, 2u);
  ASSERT_EQ(c.buffers.output_count, 1u);
  const kb_operand& a = c.buffers.inputs[0];
  const kb_operand& b = c.buffers.inputs[1];
  const kb_operand& out = c.buffers.outputs[0];
  EXPECT_EQ(a.count, 33u * 17u);
  EXPECT_EQ(b.count, 17u * 65u);
  EXPECT_EQ(out.count, 33u * 65u);
  EXPECT_EQ(a.dtype, kb::dtype_of<TypeParam>());
  EXPECT_EQ(b.dtype, kb::dtype_of<TypeParam>());
  EXPECT_EQ(a.bytes, a.count * sizeof(TypeParam));
  EXPECT_EQ(b.bytes, b.count * sizeof(TypeParam));
  EXPECT_EQ(out.dtype, kb::dtype_of<kb::matmul::Product<TypeParam>>());
  EXPECT_EQ(out.dtype, sizeof(TypeParam) == 2 ? KB_DTYPE_F32 : kb::dtype_of<TypeParam>());
  EXPECT_EQ(out.bytes, out.count * sizeof(kb::matmul::Product<TypeParam>));
  EXPECT_NE(a.data, nullptr);
  EXPECT_NE(b.data, nullptr);
  EXPECT_NE(out.data, nullptr);
  EXPECT_NE(a.data, b.data);
}

TYPED_TEST(MatmulFamily, InputsAreSeededUniformInMinusOneOne) {
  const kb_case shape = make_case(40, 30, 20, kb::dtype_of<TypeParam>());
  kbtest::HostCase p(matmul_family(), shape), same(matmul_family(), shape);
  ASSERT_EQ(p.created, KB_OK) << p.message.text;
  ASSERT_EQ(same.created, KB_OK) << same.message.text;
  ASSERT_EQ(p.draw(42), KB_OK) << p.message.text;
  ASSERT_EQ(same.draw(42), KB_OK) << same.message.text;
  EXPECT_EQ(p.input_bytes(0), same.input_bytes(0));
  EXPECT_EQ(p.input_bytes(1), same.input_bytes(1));
  EXPECT_NE(p.input_bytes(0), p.input_bytes(1)) << "A and B are two streams of the seed";

  // A from stream 1, B from stream 2 of the seed, as the device draws them.
  const TypeParam* a = p.input<TypeParam>(0);
  const TypeParam* b = p.input<TypeParam>(1);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < 40 * 20; ++i) {
    const TypeParam want = kb::random_value<TypeParam>(42, kb::matmul::kStreamA, i);
    wrong += std::memcmp(&a[i], &want, sizeof want) != 0;
  }
  for (std::size_t i = 0; i < 20 * 30; ++i) {
    const TypeParam want = kb::random_value<TypeParam>(42, kb::matmul::kStreamB, i);
    wrong += std::memcmp(&b[i], &want, sizeof want) != 0;
  }
  EXPECT_EQ(wrong, 0u);
  double low = 1, high = -1;
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < 40 * 20; ++i) {
    low = std::min(low, value_of(a[i]));
    high = std::max(high, value_of(a[i]));
    zeros += value_of(a[i]) == 0.0;
  }
  EXPECT_GE(low, -1.0);
  EXPECT_LE(high, 1.0);
  EXPECT_LT(low, -0.9);  // the whole range is used, negative values included
  EXPECT_GT(high, 0.9);
  EXPECT_LT(zeros, 10u);

  ASSERT_EQ(same.draw(43), KB_OK) << same.message.text;
  EXPECT_NE(p.input_bytes(0), same.input_bytes(0));
  EXPECT_NE(p.input_bytes(1), same.input_bytes(1));
}

// bfloat16 and float16 inputs multiply into a float32 C. Every product of two is exact in
// float32, so the check holds C to float32 accumulation alone, whatever math the strategy
// declares; an entry off by 0.01 (at least 1/17 of sum |a b| at K = 17) is far over that.
template <typename T>
void expect_sixteen_bit_inputs_checked_at_float32(kb_dtype dtype) {
  Solved<T> s(make_case(33, 65, 17, dtype));
  static_assert(std::is_same_v<decltype(s.c()), float*>);
  for (const std::uint32_t flags : {0u, unsigned{KB_FLAG_MATH_BF16}, unsigned{KB_FLAG_MATH_FP16},
                                    unsigned{KB_FLAG_MATH_TF32}}) {
    const kb_verification v = s.check(flags);
    EXPECT_TRUE(v.passed) << metrics(v);
    EXPECT_NE(metrics(v).find("precision=fp32"), std::string::npos) << flags << " " << metrics(v);
    EXPECT_DOUBLE_EQ(v.tolerance, kb::matmul::tolerance(Precision::fp32, 17));
  }
  s.at(32, 64) += 0.01f;
  const kb_verification v = s.check(KB_FLAG_MATH_BF16);
  EXPECT_EQ(s.host.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
  EXPECT_NE(metrics(v).find("worst=32x64"), std::string::npos) << metrics(v);
  EXPECT_NEAR(v.max_rel_error, s.error_at(32, 64), 1e-6 * v.max_rel_error);
}

TEST(MatmulFamilyLibrary, SixteenBitInputsMultiplyIntoAFloatC) {
  expect_sixteen_bit_inputs_checked_at_float32<__nv_bfloat16>(KB_DTYPE_BF16);
  expect_sixteen_bit_inputs_checked_at_float32<__half>(KB_DTYPE_F16);
}

TYPED_TEST(MatmulFamily, APoisonedOutputFails) {
  Solved<TypeParam> s(make_case(8, 9, 10, kb::dtype_of<TypeParam>()));
  ASSERT_TRUE(s.check().passed);
  ASSERT_EQ(s.host.poison(), KB_OK) << s.host.message.text;
  EXPECT_TRUE(std::isnan(s.at(3, 4))) << "C poisoned with NaN";
  const kb_verification v = s.check();
  EXPECT_EQ(s.host.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
  EXPECT_TRUE(std::isinf(v.max_rel_error));
}

TYPED_TEST(MatmulFamily, ChecksAgainstTheLastDraw) {
  Solved<TypeParam> s(make_case(12, 7, 5, kb::dtype_of<TypeParam>()));
  ASSERT_TRUE(s.check().passed);
  // The product of the previous inputs, kept by a strategy that does not recompute, fails.
  ASSERT_EQ(s.host.draw(77), KB_OK) << s.host.message.text;
  EXPECT_FALSE(s.check().passed);
}

// --- the precision a strategy's declared math is held to --------------------------------------

TEST(MatmulPrecision, FollowsTheDataTypeAndTheDeclaredMath) {
  using kb::matmul::precision_for;
  EXPECT_EQ(precision_for(KB_DTYPE_F32, 0), Precision::fp32);
  EXPECT_EQ(precision_for(KB_DTYPE_F32, KB_FLAG_MATH_SIMT), Precision::fp32);
  EXPECT_EQ(precision_for(KB_DTYPE_F32, KB_FLAG_MATH_TF32), Precision::tf32);
  EXPECT_EQ(precision_for(KB_DTYPE_F32, KB_FLAG_MATH_BF16), Precision::bf16);
  EXPECT_EQ(precision_for(KB_DTYPE_F32, KB_FLAG_MATH_FP16), Precision::fp16);
  EXPECT_EQ(precision_for(KB_DTYPE_F32, KB_FLAG_MATH_FP64_TENSOR), Precision::fp32);
  EXPECT_EQ(precision_for(KB_DTYPE_F32, KB_FLAG_MATH_TF32 | KB_FLAG_OWN_LAUNCH_SHAPE),
            Precision::tf32);
  // Float64 is held to float64 whatever the flags; 16-bit inputs are exact, held to float32.
  for (const std::uint32_t flags : {0u, unsigned{KB_FLAG_MATH_TF32}, unsigned{KB_FLAG_MATH_BF16},
                                    unsigned{KB_FLAG_MATH_FP64_TENSOR}}) {
    EXPECT_EQ(precision_for(KB_DTYPE_F64, flags), Precision::fp64) << flags;
    EXPECT_EQ(precision_for(KB_DTYPE_BF16, flags), Precision::fp32) << flags;
    EXPECT_EQ(precision_for(KB_DTYPE_F16, flags), Precision::fp32) << flags;
  }
  EXPECT_STREQ(kb::matmul::name_of(Precision::tf32), "tf32");
  EXPECT_STREQ(kb::matmul::name_of(Precision::fp16), "fp16");
}

TEST(MatmulPrecision, TheCheckTakesItsToleranceFromTheStrategysFlags) {
  Solved<float> s(make_case(33, 65, 17));
  const std::pair<std::uint32_t, Precision> declared[] = {
      {0u, Precision::fp32},
      {KB_FLAG_MATH_SIMT, Precision::fp32},
      {KB_FLAG_MATH_TF32, Precision::tf32},
      {KB_FLAG_MATH_BF16, Precision::bf16},
      {KB_FLAG_MATH_FP16, Precision::fp16},
      {KB_FLAG_MATH_FP64_TENSOR, Precision::fp32},
      {KB_FLAG_MATH_TF32 | KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_NONDETERMINISTIC, Precision::tf32}};
  for (const auto& [flags, precision] : declared) {
    const kb_verification v = s.check(flags);
    EXPECT_TRUE(v.passed) << flags;
    EXPECT_DOUBLE_EQ(v.tolerance, kb::matmul::tolerance(precision, 17)) << flags;
    EXPECT_NE(metrics(v).find(std::string("precision=") + kb::matmul::name_of(precision)),
              std::string::npos)
        << flags << " " << metrics(v);
  }
  Solved<double> d(make_case(33, 65, 17, KB_DTYPE_F64));
  const kb_verification v = d.check(KB_FLAG_MATH_TF32);
  EXPECT_DOUBLE_EQ(v.tolerance, kb::matmul::tolerance(Precision::fp64, 17));
  EXPECT_NE(metrics(v).find("precision=fp64"), std::string::npos) << metrics(v);
}

// --- the reference ---------------------------------------------------------------------------

TEST(MatmulReference, SmallIntegerProductIsExact) {
  const double a[] = {1, 2, 3, 4};  // 2x2
  const double b[] = {5, 6, 7, 8};
  double c[] = {19, 22, 43, 50};
  kb_verification v = kb::matmul::verify_product(a, b, c, 2, 2, 2, Precision::fp64, 1);
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.max_rel_error, 0.0);
  EXPECT_EQ(v.checked, 4u);
  c[3] = 51;  // off by 1 in sum |a b| = 3*6 + 4*8 = 50
  v = kb::matmul::verify_product(a, b, c, 2, 2, 2, Precision::fp64, 1);
  EXPECT_FALSE(v.passed);
  EXPECT_DOUBLE_EQ(v.max_rel_error, 1.0 / 50.0);
  EXPECT_NE(metrics(v).find("worst=1x1"), std::string::npos) << metrics(v);
}

TEST(MatmulReference, IsExactWhereFloat64SummationIsNot) {
  // 2^53 + 1 - 2^53 = 1, which a float64 running sum gets as 0.
  const double a[] = {0x1.0p53, 1.0, -0x1.0p53};
  const double b[] = {1.0, 1.0, 1.0};
  const double right = 1.0, naive = 0.0;
  EXPECT_EQ(kb::matmul::verify_product(a, b, &right, 1, 1, 3, Precision::fp64, 1).max_rel_error,
            0.0);
  EXPECT_GT(kb::matmul::verify_product(a, b, &naive, 1, 1, 3, Precision::fp64, 1).max_rel_error,
            0.0);
}

TEST(MatmulReference, ErrorIsRelativeToTheSumOfAbsoluteProducts) {
  // c = 1 * 1 + 1 * (-1) = 0: an error of 1e-3 is 1e-3 / (|1| + |-1|), not infinite.
  const float a[] = {1.0f, 1.0f};
  const float b[] = {1.0f, -1.0f};
  const float c = 1e-3f;
  const kb_verification v = kb::matmul::verify_product(a, b, &c, 1, 1, 2, Precision::fp32, 1);
  EXPECT_NEAR(v.max_rel_error, 0.5e-3, 1e-9);
  EXPECT_FALSE(v.passed);
}

// --- the tolerance rule ----------------------------------------------------------------------

TEST(MatmulTolerance, FollowsTheRule) {
  // 2 u_in + 8 sqrt(K + 2) u_acc, with K = 98 so that sqrt(K + 2) = 10.
  EXPECT_DOUBLE_EQ(kb::matmul::tolerance(Precision::fp64, 98), 80 * 0x1.0p-53);
  EXPECT_DOUBLE_EQ(kb::matmul::tolerance(Precision::fp32, 98), 80 * 0x1.0p-24);
  EXPECT_DOUBLE_EQ(kb::matmul::tolerance(Precision::tf32, 98), 2 * 0x1.0p-10 + 80 * 0x1.0p-23);
  EXPECT_DOUBLE_EQ(kb::matmul::tolerance(Precision::bf16, 98), 2 * 0x1.0p-7 + 80 * 0x1.0p-23);
}

TEST(MatmulTolerance, GrowsWithKAndLoosensWithPrecision) {
  for (std::int64_t K : {1, 17, 1000, 16384}) {
    EXPECT_LT(kb::matmul::tolerance(Precision::fp64, K), kb::matmul::tolerance(Precision::fp32, K));
    EXPECT_LT(kb::matmul::tolerance(Precision::fp32, K), kb::matmul::tolerance(Precision::tf32, K));
    EXPECT_LT(kb::matmul::tolerance(Precision::tf32, K), kb::matmul::tolerance(Precision::bf16, K));
    EXPECT_LT(kb::matmul::tolerance(Precision::fp32, K),
              kb::matmul::tolerance(Precision::fp32, 4 * K));
  }
  // At float32 a kernel that drops one of K = 4096 terms (about |a b| / sum|a b| = 1/4096 on
  // average) is far outside the tolerance.
  EXPECT_LT(kb::matmul::tolerance(Precision::fp32, 4096), 0.2 / 4096);
}


TEST(MatmulTolerance, SeparatesTheComputePrecisions) {
  // Inputs rounded to tf32 (10 mantissa bits) fail at fp32 (no math declared), pass for a
  // strategy that declares TF32 or BF16 tensor cores.
  Solved<float> s(make_case(33, 65, 17));
  const auto to_tf32 = [](float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits &= ~0x1FFFu;
    std::memcpy(&x, &bits, sizeof bits);
    return x;
  };
  for (std::int64_t i = 0; i < s.M; ++i) {
    for (std::int64_t j = 0; j < s.N; ++j) {
      double sum = 0;
      for (std::int64_t k = 0; k < s.K; ++k) {
        sum += double{to_tf32(s.a()[i * s.K + k])} * to_tf32(s.b()[k * s.N + j]);
      }
      s.at(i, j) = static_cast<float>(sum);
    }
  }
  EXPECT_FALSE(s.check().passed);
  EXPECT_FALSE(s.check(KB_FLAG_MATH_SIMT).passed);
  EXPECT_TRUE(s.check(KB_FLAG_MATH_TF32).passed);
  EXPECT_TRUE(s.check(KB_FLAG_MATH_BF16).passed);
}

// Seed 003's point, on the host: at float32 and large K, Kahan's summation shows a much smaller
// error than the running sum, and both pass.
TEST(MatmulTolerance, ErrorColumnShowsTheKahanGain) {
  Solved<float> naive(make_case(16, 16, 16384));
  Solved<float> kahan(make_case(16, 16, 16384));
  for (std::int64_t i = 0; i < naive.M; ++i) {
    for (std::int64_t j = 0; j < naive.N; ++j) {
      float sum = 0, kahan_sum = 0, compensation = 0;
      for (std::int64_t k = 0; k < naive.K; ++k) {
        const float x = naive.a()[i * naive.K + k], y = naive.b()[k * naive.N + j];
        sum = std::fma(x, y, sum);
        const float term = std::fma(x, y, -compensation);
        const float next = kahan_sum + term;
        compensation = (next - kahan_sum) - term;
        kahan_sum = next;
      }
      naive.at(i, j) = sum;
      kahan.at(i, j) = kahan_sum;
    }
  }
  const kb_verification plain = naive.check(), compensated = kahan.check();
  EXPECT_TRUE(plain.passed) << plain.max_rel_error;
  EXPECT_TRUE(compensated.passed) << compensated.max_rel_error;
  EXPECT_LT(compensated.max_rel_error * 8, plain.max_rel_error);
}

// --- the full verifier -----------------------------------------------------------------------

template <typename T>
class MatmulFullCheck : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MatmulFullCheck, FloatTypes);

TYPED_TEST(MatmulFullCheck, PassesTheRightProductAndFailsOneWrongEntry) {
  const kb_dtype dtype = std::is_same_v<TypeParam, float> ? KB_DTYPE_F32 : KB_DTYPE_F64;
  Solved<TypeParam> s(make_case(33, 65, 17, dtype));
  kb_verification v = s.check();
  EXPECT_EQ(s.host.checked, KB_OK) << s.host.message.text;
  EXPECT_TRUE(v.passed) << v.max_rel_error << " " << metrics(v);
  EXPECT_EQ(v.checked, 33u * 65u);
  EXPECT_LE(v.max_rel_error, v.tolerance);
  EXPECT_NE(metrics(v).find("entries=all"), std::string::npos);

  for (const auto& [i, j] : {std::pair<std::int64_t, std::int64_t>{5, 7}, {32, 3}, {4, 64}, {32, 64}}) {
    const TypeParam saved = s.at(i, j);
    s.at(i, j) = saved + static_cast<TypeParam>(1e-3);
    v = s.check();
    EXPECT_EQ(s.host.checked, KB_VERIFY_FAILED);
    EXPECT_FALSE(v.passed) << i << "," << j;
    EXPECT_NE(metrics(v).find("worst=" + std::to_string(i) + "x" + std::to_string(j)),
              std::string::npos)
        << metrics(v);
    EXPECT_NEAR(v.max_rel_error, s.error_at(i, j), 1e-6 * v.max_rel_error) << i << "," << j;
    s.at(i, j) = saved;
  }
  EXPECT_TRUE(s.check().passed);
}

TYPED_TEST(MatmulFullCheck, OneUlpIsWithinTheTolerance) {
  // The tolerance is rounding's, not zero: a correct kernel's last bit is its own.
  const kb_dtype dtype = std::is_same_v<TypeParam, float> ? KB_DTYPE_F32 : KB_DTYPE_F64;
  Solved<TypeParam> s(make_case(33, 65, 17, dtype));
  s.at(10, 10) = std::nextafter(s.at(10, 10), TypeParam{2});
  const kb_verification v = s.check();
  EXPECT_TRUE(v.passed) << v.max_rel_error << " > " << v.tolerance;
  EXPECT_GT(v.max_rel_error, 0.0);
}

TEST(MatmulFullCheck, OneByOneByOne) {
  Solved<float> s(make_case(1, 1, 1));
  EXPECT_TRUE(s.check().passed);
  EXPECT_EQ(s.check().checked, 1u);
  s.at(0, 0) = -s.at(0, 0);
  EXPECT_FALSE(s.check().passed);
}

// --- the sampling verifier -------------------------------------------------------------------

TEST(MatmulSample, HoldsTheLastRowAndColumnAndRandomEntries) {
  const std::int64_t M = 300, N = 500;
  const auto entries = kb::matmul::sampled_entries(M, N, 4096, 7);
  std::set<std::pair<std::int64_t, std::int64_t>> set(entries.begin(), entries.end());
  EXPECT_EQ(set.size(), entries.size());  // no duplicates
  for (std::int64_t j = 0; j < N; ++j) EXPECT_TRUE(set.count({M - 1, j})) << j;
  for (std::int64_t i = 0; i < M; ++i) EXPECT_TRUE(set.count({i, N - 1})) << i;
  std::size_t interior = 0;
  for (const auto& [i, j] : entries) {
    EXPECT_TRUE(i >= 0 && i < M && j >= 0 && j < N);
    interior += i < M - 1 && j < N - 1;
  }
  EXPECT_GT(interior, 3900u);  // 4096 draws from 149,501 interior entries, few collide
  EXPECT_TRUE(std::is_sorted(entries.begin(), entries.end(), [](auto x, auto y) {
    return std::make_pair(x.second, x.first) < std::make_pair(y.second, y.first);
  }));
  EXPECT_EQ(entries, kb::matmul::sampled_entries(M, N, 4096, 7));
  EXPECT_NE(entries, kb::matmul::sampled_entries(M, N, 4096, 8));
}


class MatmulSampledCheck : public ::testing::Test {
 protected:
  // 2048 * 2048 * 33 multiply-adds is over the full-check limit.
  static void SetUpTestSuite() { solved = new Solved<float>(make_case(2048, 2048, 33)); }
  static void TearDownTestSuite() { delete solved; }

  void expect_caught(std::int64_t i, std::int64_t j) {
    const float saved = solved->at(i, j);
    solved->at(i, j) = saved + 1e-3f;
    const kb_verification v = solved->check();
    EXPECT_FALSE(v.passed) << "corrupted " << i << "," << j;
    EXPECT_NE(metrics(v).find("worst=" + std::to_string(i) + "x" + std::to_string(j)),
              std::string::npos)
        << metrics(v);
    solved->at(i, j) = saved;
  }

  static Solved<float>* solved;
};
Solved<float>* MatmulSampledCheck::solved = nullptr;

TEST_F(MatmulSampledCheck, PassesTheRightProduct) {
  ASSERT_GT(2048.0 * 2048 * 33, kb::matmul::kFullCheckLimit);
  const kb_verification v = solved->check();
  EXPECT_TRUE(v.passed) << v.max_rel_error << " " << metrics(v);
  EXPECT_GE(v.checked, kb::matmul::kSampleCount + 2 * 2048 - 1 - 200);
  EXPECT_LT(v.checked, 2048u * 2048u);
  EXPECT_NE(metrics(v).find("entries=sampled"), std::string::npos);
}

TEST_F(MatmulSampledCheck, CatchesAWrongEntryInTheLastRowOrColumn) {
  expect_caught(2047, 0);
  expect_caught(2047, 1234);
  expect_caught(777, 2047);
  expect_caught(2047, 2047);
}

TEST_F(MatmulSampledCheck, VerifyProductCatchesAWrongSampledInteriorEntry) {
  // The pure verifier, with the sample's seed known: a wrong entry the sample holds is caught.
  const auto entries = kb::matmul::sampled_entries(2048, 2048, kb::matmul::kSampleCount, 42);
  const auto interior = std::find_if(entries.begin(), entries.end(), [](auto e) {
    return e.first < 2047 && e.second < 2047;
  });
  ASSERT_NE(interior, entries.end());
  const auto [i, j] = *interior;
  const float saved = solved->at(i, j);
  solved->at(i, j) = saved + 1e-3f;
  const kb_verification v = kb::matmul::verify_product(solved->a(), solved->b(), solved->c(), 2048,
                                                       2048, 33, Precision::fp32, 42);
  EXPECT_FALSE(v.passed);
  EXPECT_NE(metrics(v).find("worst=" + std::to_string(i) + "x" + std::to_string(j)),
            std::string::npos)
      << metrics(v);
  solved->at(i, j) = saved;
}

TEST_F(MatmulSampledCheck, SamplePositionsAreDrawnAfreshForEachCheck) {
  // Every interior entry a little wrong: each check reports the worst entry of its own sample, so
  // a strategy cannot learn where the family looks. Three checks that all sample the same entry
  // as their worst would happen about once in a million runs.
  std::vector<float> saved;
  saved.reserve(2047 * 2047);
  for (std::int64_t i = 0; i < 2047; ++i) {
    for (std::int64_t j = 0; j < 2047; ++j) {
      saved.push_back(solved->at(i, j));
      solved->at(i, j) += 1e-3f;
    }
  }
  std::set<std::string> worst;
  for (int check = 0; check < 3; ++check) {
    const kb_verification v = solved->check();
    EXPECT_FALSE(v.passed);
    const std::string m = metrics(v);
    const std::size_t at = m.find("worst=");
    ASSERT_NE(at, std::string::npos) << m;
    worst.insert(m.substr(at, m.find(';', at) - at));
  }
  EXPECT_GT(worst.size(), 1u);
  auto it = saved.begin();
  for (std::int64_t i = 0; i < 2047; ++i) {
    for (std::int64_t j = 0; j < 2047; ++j) solved->at(i, j) = *it++;
  }
  EXPECT_TRUE(solved->check().passed);
}

TEST_F(MatmulSampledCheck, CatchesAWrongBlockOfEntries) {
  // A kernel that gets one 128x128 tile wrong: the sample of 4096 out of 4M entries lands in it
  // with probability 1 - (1 - 1/256)^4096, i.e. always.
  std::vector<float> saved;
  for (std::int64_t i = 512; i < 640; ++i) {
    for (std::int64_t j = 1024; j < 1152; ++j) {
      saved.push_back(solved->at(i, j));
      solved->at(i, j) = 0.0f;
    }
  }
  EXPECT_FALSE(solved->check().passed);
  auto it = saved.begin();
  for (std::int64_t i = 512; i < 640; ++i) {
    for (std::int64_t j = 1024; j < 1152; ++j) solved->at(i, j) = *it++;
  }
  EXPECT_TRUE(solved->check().passed);
}

// --- acceptance ------------------------------------------------------------------------------

TEST(MatmulAccepts, SquareTilesUpTo32) {
  kb_message why{};
  kb_case c = make_case(100, 100, 100);
  EXPECT_TRUE(kb::matmul::accepts_square_block(&c, &why));
  c.block[0] = 32, c.block[1] = 32;
  EXPECT_TRUE(kb::matmul::accepts_square_block(&c, &why));
  c.block[1] = 16;
  EXPECT_FALSE(kb::matmul::accepts_square_block(&c, &why));
  EXPECT_NE(std::string(why.text).find("32x16"), std::string::npos) << why.text;
  c.block[0] = 4, c.block[1] = 4;
  c.shape[0] = 65535 * 4 + 1;  // one tile row more than gridDim.y holds
  EXPECT_FALSE(kb::matmul::accepts_square_block(&c, &why));
}

TEST(MatmulAccepts, TwoDimensionalBlocks) {
  kb_message why{};
  kb_case c = make_case(100, 100, 100);
  c.block[0] = 256, c.block[1] = 1;
  EXPECT_TRUE(kb::matmul::accepts_2d_block(&c, &why));
  c.block[0] = 8, c.block[1] = 8, c.block[2] = 2;
  EXPECT_FALSE(kb::matmul::accepts_2d_block(&c, &why));
}

TEST(MatmulAccepts, RowOfAInSharedMemory) {
  kb_message why{};
  kb_case c = make_case(10, 10, 12288);
  EXPECT_TRUE(kb::matmul::accepts_row_in_shared(&c, &why));
  c.shape[2] = 12289;
  EXPECT_FALSE(kb::matmul::accepts_row_in_shared(&c, &why));
  EXPECT_NE(std::string(why.text).find("48 KB"), std::string::npos) << why.text;
  c = make_case(10, 10, 6144, KB_DTYPE_F64);
  EXPECT_TRUE(kb::matmul::accepts_row_in_shared(&c, &why));
  c.shape[2] = 6145;
  EXPECT_FALSE(kb::matmul::accepts_row_in_shared(&c, &why));
}

TEST(MatmulAccepts, HostLoopOnlySmallProducts) {
  kb_message why{};
  kb_case c = make_case(1024, 1024, 2048);
  EXPECT_TRUE(kb::matmul::accepts_host_size(&c, &why));
  c.shape[2] = 2049;
  EXPECT_FALSE(kb::matmul::accepts_host_size(&c, &why));
  EXPECT_NE(std::string(why.text).find("2^31"), std::string::npos) << why.text;
}

TEST(MatmulAccepts, TheFamilyTakesAnyProductOfAtLeastOneByOneByOne) {
  const KernelFamily& family = matmul_family();
  ASSERT_NE(family.accepts, nullptr);
  EXPECT_TRUE(kbtest::family_accepts(family, make_case(1, 1, 1)));
  kb_case odd = make_case(33, 65, 17, KB_DTYPE_BF16);
  odd.block[0] = 7, odd.block[1] = 3, odd.block[2] = 5;  // blocks are the strategies' to refuse
  EXPECT_TRUE(kbtest::family_accepts(family, odd));
  std::string why;
  for (const auto& [M, N, K] : std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>>{
           {0, 8, 8}, {8, 0, 8}, {8, 8, 0}, {-8, 8, 8}}) {
    EXPECT_FALSE(kbtest::family_accepts(family, make_case(M, N, K), &why)) << M << N << K;
    EXPECT_NE(why.find("at least 1"), std::string::npos) << why;
  }
}

}  // namespace
