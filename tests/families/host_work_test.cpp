// The host work of a case (seeded inputs, references, comparisons; a family's draw and check on
// host buffers) runs on KBENCH_HOST_THREADS threads: its results must be the same bits on one
// thread and on seven.
#include "families/family_library.hpp"
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

// --- the families' host draws and checks, through their libraries -------------------------------

// A case of `family` created on the host by its library and drawn from seed 21 with `threads`
// host threads: its input bytes.
std::vector<unsigned char> drawn_on(unsigned threads, const KernelFamily& family,
                                    const kb_case& shape) {
  const ScopedHostThreads scope(threads);
  kbtest::HostCase c(family, shape);
  EXPECT_EQ(c.created, KB_OK) << c.message.text;
  if (c.created != KB_OK) return {};
  EXPECT_EQ(c.draw(21), KB_OK) << c.message.text;
  return c.input_bytes();
}

TEST(HostWorkFamilies, TransposeDrawAndCheckAreTheSameOnOneAndSevenThreads) {
  const KernelFamily* family = kbtest::load_family("transpose");
  ASSERT_NE(family, nullptr);
  constexpr std::int64_t rows = 1000, cols = 1003;  // several chunks, not a multiple of one
  const kb_case shape = kbtest::make_case(KB_DTYPE_F32, 2, rows, cols);
  const std::vector<unsigned char> one = drawn_on(1, *family, shape);
  ASSERT_EQ(one.size(), rows * cols * sizeof(float));
  EXPECT_TRUE(one == drawn_on(7, *family, shape));

  kbtest::HostCase c(*family, shape);
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.draw(21), KB_OK) << c.message.text;
  float* out = c.output<float>();
  kb::transpose::reference(c.input<float>(), out, rows, cols);
  // Wrong elements in several chunks, the largest error not in the first.
  out[5] *= 2.0f;                        // relative error 1
  out[70'000] = -out[70'000] * 4.0f;     // 5
  out[rows * cols - 1] *= 0.5f;          // 0.5
  const auto check = [&] { return c.check(); };
  const kb_verification checked_on_one = on_threads(1, check);
  EXPECT_FALSE(checked_on_one.passed);
  EXPECT_STREQ(checked_on_one.metrics, "mismatches=3");
  EXPECT_EQ(checked_on_one.max_rel_error, 5.0);
  expect_same(checked_on_one, on_threads(7, check));
}

TEST(HostWorkFamilies, ReduceDrawAndReferenceAreTheSameOnOneAndSevenThreads) {
  const KernelFamily* family = kbtest::load_family("reduce");
  ASSERT_NE(family, nullptr);
  const kb_case shape = kbtest::make_case(KB_DTYPE_F32, 1, kLarge, 0, 0, "sumsq");
  const std::vector<unsigned char> one = drawn_on(1, *family, shape);
  ASSERT_EQ(one.size(), kLarge * sizeof(float));
  EXPECT_TRUE(one == drawn_on(7, *family, shape));

  // The reference drawn beside the input, seen in the check's metrics, the same bits either way.
  const auto checked_on = [&](unsigned threads) {
    const ScopedHostThreads scope(threads);
    kbtest::HostCase c(*family, shape);
    EXPECT_EQ(c.created, KB_OK) << c.message.text;
    if (c.created != KB_OK) return kb_verification{};
    EXPECT_EQ(c.draw(21), KB_OK) << c.message.text;
    *c.output<float>() = 1.0f;
    return c.check();
  };
  const kb_verification checked_on_one = checked_on(1);
  EXPECT_FALSE(checked_on_one.passed);
  EXPECT_NE(std::string(checked_on_one.metrics).find("reference="), std::string::npos);
  expect_same(checked_on_one, checked_on(7));
}

}  // namespace
