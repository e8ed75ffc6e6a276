// Host tests of the matmul family: the problem's inputs and work, the compensated float64
// reference, the tolerance rule, the full and the sampling verifier (a wrong entry anywhere it
// looks must fail), and the acceptance rules.
#include <kbench/families/matmul.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>

namespace {

using kb::matmul::Precision;
using kb::matmul::Problem;

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

// A host problem whose output is the exact product rounded to C's type (what a perfect kernel
// writes).
template <typename T>
struct Solved {
  using Out = kb::matmul::Product<T>;

  explicit Solved(const kb_case& shape) : problem(shape, KB_DEVICE_HOST, work) {
    const T* a = problem.a();
    const T* b = problem.b();
    std::vector<double> row(static_cast<std::size_t>(problem.N));
    for (std::int64_t i = 0; i < problem.M; ++i) {
      std::fill(row.begin(), row.end(), 0.0);
      for (std::int64_t k = 0; k < problem.K; ++k) {
        const double aik = value_of(a[i * problem.K + k]);
        for (std::int64_t j = 0; j < problem.N; ++j) {
          row[j] += aik * value_of(b[k * problem.N + j]);
        }
      }
      for (std::int64_t j = 0; j < problem.N; ++j) {
        c()[i * problem.N + j] = static_cast<Out>(row[j]);
      }
    }
  }
  Out* c() { return problem.c(); }
  Out& at(std::int64_t i, std::int64_t j) { return problem.c()[i * problem.N + j]; }

