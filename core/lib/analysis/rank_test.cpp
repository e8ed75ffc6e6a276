#include "analysis/rank_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace kb {
namespace {

// Twice the mid-rank of every value (an integer even where ties give a rank of k + 1/2), the
// first sample's values first.
std::vector<long> doubled_ranks(const std::vector<double>& a, const std::vector<double>& b,
                                std::vector<long>& tie_sizes) {
  std::vector<std::pair<double, std::size_t>> all;
  for (std::size_t i = 0; i < a.size(); ++i) all.emplace_back(a[i], i);
  for (std::size_t i = 0; i < b.size(); ++i) all.emplace_back(b[i], a.size() + i);
  std::sort(all.begin(), all.end());
  std::vector<long> ranks(all.size());
  for (std::size_t first = 0; first < all.size();) {
    std::size_t last = first;
    while (last + 1 < all.size() && all[last + 1].first == all[first].first) ++last;
    // Ranks first+1 .. last+1 share their mean.
    for (std::size_t i = first; i <= last; ++i) {
      ranks[all[i].second] = static_cast<long>(first + last + 2);
    }
    tie_sizes.push_back(static_cast<long>(last - first + 1));
    first = last + 1;
  }
  return ranks;
}

// P(|S - E| >= |s - E|) for the doubled rank sum S of n_a values drawn from `ranks` without
// replacement, every draw equally likely: count the draws per sum, one value at a time.
double exact_p(const std::vector<long>& ranks, std::size_t n_a, long observed) {
  long total = 0;
  for (long r : ranks) total += r;
  // ways[k][s]: the draws of k of the values seen so far whose doubled ranks sum to s.
  std::vector<std::vector<long double>> ways(n_a + 1, std::vector<long double>(total + 1, 0));
  ways[0][0] = 1;
  for (long r : ranks) {
    for (std::size_t k = n_a; k >= 1; --k) {
      for (long s = total; s >= r; --s) ways[k][s] += ways[k - 1][s - r];
    }
  }
  // E(S) = n_a * (N + 1) / 2 mid-ranks, doubled: an integer, so the comparison below is exact.
  const long mean = static_cast<long>(n_a) * static_cast<long>(ranks.size() + 1);
  const long distance = std::labs(observed - mean);
  long double extreme = 0, all = 0;
  for (long s = 0; s <= total; ++s) {
    all += ways[n_a][s];
    if (std::labs(s - mean) >= distance) extreme += ways[n_a][s];
  }
  return static_cast<double>(std::min<long double>(1, extreme / all));
}

double normal_p(double u, double n_a, double n_b, const std::vector<long>& tie_sizes) {
  const double n = n_a + n_b;
  double ties = 0;
  for (long t : tie_sizes) ties += static_cast<double>(t) * t * t - t;
  const double variance = n_a * n_b / 12 * ((n + 1) - ties / (n * (n - 1)));
  if (variance <= 0) return 1;
  const double z = std::max(0.0, std::abs(u - n_a * n_b / 2) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace

RankTest mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return {};
  std::vector<long> tie_sizes;
  const std::vector<long> ranks = doubled_ranks(a, b, tie_sizes);
  long rank_sum = 0;  // doubled
  for (std::size_t i = 0; i < a.size(); ++i) rank_sum += ranks[i];
  const double n_a = static_cast<double>(a.size()), n_b = static_cast<double>(b.size());
  RankTest test;
  test.u = rank_sum / 2.0 - n_a * (n_a + 1) / 2;
  test.p_value = ranks.size() <= static_cast<std::size_t>(kExactRankTestSize)
                     ? exact_p(ranks, a.size(), rank_sum)
                     : normal_p(test.u, n_a, n_b, tie_sizes);
  return test;
}

}  // namespace kb
