#include "analysis/rank_test.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace kb {
namespace {

// The two-sided p-value by brute force, independent of ranks: every way of labelling |a| of the
// pooled values as "a", its U counted pair by pair.
double enumerated_p(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> all(a);
  all.insert(all.end(), b.begin(), b.end());
  const auto u_of = [&](unsigned mask) {
    double u = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      for (std::size_t j = 0; j < all.size(); ++j) {
        if (!(mask >> i & 1) || (mask >> j & 1)) continue;
        u += all[i] > all[j] ? 1 : all[i] == all[j] ? 0.5 : 0;
      }
    }
    return u;
  };
  const double center = a.size() * b.size() / 2.0;
  const double observed = std::abs(u_of((1u << a.size()) - 1) - center);
  double extreme = 0, labellings = 0;
  for (unsigned mask = 0; mask < (1u << all.size()); ++mask) {
    if (static_cast<std::size_t>(__builtin_popcount(mask)) != a.size()) continue;
    ++labellings;
    if (std::abs(u_of(mask) - center) >= observed - 1e-9) ++extreme;
  }
  return extreme / labellings;
}

TEST(MannWhitney, FiveAgainstFiveFullySeparatedIsTheSmallestPossibleP) {
  const RankTest test = mann_whitney_u({1.00, 1.01, 1.02, 1.03, 1.04}, {2, 2.1, 2.2, 2.3, 2.4});
  EXPECT_EQ(test.u, 0);
  EXPECT_NEAR(test.p_value, 2.0 / 252, 1e-12);  // C(10,5) = 252 labellings, two as extreme
}

TEST(MannWhitney, ThreeAgainstThree) {
  EXPECT_NEAR(mann_whitney_u({4, 5, 6}, {1, 2, 3}).p_value, 0.1, 1e-12);
  EXPECT_EQ(mann_whitney_u({4, 5, 6}, {1, 2, 3}).u, 9);
}

TEST(MannWhitney, IdenticalSamplesGiveOne) {
  EXPECT_EQ(mann_whitney_u({3, 3, 3}, {3, 3, 3}).p_value, 1);
  EXPECT_EQ(mann_whitney_u({1, 2, 3, 4}, {1, 2, 3, 4}).p_value, 1);
}

TEST(MannWhitney, AnEmptySampleTellsNothing) {
  EXPECT_EQ(mann_whitney_u({}, {1, 2}).p_value, 1);
  EXPECT_EQ(mann_whitney_u({1}, {}).p_value, 1);
}

TEST(MannWhitney, OneAgainstOneCannotBeSignificant) {
  EXPECT_EQ(mann_whitney_u({1}, {2}).p_value, 1);
}

TEST(MannWhitney, ExactPMatchesEnumerationWithTies) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> value(1, 4);  // few values: many ties
  std::uniform_int_distribution<int> size(1, 6);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> a(size(rng)), b(size(rng));
    for (auto& x : a) x = value(rng);
    for (auto& x : b) x = value(rng);
    const RankTest test = mann_whitney_u(a, b);
    EXPECT_NEAR(test.p_value, enumerated_p(a, b), 1e-12) << "trial " << trial;
    // Swapping the samples changes U to its complement, not p.
    const RankTest swapped = mann_whitney_u(b, a);
    EXPECT_NEAR(swapped.p_value, test.p_value, 1e-12);
    EXPECT_DOUBLE_EQ(test.u + swapped.u, static_cast<double>(a.size() * b.size()));
  }
}

TEST(MannWhitney, LargeSamplesUseTheNormalApproximation) {
  std::vector<double> low, high, odd, even;
  for (int i = 0; i < 40; ++i) {
    low.push_back(i);
    high.push_back(100 + i);
    odd.push_back(2 * i + 1);
    even.push_back(2 * i);
  }
  EXPECT_LT(mann_whitney_u(low, high).p_value, 1e-10);
  EXPECT_GT(mann_whitney_u(odd, even).p_value, 0.8);
  // Textbook: U = 820 of 40 x 40 without ties; mean 800, variance 40 * 40 * 81 / 12 = 10800,
  // z = (|820 - 800| - 0.5) / sqrt(10800) with the continuity correction.
  EXPECT_EQ(mann_whitney_u(odd, even).u, 820);
  const double z = 19.5 / std::sqrt(10800.0);
  EXPECT_NEAR(mann_whitney_u(odd, even).p_value, std::erfc(z / std::sqrt(2.0)), 1e-12);
}

}  // namespace
}  // namespace kb