  kb_work work{};
  Problem<T> problem;
};

std::string metrics(const kb_verification& v) { return v.metrics; }

// --- the problem ---------------------------------------------------------------------------

TEST(MatmulProblem, CountsTheWorkOfOneProduct) {
  kb_work work{};
  Problem<double> p(make_case(33, 65, 17, KB_DTYPE_F64), KB_DEVICE_HOST, work);
  EXPECT_EQ(p.M, 33);
  EXPECT_EQ(p.N, 65);
  EXPECT_EQ(p.K, 17);
  EXPECT_DOUBLE_EQ(work.flops, 2.0 * 33 * 65 * 17);
  EXPECT_DOUBLE_EQ(work.bytes, 8.0 * (33 * 17 + 17 * 65 + 33 * 65));
}

TEST(MatmulProblem, InputsAreSeededUniformInMinusOneOne) {
  kb_work work{};
  Problem<float> p(make_case(40, 30, 20), KB_DEVICE_HOST, work);
  Problem<float> same(make_case(40, 30, 20), KB_DEVICE_HOST, work);
  Problem<float> other(make_case(40, 30, 20, KB_DTYPE_F32, 43), KB_DEVICE_HOST, work);
  EXPECT_EQ(p.host_a(), same.host_a());
  EXPECT_EQ(p.host_b(), same.host_b());
  EXPECT_NE(p.host_a(), other.host_a());
  const auto [lo, hi] = std::minmax_element(p.host_a().begin(), p.host_a().end());
  EXPECT_GE(*lo, -1.0f);
  EXPECT_LT(*hi, 1.0f);
  EXPECT_LT(*lo, -0.9f);  // the whole range is used, negative values included
  EXPECT_GT(*hi, 0.9f);
  EXPECT_NE(std::vector<float>(p.host_a().begin(), p.host_a().begin() + 20),
            std::vector<float>(p.host_b().begin(), p.host_b().begin() + 20));
}

// bfloat16 and float16 inputs multiply into a float32 C. Every product of two is exact in
// float32, so the check holds C to float32 accumulation alone; an entry off by 0.01 (at least 1/17
// of sum |a b| at K = 17) is far over that.
template <typename T>
void expect_sixteen_bit_inputs_checked_at_float32(kb_dtype dtype) {
  Solved<T> s(make_case(33, 65, 17, dtype));
  static_assert(std::is_same_v<decltype(s.problem.c()), float*>);
  EXPECT_EQ(s.work.bytes, 2.0 * (33 * 17 + 17 * 65) + 4.0 * 33 * 65);
  kb_verification v = s.problem.verify();
  EXPECT_TRUE(v.passed) << metrics(v);
  EXPECT_NE(metrics(v).find("precision=fp32"), std::string::npos) << metrics(v);
  EXPECT_DOUBLE_EQ(v.tolerance, kb::matmul::tolerance(Precision::fp32, 17));
  s.at(32, 64) += 0.01f;
  v = s.problem.verify();
  EXPECT_FALSE(v.passed);
  EXPECT_NE(metrics(v).find("worst=32x64"), std::string::npos) << metrics(v);
}

TEST(MatmulProblem, SixteenBitInputsMultiplyIntoAFloatC) {
  expect_sixteen_bit_inputs_checked_at_float32<__nv_bfloat16>(KB_DTYPE_BF16);
  expect_sixteen_bit_inputs_checked_at_float32<__half>(KB_DTYPE_F16);
}

TEST(MatmulProblem, PoisonedOutputFails) {
  Solved<float> s(make_case(8, 9, 10));
  s.problem.poison(nullptr);
  const kb_verification v = s.problem.verify();
  EXPECT_FALSE(v.passed);
  EXPECT_TRUE(std::isinf(v.max_rel_error));
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
  // Inputs rounded to tf32 (10 mantissa bits) fail at fp32, pass at tf32.
  Solved<float> s(make_case(33, 65, 17));
  const auto to_tf32 = [](float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits &= ~0x1FFFu;
    std::memcpy(&x, &bits, sizeof bits);
    return x;
  };
  for (std::int64_t i = 0; i < s.problem.M; ++i) {
    for (std::int64_t j = 0; j < s.problem.N; ++j) {
      double sum = 0;
      for (std::int64_t k = 0; k < s.problem.K; ++k) {
        sum += double{to_tf32(s.problem.host_a()[i * s.problem.K + k])} *
               to_tf32(s.problem.host_b()[k * s.problem.N + j]);
      }
      s.at(i, j) = static_cast<float>(sum);
    }
  }
  EXPECT_FALSE(s.problem.verify(Precision::fp32).passed);
  EXPECT_TRUE(s.problem.verify(Precision::tf32).passed);
  EXPECT_TRUE(s.problem.verify(Precision::bf16).passed);
}

// Seed 003's point, on the host: at float32 and large K, Kahan's summation shows a much smaller
// error than the running sum, and both pass.
TEST(MatmulTolerance, ErrorColumnShowsTheKahanGain) {
  Solved<float> naive(make_case(16, 16, 16384));
  Solved<float> kahan(make_case(16, 16, 16384));
  const Problem<float>& p = naive.problem;
  for (std::int64_t i = 0; i < p.M; ++i) {
    for (std::int64_t j = 0; j < p.N; ++j) {
      float sum = 0, kahan_sum = 0, compensation = 0;
      for (std::int64_t k = 0; k < p.K; ++k) {
        const float x = p.host_a()[i * p.K + k], y = p.host_b()[k * p.N + j];
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
  const kb_verification plain = naive.problem.verify(), compensated = kahan.problem.verify();
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
  kb_verification v = s.problem.verify();
  EXPECT_TRUE(v.passed) << v.max_rel_error << " " << metrics(v);
  EXPECT_EQ(v.checked, 33u * 65u);
  EXPECT_LE(v.max_rel_error, v.tolerance);
  EXPECT_NE(metrics(v).find("entries=all"), std::string::npos);

  for (const auto& [i, j] : {std::pair<std::int64_t, std::int64_t>{5, 7}, {32, 3}, {4, 64}, {32, 64}}) {
    const TypeParam saved = s.at(i, j);
    s.at(i, j) = saved + static_cast<TypeParam>(1e-3);
    v = s.problem.verify();
    EXPECT_FALSE(v.passed) << i << "," << j;
    EXPECT_NE(metrics(v).find("worst=" + std::to_string(i) + "x" + std::to_string(j)),
              std::string::npos)
        << metrics(v);
    s.at(i, j) = saved;
  }
  EXPECT_TRUE(s.problem.verify().passed);
}

TEST(MatmulFullCheck, OneByOneByOne) {
  Solved<float> s(make_case(1, 1, 1));
  EXPECT_TRUE(s.problem.verify().passed);
  s.at(0, 0) = -s.at(0, 0);
  EXPECT_FALSE(s.problem.verify().passed);
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
    const kb_verification v = solved->problem.verify();
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
  const kb_verification v = solved->problem.verify();
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

TEST_F(MatmulSampledCheck, CatchesAWrongSampledInteriorEntry) {
  const auto entries = kb::matmul::sampled_entries(2048, 2048, kb::matmul::kSampleCount, 42);
  const auto interior = std::find_if(entries.begin(), entries.end(), [](auto e) {
    return e.first < 2047 && e.second < 2047;
  });
  ASSERT_NE(interior, entries.end());
  expect_caught(interior->first, interior->second);
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
  EXPECT_FALSE(solved->problem.verify().passed);
  auto it = saved.begin();
  for (std::int64_t i = 512; i < 640; ++i) {
    for (std::int64_t j = 1024; j < 1152; ++j) solved->at(i, j) = *it++;
  }
  EXPECT_TRUE(solved->problem.verify().passed);
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

}  // namespace
