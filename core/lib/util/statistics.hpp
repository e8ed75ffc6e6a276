// Summary statistics of a case's samples, and the rule that decides when to stop sampling.
#pragma once

#include <cstddef>
#include <vector>

namespace kb {

struct SampleStats {
  std::size_t count = 0;
  double median = 0, min = 0, mean = 0, stddev = 0;
  // Relative half-width of the distribution-free 95% confidence interval of the median
  // (order statistics n/2 -+ 0.98 sqrt(n)); infinity with fewer than 8 samples.
  double noise = 0;
};

SampleStats summarize(std::vector<double> samples);

// Sample until the median is known to `max_noise` (e.g. 0.005 = +-0.5%) with at least
// `min_samples` samples and `min_seconds` spent, or until `max_seconds` (then the case is marked
// as not settled). The median's confidence interval, not the standard deviation, is the target:
// it shrinks as samples accumulate even when a few launches are disturbed, where a standard
// deviation target would never be met by a kernel with an occasional outlier.
struct StoppingRule {
  std::size_t min_samples = 10;
  double min_seconds = 0.02;
  double max_seconds = 1.0;
  double max_noise = 0.005;

  enum class Verdict { more, settled, out_of_time };
  Verdict judge(const std::vector<double>& samples, double elapsed_seconds) const;
};

}  // namespace kb
