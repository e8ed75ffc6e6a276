// The verdicts of `kbench compare --baseline-run` on crafted runs: each rule of
// analysis/regression_gate.hpp, one case at a time.
#include "analysis/regression_gate.hpp"
#include "store/key_columns.hpp"
#include "support/night_rows.hpp"
#include "support/records.hpp"
#include "util/input_error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace kb {
namespace {

const std::vector<double>& kFive = kbtest::kSteadyFive;
using kbtest::NightCase;
using kbtest::night_rows;
using kbtest::scaled;
using kbtest::shaped;

std::vector<ResultRecord> rows_of(const std::string& run, const std::vector<NightCase>& cases) {
  std::vector<ResultCells> rows;
  for (const auto& c : cases) {
    const auto more = night_rows(run, c);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  return kbtest::records_of(rows);
}

const CaseVerdict& verdict_of(const Gate& g, const std::string& shape) {
  const std::size_t at = key_column(g.key_columns, "shape");
  for (const auto& c : g.cases) {
    if (c.key[at] == shape) return c;
  }
  throw std::logic_error("no case " + shape);
}

TEST(RegressionGate, IdenticalRunsAreSameAndPass) {
  const auto night = rows_of("a", {shaped("1024", kFive), shaped("2048", scaled(kFive, 4))});
  const Gate g =
      gate(night, rows_of("b", {shaped("1024", kFive), shaped("2048", scaled(kFive, 4))}), {});
  ASSERT_EQ(g.cases.size(), 2u);
  for (const auto& c : g.cases) {
    EXPECT_EQ(c.verdict, Verdict::same);
    EXPECT_FALSE(c.fails);
    EXPECT_NEAR(*c.effect, 0, 1e-12);
    EXPECT_EQ(*c.p_value, 1);
  }
  EXPECT_TRUE(g.passed());
}

// Nan, -1 and 0 medians counted as measurements (passing as "unsure" or "faster"), and
// inf or 1e308 broke the means. An ok row whose median no device can produce has no median.
TEST(RegressionGate, AMedianThatIsNoMeasurementIsAnOkRowWithoutAMedian) {
  const std::vector<std::pair<std::string, double>> bad = {
      {"1", std::nan("")}, {"2", -1},    {"3", 0},
      {"4", std::numeric_limits<double>::infinity()}, {"5", 1e308}, {"6", 1e-300}};
  std::vector<NightCase> baseline, candidate;
  for (const auto& [shape, median] : bad) {
    baseline.push_back(shaped(shape, kFive));
    candidate.push_back(shaped(shape, {median}));
    // And the other way: a baseline without a median is no baseline to be faster than.
    baseline.push_back(shaped("1" + shape, {median}));
    candidate.push_back(shaped("1" + shape, kFive));
  }
  const Gate g = gate(rows_of("a", baseline), rows_of("b", candidate), {});
  for (const auto& [shape, median] : bad) {
    const CaseVerdict& now = verdict_of(g, shape);
    EXPECT_EQ(now.verdict, Verdict::broken) << median;
    EXPECT_TRUE(now.fails) << median;
    EXPECT_EQ(now.reason, "was ok, now no median") << median;
    const CaseVerdict& before = verdict_of(g, "1" + shape);
    EXPECT_EQ(before.verdict, Verdict::fixed) << median;
    EXPECT_FALSE(before.fails) << median;
  }
  EXPECT_FALSE(g.passed());
}

TEST(RegressionGate, TenPercentSlowerWithRepetitionsFails) {
  const Gate g = gate(rows_of("a", {shaped("1024", kFive), shaped("2048", kFive)}),
                      rows_of("b", {shaped("1024", scaled(kFive, 1.10)), shaped("2048", kFive)}),
                      {});
  const CaseVerdict& slow = verdict_of(g, "1024");
  EXPECT_EQ(slow.verdict, Verdict::slower);
  EXPECT_TRUE(slow.fails);
  EXPECT_NEAR(*slow.effect, 0.10, 1e-9);
  EXPECT_NEAR(*slow.p_value, 2.0 / 252, 1e-12);
  EXPECT_EQ(slow.reason, "slower by 10.0%, more than the 1.0% allowed");
  EXPECT_EQ(slow.baseline->medians.size(), 5u);
  EXPECT_NEAR(slow.baseline->noise, 0.0025, 1e-12);  // half the range 99.8..100.3 over 100
  EXPECT_EQ(verdict_of(g, "2048").verdict, Verdict::same);
  EXPECT_FALSE(g.passed());
}

TEST(RegressionGate, TenPercentFasterPasses) {
  const Gate g = gate(rows_of("a", {shaped("1024", kFive)}),
                      rows_of("b", {shaped("1024", scaled(kFive, 1 / 1.10))}), {});
  EXPECT_EQ(g.cases.at(0).verdict, Verdict::faster);
  EXPECT_TRUE(g.passed());
}

TEST(RegressionGate, ASignificantButSmallDifferenceIsSame) {
  // Every candidate repetition above every baseline one (p = 0.008), but by 0.5% only.
  const Gate g = gate(rows_of("a", {shaped("1024", kFive)}),
                      rows_of("b", {shaped("1024", {100.6, 100.8, 100.7, 100.9, 100.5})}), {});
  EXPECT_LT(*g.cases.at(0).p_value, 0.05);
  EXPECT_EQ(g.cases.at(0).verdict, Verdict::same);
  EXPECT_TRUE(g.passed());
}

TEST(RegressionGate, ALargeButNotSignificantDifferenceIsUnsure) {
  // Medians 100 against 103, but the repetitions overlap: p well above 0.05.
  const Gate g = gate(rows_of("a", {shaped("1024", {100, 96, 104, 99, 108})}),
                      rows_of("b", {shaped("1024", {103, 97, 106, 95, 110})}), {});
  const CaseVerdict& c = g.cases.at(0);
  EXPECT_EQ(c.verdict, Verdict::unsure);
  EXPECT_GT(*c.p_value, 0.05);
  EXPECT_FALSE(c.fails);
  EXPECT_NEAR(*c.effect, 0.03, 1e-12);
  EXPECT_EQ(c.reason, "not significant at 0.05");
}

TEST(RegressionGate, FailSlowerSetsHowMuchSlowerFails) {
  GateRequest request;
  request.fail_slower = 0.15;
  const Gate tolerant = gate(rows_of("a", {shaped("1024", kFive)}),
                             rows_of("b", {shaped("1024", scaled(kFive, 1.10))}), request);
  EXPECT_EQ(tolerant.cases.at(0).verdict, Verdict::slower);
  EXPECT_TRUE(tolerant.passed());
  request.fail_slower = 0.05;
  EXPECT_FALSE(gate(rows_of("a", {shaped("1024", kFive)}),
                    rows_of("b", {shaped("1024", scaled(kFive, 1.10))}), request)
                   .passed());
}

TEST(RegressionGate, OneRepetitionFallsBackOnTheRowsNoiseAndSaysUnsureMoreReadily) {
  // Noise 0.3% on each side: a difference must exceed 3 x 0.6% = 1.8% to count.
  const Gate g = gate(rows_of("a", {shaped("1", {100}), shaped("2", {100}), shaped("3", {100})}),
                      rows_of("b", {shaped("1", {110}), shaped("2", {101.5}),
                                    shaped("3", {100.5})}),
                      {});
  EXPECT_EQ(verdict_of(g, "1").verdict, Verdict::slower);
  EXPECT_TRUE(verdict_of(g, "1").fails);
  EXPECT_FALSE(verdict_of(g, "1").p_value);
  EXPECT_EQ(verdict_of(g, "1").reason, "slower by 10.0%, more than the 1.0% allowed");
  EXPECT_EQ(verdict_of(g, "2").verdict, Verdict::unsure);
  EXPECT_EQ(verdict_of(g, "2").reason,
            "1 vs 1 repetitions: within 3x the rows' own noise (1.8%); run with --repetitions for "
            "a rank test");
  EXPECT_EQ(verdict_of(g, "3").verdict, Verdict::same);
}

TEST(RegressionGate, AnOkCaseNowCrashedFailsWithItsMessage) {
  NightCase crashed = shaped("1024", {});
  crashed.status = "crashed";
  crashed.message = "worker killed by signal 11 (SIGSEGV) while running this case";
  const Gate g = gate(rows_of("a", {shaped("1024", kFive)}), rows_of("b", {crashed}), {});
  EXPECT_EQ(g.cases.at(0).verdict, Verdict::broken);
  EXPECT_TRUE(g.cases.at(0).fails);
  EXPECT_EQ(g.cases.at(0).reason,
            "was ok, now crashed: worker killed by signal 11 (SIGSEGV) while running this case");
  // Crashed both nights is no new failure; crashed then ok is fixed.
  EXPECT_EQ(gate(rows_of("a", {crashed}), rows_of("b", {crashed}), {}).cases.at(0).verdict,
            Verdict::untimed);
  EXPECT_TRUE(gate(rows_of("a", {crashed}), rows_of("b", {crashed}), {}).passed());
  const Gate fixed = gate(rows_of("a", {crashed}), rows_of("b", {shaped("1024", kFive)}), {});
  EXPECT_EQ(fixed.cases.at(0).verdict, Verdict::fixed);
}

TEST(RegressionGate, OneFailedRepetitionBreaksAnOkCase) {
  auto candidate = rows_of("b", {shaped("1024", kFive)});
  candidate[2].status = CaseStatus::timeout;
  const Gate g = gate(rows_of("a", {shaped("1024", kFive)}), candidate, {});
  EXPECT_EQ(g.cases.at(0).verdict, Verdict::broken);
  EXPECT_EQ(g.cases.at(0).reason, "was ok, now timeout");
}

TEST(RegressionGate, AMissingCaseFailsAndANewOnePasses) {
  const Gate g = gate(rows_of("a", {shaped("1024", kFive), shaped("2048", kFive)}),
                      rows_of("b", {shaped("1024", kFive), shaped("4096", kFive)}), {});
  EXPECT_EQ(verdict_of(g, "2048").verdict, Verdict::missing);
  EXPECT_TRUE(verdict_of(g, "2048").fails);
  EXPECT_EQ(verdict_of(g, "2048").reason, "in the baseline (ok), not in the candidate");
  EXPECT_EQ(verdict_of(g, "4096").verdict, Verdict::added);
  EXPECT_FALSE(verdict_of(g, "4096").fails);
  EXPECT_FALSE(g.passed());
}

TEST(RegressionGate, TheCardsOfOneModelPoolAndOtherModelsAreOtherCases) {
  NightCase other_card = shaped("1024", kFive);
  other_card.uuid = "GPU-bbbbbbbb-2";
  NightCase h200 = shaped("1024", kFive);
  h200.gpu = "NVIDIA H200";
  h200.uuid = "GPU-cccccccc-3";
  const Gate g = gate(rows_of("a", {shaped("1024", kFive)}), rows_of("b", {other_card, h200}), {});
  ASSERT_EQ(g.cases.size(), 2u);
  EXPECT_EQ(g.cases[0].verdict, Verdict::same);  // H100 on another card
  EXPECT_EQ(g.cases[1].verdict, Verdict::added);  // H200
  EXPECT_EQ(g.cases[1].key[0], "NVIDIA H200");
}

TEST(RegressionGate, PrintingDropsTheKeysEveryCaseShares) {
  const Gate g = without_constant_keys(gate(rows_of("a", {shaped("1024", kFive)}),
                                            rows_of("b", {shaped("1024", kFive)}), {}));
  EXPECT_EQ(g.key_columns,
            (std::vector<std::string>{"family", "plugin", "dtype", "shape", "block"}));
  EXPECT_EQ(g.cases.at(0).key,
            (std::vector<std::string>{"transpose", "transpose/fast", "float32", "1024", "-"}));
}

TEST(RegressionGate, AnEmptyBaselineIsAnInputError) {
  EXPECT_THROW(gate({}, rows_of("b", {shaped("1024", kFive)}), {}), InputError);
}

}  // namespace
}  // namespace kb
