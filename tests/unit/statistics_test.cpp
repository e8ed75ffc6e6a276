#include "util/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace kb {
namespace {

TEST(Statistics, SummarizesSamples) {
  const SampleStats s = summarize({4, 1, 3, 2});
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_NEAR(s.stddev, std::sqrt(5.0 / 3.0), 1e-12);
  EXPECT_TRUE(std::isinf(s.noise));  // too few samples to bound the median
}

std::vector<double> stream(std::size_t n, double center, double spread, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(center, spread);
  std::vector<double> samples(n);
  for (auto& x : samples) x = normal(rng);
  return samples;
}

TEST(StoppingRule, SteadyStreamSettlesQuickly) {
  StoppingRule rule;
  rule.min_seconds = 0;
  const auto samples = stream(20, 100.0, 0.1, 1);
  EXPECT_EQ(rule.judge(samples, 0.01), StoppingRule::Verdict::settled);
}

TEST(StoppingRule, NoisyStreamNeedsMoreSamplesThenSettles) {
  StoppingRule rule;
  rule.min_seconds = 0;
  rule.max_seconds = 100;
  EXPECT_EQ(rule.judge(stream(20, 100.0, 10.0, 2), 0.01), StoppingRule::Verdict::more);
  // The median's interval shrinks like 1/sqrt(n): 5% spread needs a few thousand samples.
  EXPECT_EQ(rule.judge(stream(20000, 100.0, 10.0, 2), 0.5), StoppingRule::Verdict::settled);
}

TEST(StoppingRule, OccasionalOutliersDoNotPreventSettling) {
  StoppingRule rule;
  rule.min_seconds = 0;
  auto samples = stream(200, 100.0, 0.1, 3);
  for (std::size_t i = 0; i < samples.size(); i += 20) samples[i] = 1000;  // 5% disturbed launches
  EXPECT_EQ(rule.judge(samples, 0.1), StoppingRule::Verdict::settled);
}

TEST(StoppingRule, BimodalStreamRunsOutOfTime) {
  StoppingRule rule;
  rule.min_seconds = 0;
  rule.max_seconds = 1;
  std::vector<double> samples;
  for (int i = 0; i < 400; ++i) samples.push_back(i % 2 ? 100 : 150);
  EXPECT_EQ(rule.judge(samples, 0.5), StoppingRule::Verdict::more);
  EXPECT_EQ(rule.judge(samples, 1.5), StoppingRule::Verdict::out_of_time);
}

TEST(StoppingRule, RespectsMinimumSamplesAndTime) {
  StoppingRule rule;
  rule.min_samples = 50;
  rule.min_seconds = 0.2;
  rule.max_seconds = 10;
  EXPECT_EQ(rule.judge(stream(40, 100, 0.01, 4), 1.0), StoppingRule::Verdict::more);
  EXPECT_EQ(rule.judge(stream(60, 100, 0.01, 4), 0.1), StoppingRule::Verdict::more);
  EXPECT_EQ(rule.judge(stream(60, 100, 0.01, 4), 0.3), StoppingRule::Verdict::settled);
}

}  // namespace
}  // namespace kb
