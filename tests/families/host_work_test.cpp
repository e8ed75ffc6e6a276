// The host work of a case (seeded inputs, references, comparisons) runs on KBENCH_HOST_THREADS
// threads: its results must be the same bits on one thread and on seven. And consecutive cases
// with the same inputs share them, and the reference, through the memo.
#include "support/host_threads.hpp"

#include <kbench/families/matmul.hpp>
#include <kbench/families/reduce.hpp>
#include <kbench/families/transpose.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using kbtest::ScopedHostThreads;

// fn() with KBENCH_HOST_THREADS = threads.
template <typename Fn>
auto on_threads(unsigned threads, Fn fn) {
  const ScopedHostThreads scope(threads);
  return fn();
}

// More elements than several chunks of kb::kHostGrain, and not a multiple of it.
constexpr std::size_t kLarge = 1'000'003;

void expect_same(const kb_verification& one, const kb_verification& seven) {
  EXPECT_EQ(one.passed, seven.passed);
  EXPECT_EQ(one.checked, seven.checked);
  EXPECT_EQ(one.max_rel_error, seven.max_rel_error);
  EXPECT_EQ(one.tolerance, seven.tolerance);
  EXPECT_STREQ(one.metrics, seven.metrics);
}

template <typename T>
class HostWorkTyped : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::int32_t>;
TYPED_TEST_SUITE(HostWorkTyped, Types);

TYPED_TEST(HostWorkTyped, RandomVectorIsTheSameOnOneAndSevenThreads) {
  const auto one = on_threads(1, [] { return kb::random_vector<TypeParam>(kLarge, 5, 2); });
  const auto seven = on_threads(7, [] { return kb::random_vector<TypeParam>(kLarge, 5, 2); });
  ASSERT_EQ(one.size(), kLarge);
  EXPECT_TRUE(one == seven);
  // Element i is still the function of (seed, stream, i) it always was.
  for (const std::size_t i : {std::size_t{0}, std::size_t{65536}, kLarge - 1}) {
    const std::uint64_t bits = kb::random_bits(5, 2, i);
    if constexpr (std::is_floating_point_v<TypeParam>) {
      EXPECT_EQ(one[i], static_cast<TypeParam>(2.0 * (static_cast<double>(bits >> 11) * 0x1.0p-53) -
                                               1.0));
    } else {
      EXPECT_EQ(one[i], static_cast<TypeParam>(-100 + static_cast<std::int64_t>(bits % 201)));
    }
  }
}

TYPED_TEST(HostWorkTyped, TransposeReferenceIsTheSameOnOneAndSevenThreads) {
  for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {700, 900}, {1000, 70}, {3, 300000}}) {
    const auto in = kb::random_vector<TypeParam>(static_cast<std::size_t>(rows * cols), 3, 1);
    const auto transpose = [&, rows = rows, cols = cols] {
      kb::HostVector<TypeParam> out(in.size());
      kb::transpose::reference(in.data(), out.data(), rows, cols);
      return out;
    };
    const auto one = on_threads(1, transpose);
    const auto seven = on_threads(7, transpose);
    EXPECT_TRUE(one == seven) << rows << "x" << cols;
    std::size_t wrong = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < cols; ++c) wrong += seven[c * rows + r] != in[r * cols + c];
    }
    EXPECT_EQ(wrong, 0u) << rows << "x" << cols;
  }
}

TYPED_TEST(HostWorkTyped, ReduceReferenceIsTheSameOnOneAndSevenThreads) {
  const auto x = kb::random_vector<TypeParam>(kLarge, 11, 1);
  for (const auto op : {kb::reduce::Op::sum, kb::reduce::Op::sumsq}) {
    const auto reference = [&] {
      return kb::reduce::reference(x.data(), static_cast<std::int64_t>(x.size()), op);
    };
    const kb::reduce::Reference one = on_threads(1, reference);
    const kb::reduce::Reference seven = on_threads(7, reference);
    EXPECT_TRUE(one.value == seven.value && one.scale == seven.scale)
        << std::setprecision(21) << one.value << " " << one.scale << " on 1 thread, "
        << seven.value << " " << seven.scale << " on 7";
  }
}

