// The two-sided Mann-Whitney U test (Wilcoxon rank-sum): do two samples come from one
// distribution? `kbench compare`'s verdicts apply it to the repetition medians of a case in two
// runs, as Google Benchmark's compare.py does: it assumes nothing about the shape of the run-to-run
// spread, and a single odd repetition moves a rank by one, not the verdict.
#pragma once

#include <vector>

namespace kb {

struct RankTest {
  double u = 0;        // U of the first sample: pairs (a, b) with a > b, ties counting one half
  double p_value = 1;  // two-sided
};

// Up to kExactRankTestSize values in all, the p-value is exact: the permutation distribution of
// the rank sum, ties given their mid-ranks (so 5 against 5 cannot go below 2/252 = 0.0079). Larger
// samples use the normal approximation with the tie correction. An empty sample gives p = 1.
inline constexpr int kExactRankTestSize = 60;
RankTest mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace kb
