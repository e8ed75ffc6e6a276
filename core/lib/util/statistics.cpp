#include "util/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace kb {

SampleStats summarize(std::vector<double> samples) {
  SampleStats s;
  s.count = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  s.min = samples.front();
  s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  double squares = 0;
  for (double x : samples) squares += (x - s.mean) * (x - s.mean);
  s.stddev = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0.0;
  if (n < 8 || s.median <= 0) {
    s.noise = std::numeric_limits<double>::infinity();
  } else {
    const double half_width = 0.98 * std::sqrt(static_cast<double>(n));
    const auto lo = static_cast<std::size_t>(std::max(0.0, std::floor(n / 2.0 - half_width)));
    const auto hi = std::min(n - 1, static_cast<std::size_t>(std::ceil(n / 2.0 + half_width)));
    s.noise = 0.5 * (samples[hi] - samples[lo]) / s.median;
  }
  return s;
}

StoppingRule::Verdict StoppingRule::judge(const std::vector<double>& samples,
                                          double elapsed_seconds) const {
  if (samples.size() >= min_samples && elapsed_seconds >= min_seconds &&
      summarize(samples).noise <= max_noise) {
    return Verdict::settled;
  }
  if (elapsed_seconds >= max_seconds && !samples.empty()) return Verdict::out_of_time;
  return Verdict::more;
}

}  // namespace kb