TYPED_TEST(HostWorkTyped, CompareExactIsTheSameOnOneAndSevenThreads) {
  const auto reference = kb::random_vector<TypeParam>(kLarge, 13, 1);
  auto output = reference;
  EXPECT_TRUE(on_threads(7, [&] {
                return kb::compare_exact(output.data(), reference.data(), kLarge);
              }).passed);
  // Wrong elements in several chunks, the largest error not in the first.
  output[5] = static_cast<TypeParam>(output[5] + 1);
  output[70'000] = static_cast<TypeParam>(output[70'000] + 3);
  output[kLarge - 1] = static_cast<TypeParam>(output[kLarge - 1] + 2);
  const auto compare = [&] {
    return kb::compare_exact(output.data(), reference.data(), kLarge);
  };
  const kb_verification one = on_threads(1, compare);
  EXPECT_FALSE(one.passed);
  EXPECT_GT(one.max_rel_error, 0.0);
  expect_same(one, on_threads(7, compare));
}

TEST(HostWork, CompareRelativeIsTheSameOnOneAndSevenThreads) {
  const auto noise = kb::random_vector<double>(kLarge, 17, 2);
  const auto reference = kb::random_vector<double>(kLarge, 17, 1);
  std::vector<float> output(kLarge);
  for (std::size_t i = 0; i < kLarge; ++i) {
    output[i] = static_cast<float>(reference[i] * (1.0 + 1e-6 * noise[i]));
  }
  const auto compare = [&] {
    return kb::compare_relative(output.data(), reference.data(), kLarge, 1e-5, 1e-3);
  };
  const kb_verification one = on_threads(1, compare);
  EXPECT_TRUE(one.passed);
  EXPECT_GT(one.max_rel_error, 0.0);
  expect_same(one, on_threads(7, compare));
  output[654'321] = NAN;
  const kb_verification nan = on_threads(7, compare);
  EXPECT_FALSE(nan.passed);
  EXPECT_TRUE(std::isinf(nan.max_rel_error));
}

TEST(HostWork, MatmulVerificationIsTheSameOnOneAndSevenThreads) {
  // Full (every entry) and sampled, of an output that is not the product: every entry has an
  // error of its own, and the worst is somewhere in the middle.
  for (const auto& [M, N, K] : std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>>{
           {200, 150, 300}, {600, 600, 600}}) {
    const auto a = kb::random_vector<float>(static_cast<std::size_t>(M * K), 1, 1);
    const auto b = kb::random_vector<float>(static_cast<std::size_t>(K * N), 1, 2);
    const auto noise = kb::random_vector<float>(static_cast<std::size_t>(M * N), 1, 3);
    std::vector<float> c(static_cast<std::size_t>(M * N));
    for (std::size_t e = 0; e < c.size(); ++e) c[e] = noise[e] * 1e-4f;
    const auto verify = [&, M = M, N = N, K = K] {
      return kb::matmul::verify_product(a.data(), b.data(), c.data(), M, N, K,
                                        kb::matmul::Precision::fp32, 9);
    };
    const kb_verification one = on_threads(1, verify);
    EXPECT_FALSE(one.passed);
    expect_same(one, on_threads(7, verify));
  }
}

TEST(HostWork, ReduceReferenceCompensatesAcrossChunks) {
  // 2^64 + 1 - 2^64 with the three terms in three chunks: a long double running sum loses the 1.
  std::vector<double> x(3 * kb::kHostGrain, 0.0);
  x[0] = 0x1.0p64;
  x[kb::kHostGrain + 5] = 1.0;
  x[2 * kb::kHostGrain + 9] = -0x1.0p64;
  for (const unsigned threads : {1u, 7u}) {
    const auto r = on_threads(threads, [&] {
      return kb::reduce::reference(x.data(), static_cast<std::int64_t>(x.size()),
                                   kb::reduce::Op::sum);
    });
    EXPECT_EQ(r.value, 1.0L) << threads << " threads";
  }
}

// --- consecutive cases share their host values -------------------------------------------------

kb_case make_case(kb_dtype dtype, int rank, std::int64_t s0, std::int64_t s1 = 0,
                  std::int64_t s2 = 0, const char* op = "", int block = 16) {
  kb_case c{};
  c.dtype = dtype;
  c.op = op;
  c.rank = rank;
  c.shape[0] = s0, c.shape[1] = s1, c.shape[2] = s2;
  c.block[0] = block, c.block[1] = rank > 1 ? block : 1, c.block[2] = 1;
  c.seed = 42;
  return c;
}

TEST(HostWorkMemo, MatmulCasesWithTheSameInputsShareThem) {
  kb_work work{};
  const kb::matmul::Problem<float> p(make_case(KB_DTYPE_F32, 3, 40, 30, 20), KB_DEVICE_HOST, work);
  const kb::matmul::Problem<float> other_block(make_case(KB_DTYPE_F32, 3, 40, 30, 20, "", 8),
                                               KB_DEVICE_HOST, work);
  EXPECT_EQ(&p.host_a(), &other_block.host_a());
  EXPECT_EQ(&p.host_b(), &other_block.host_b());

  const kb::matmul::Problem<float> other_size(make_case(KB_DTYPE_F32, 3, 40, 30, 21),
                                              KB_DEVICE_HOST, work);
  EXPECT_NE(&p.host_a(), &other_size.host_a());
  EXPECT_LE(kb::Memo::process().size(), kb::Memo::process().capacity());
  // Evicted, still the first case's.
  EXPECT_EQ(p.host_a(), kb::random_vector<float>(40 * 20, 42, 1));
  EXPECT_EQ(p.host_b(), kb::random_vector<float>(20 * 30, 42, 2));
}

TEST(HostWorkMemo, ReduceCasesOfTwoOpsShareTheInputButNotTheReference) {
  kb_work work{};
  const auto solve = [](kb::reduce::Problem<std::int32_t>& p) {
    std::int64_t result = 0;
    for (std::int64_t i = 0; i < p.n; ++i) {
      result += kb::reduce::term(p.op, std::int64_t{p.in()[i]});
    }
    *p.out() = result;
    return p.verify();
  };
  for (const char* op : {"sum", "sumsq", "sum"}) {
    kb::reduce::Problem<std::int32_t> p(make_case(KB_DTYPE_I32, 1, 100'000, 0, 0, op, 256),
                                        KB_DEVICE_HOST, work);
    EXPECT_TRUE(solve(p).passed) << op;
    *p.out() += 1;
    EXPECT_FALSE(p.verify().passed) << op;
  }
}

TYPED_TEST(HostWorkTyped, TransposeCasesShareTheirInputAndVerify) {
  kb_work work{};
  const auto dtype = kb::dtype_of<TypeParam>();
  for (const std::int64_t cols : {300, 300, 301}) {
    for (const int block : {8, 16}) {
      kb::transpose::Problem<TypeParam> p(make_case(dtype, 2, 257, cols, 0, "", block),
                                          KB_DEVICE_HOST, work);
      kb::transpose::reference(p.in(), p.out(), p.rows, p.cols);
      EXPECT_TRUE(p.verify().passed) << cols << " " << block;
      std::swap(p.out()[0], p.out()[1]);
      EXPECT_FALSE(p.verify().passed) << cols << " " << block;
      EXPECT_LE(kb::Memo::process().size(), kb::Memo::process().capacity());
    }
  }
}

}  // namespace
