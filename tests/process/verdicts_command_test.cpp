// `kbench compare` without --by, end to end: crafted nightly CSV files, the real executable, its
// exit code, its markdown, and the JUnit, JSON and github-action-benchmark outputs matched line by
// line against what they must be (Google Benchmark's output tests).
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"
#include "support/night_rows.hpp"

#include <gtest/gtest.h>

namespace {

using kbtest::kbench;
using kbtest::kSteadyFive;
using kbtest::NightCase;
using kbtest::night_rows;
using kbtest::read_file;
using kbtest::scaled;
using kbtest::shaped;

NightCase steady(const std::string& shape) { return shaped(shape, kSteadyFive); }

NightCase crashed(const std::string& shape) {
  NightCase c = shaped(shape, {});
  c.status = "crashed";
  c.message = "worker killed by signal 11 (SIGSEGV) while running this case";
  return c;
}

class Verdicts : public ::testing::Test {
 protected:
  // A results file holding these cases of this run (appended when it exists).
  std::string night(const std::string& file, const std::string& run,
                    const std::vector<NightCase>& cases) {
    kb::ResultsStore store(path(file));
    for (const auto& c : cases) {
      for (const auto& row : night_rows(run, c)) store.append(row);
    }
    return path(file);
  }
  std::string path(const std::string& file) const { return folder_.file(file); }

  kbtest::TempFolder folder_;
};

TEST_F(Verdicts, IdenticalRunsPass) {
  const auto base = night("base.csv", "n1", {steady("1024"), steady("2048")});
  const auto cand = night("cand.csv", "n2", {steady("1024"), steady("2048")});
  const auto run = kbench({"compare", base, cand});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("PASS: none of 2 cases fails the gate. Verdicts: 2 same."),
            std::string::npos)
      << run.output;
}

TEST_F(Verdicts, OneCaseTenPercentSlowerFailsAndIsNamedInStdoutAndJunit) {
  // One repetition each, noise 0.3%: no rank test, but 10% is far beyond the rows' noise.
  const auto base = night("base.csv", "n1", {shaped("1024", {100}), shaped("2048", {400})});
  const auto cand = night("cand.csv", "n2", {shaped("1024", {110}), shaped("2048", {400.4})});
  const auto run = kbench({"compare", base, cand, "--junit", path("verdicts.xml")});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL: 1 of 2 cases fail the gate (1 slower)."), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("| **slower** | transpose | transpose/fast | float32 | 1024  | -     |"
                            "       100.0 |        110.0 | +10.0% |"),
            std::string::npos)
      << run.output;
  const std::string junit = read_file(path("verdicts.xml"));
  EXPECT_NE(junit.find("<testcase classname=\"transpose\" name=\"transpose/fast float32 1024 -\">\n"
                       "      <failure type=\"slower\" message=\"slower by 10.0%, more than the "
                       "1.0% allowed\">"),
            std::string::npos)
      << junit;
  EXPECT_NE(junit.find("failures=\"1\""), std::string::npos) << junit;
}

TEST_F(Verdicts, TenPercentFasterPasses) {
  const auto base = night("base.csv", "n1", {steady("1024")});
  const auto cand = night("cand.csv", "n2", {shaped("1024", scaled(kSteadyFive, 1 / 1.1))});
  const auto run = kbench({"compare", base, cand});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("| faster  |"), std::string::npos) << run.output;
}

TEST_F(Verdicts, AnOkCaseNowCrashedFails) {
  const auto base = night("base.csv", "n1", {steady("1024")});
  const auto cand = night("cand.csv", "n2", {crashed("1024")});
  const auto run = kbench({"compare", base, cand});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("was ok, now crashed: worker killed by signal 11"), std::string::npos)
      << run.output;
}

TEST_F(Verdicts, AMissingCaseIsListedAndFails) {
  const auto base = night("base.csv", "n1", {steady("1024"), steady("2048")});
  const auto cand = night("cand.csv", "n2", {steady("1024")});
  const auto run = kbench({"compare", base, cand});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("| **missing** | transpose | transpose/fast | float32 | 2048  |"),
            std::string::npos)
      << run.output;
}

TEST_F(Verdicts, BaselineRunAgainstTheOtherRunsOfOneFile) {
  night("nights.csv", "n1", {steady("1024")});
  night("nights.csv", "n2", {shaped("1024", scaled(kSteadyFive, 1.1))});
  const auto nights = night("nights.csv", "n3", {steady("1024")});
  EXPECT_EQ(kbench({"compare", nights, "--baseline-run", "n1", "--run", "n2"}).exit_code, 1);
  EXPECT_EQ(kbench({"compare", nights, "--baseline-run", "n1", "--run", "n3"}).exit_code, 0);
  // Every run but the baseline: n2 and n3 pooled, 10 repetitions against 5.
  const auto pooled = kbench({"compare", nights, "--baseline-run", "n1"});
  EXPECT_NE(pooled.output.find("candidate: runs n2, n3."), std::string::npos) << pooled.output;
  EXPECT_NE(pooled.output.find("5/10"), std::string::npos) << pooled.output;
  EXPECT_EQ(kbench({"compare", nights, "--baseline-run", "n2", "--fail-slower", "5"}).exit_code, 0)
      << "faster is no failure";
}

TEST_F(Verdicts, BadInputIsOneClearLine) {
  const auto nights = night("nights.csv", "n1", {steady("1024")});
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{nights}, "verdicts need --baseline-run ID, or two CSV files"},
      {{nights, "--baseline-run", "n9"}, "no run 'n9' in the files; their runs: n1"},
      {{nights, "--baseline-run", "n1"}, "no candidate rows: the files hold no other run"},
      {{nights, "--baseline-run", "n1", "--by", "run"}, "are for verdicts, without --by"},
      {{nights, nights, "--format", "csv"}, "unknown --format 'csv' for verdicts"},
      {{nights, nights, "--metric", "gbps"}, "verdicts compare times"},
      {{nights, nights, "--alpha", "2"}, "--alpha must lie between 0 and 1"},
      {{nights, nights, "--fail-slower", "-3"}, "must be percentages of 0 or more"},
      {{nights, nights, "--junit", "/nonexistent/dir/x.xml"}, "cannot create JUnit file '/nonexistent/dir/x.xml'"},
  };
  for (const auto& [args, expected] : cases) {
    std::vector<std::string> all = {"compare"};
    all.insert(all.end(), args.begin(), args.end());
    const auto run = kbench(all);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << run.output;
  }
}

// --- Output tests: each format of one gate, whole --------------------------------------------

// 1024 10% slower, 2048 the same, 4096 crashed now, 8192 missing.
class VerdictOutput : public Verdicts {
 protected:
  void SetUp() override {
    base_ = night("base.csv", "n1",
                  {steady("1024"), shaped("2048", scaled(kSteadyFive, 4)),
                   shaped("4096", kSteadyFive), shaped("8192", kSteadyFive)});
    cand_ = night("cand.csv", "n2",
                  {shaped("1024", scaled(kSteadyFive, 1.1)),
                   shaped("2048", scaled(kSteadyFive, 4)), crashed("4096")});
  }
  // The text with the files' temporary paths named BASE and CAND.
  std::string named(std::string text) const {
    const std::pair<std::string, std::string> names[] = {{base_, "BASE"}, {cand_, "CAND"}};
    for (const auto& [path, name] : names) {
      for (auto at = text.find(path); at != std::string::npos; at = text.find(path)) {
        text.replace(at, path.size(), name);
      }
    }
    return text;
  }
  std::string base_, cand_;
};

TEST_F(VerdictOutput, Json) {
  const auto run = kbench({"compare", base_, cand_, "--format", "json"});
  EXPECT_EQ(run.exit_code, 1);
  const std::string expected = R"({
  "baseline": "BASE",
  "candidate": "run n2 of CAND",
  "test": {
    "name": "mann-whitney-u",
    "alpha": 0.05,
    "min_effect": 0.01,
    "fail_slower": 0.01,
    "single_repetition_margin": 3.0
  },
  "passed": false,
  "verdicts": {
    "slower": 1,
    "faster": 0,
    "same": 1,
    "unsure": 0,
    "broken": 1,
    "fixed": 0,
    "untimed": 0,
    "missing": 1,
    "added": 0
  },
  "cases": [
    {
      "family": "transpose",
      "plugin": "transpose/fast",
      "dtype": "float32",
      "shape": "1024",
      "block": "-",
      "verdict": "slower",
      "fails": true,
      "reason": "slower by 10.0%, more than the 1.0% allowed",
      "effect": 0.1,
      "p_value": 0.007937,
      "baseline": {
        "status": "ok",
        "rows": 5,
        "median_us": 100.0,
        "noise": 0.0025,
        "medians_us": [
          100.0,
          100.3,
          99.8,
          100.1,
          99.9
        ]
      },
      "candidate": {
        "status": "ok",
        "rows": 5,
        "median_us": 110.0,
        "noise": 0.0025,
        "medians_us": [
          110.0,
          110.33,
          109.78,
          110.11,
          109.89
        ]
      }
    },
    {
      "family": "transpose",
      "plugin": "transpose/fast",
      "dtype": "float32",
      "shape": "2048",
      "block": "-",
      "verdict": "same",
      "fails": false,
      "effect": 0.0,
      "p_value": 1.0,
      "baseline": {
        "status": "ok",
        "rows": 5,
        "median_us": 400.0,
        "noise": 0.0025,
        "medians_us": [
          400.0,
          401.2,
          399.2,
          400.4,
          399.6
        ]
      },
      "candidate": {
        "status": "ok",
        "rows": 5,
        "median_us": 400.0,
        "noise": 0.0025,
        "medians_us": [
          400.0,
          401.2,
          399.2,
          400.4,
          399.6
        ]
      }
    },
    {
      "family": "transpose",
      "plugin": "transpose/fast",
      "dtype": "float32",
      "shape": "4096",
      "block": "-",
      "verdict": "broken",
      "fails": true,
      "reason": "was ok, now crashed: worker killed by signal 11 (SIGSEGV) while running this case",
      "baseline": {
        "status": "ok",
        "rows": 5,
        "median_us": 100.0,
        "noise": 0.0025,
        "medians_us": [
          100.0,
          100.3,
          99.8,
          100.1,
          99.9
        ]
      },
      "candidate": {
        "status": "crashed",
        "message": "worker killed by signal 11 (SIGSEGV) while running this case",
        "rows": 1
      }
    },
    {
      "family": "transpose",
      "plugin": "transpose/fast",
      "dtype": "float32",
      "shape": "8192",
      "block": "-",
      "verdict": "missing",
      "fails": true,
      "reason": "in the baseline (ok), not in the candidate",
      "baseline": {
        "status": "ok",
        "rows": 5,
        "median_us": 100.0,
        "noise": 0.0025,
        "medians_us": [
          100.0,
          100.3,
          99.8,
          100.1,
          99.9
        ]
      }
    }
  ]
}
)";
  EXPECT_EQ(named(run.output), expected);
}

TEST_F(VerdictOutput, Junit) {
  const auto gated = kbench({"compare", base_, cand_, "--junit", path("verdicts.xml")});
  EXPECT_EQ(gated.exit_code, 1);
  const std::string expected =
      R"(<?xml version="1.0" encoding="utf-8"?>
<testsuites name="kbench compare: run n2 of CAND against BASE" tests="4" failures="3">
  <testsuite name="transpose" tests="4" failures="3">
    <testcase classname="transpose" name="transpose/fast float32 1024 -">
      <failure type="slower" message="slower by 10.0%, more than the 1.0% allowed">slower +10.0% vs the baseline (p = 0.0079), repetitions 5/5: slower by 10.0%, more than the 1.0% allowed</failure>
    </testcase>
    <testcase classname="transpose" name="transpose/fast float32 2048 -">
      <system-out>same +0.0% vs the baseline (p = 1), repetitions 5/5</system-out>
    </testcase>
    <testcase classname="transpose" name="transpose/fast float32 4096 -">
      <failure type="broken" message="was ok, now crashed: worker killed by signal 11 (SIGSEGV) while running this case">broken, repetitions 5/1: was ok, now crashed: worker killed by signal 11 (SIGSEGV) while running this case</failure>
    </testcase>
    <testcase classname="transpose" name="transpose/fast float32 8192 -">
      <failure type="missing" message="in the baseline (ok), not in the candidate">missing, repetitions 5/-: in the baseline (ok), not in the candidate</failure>
    </testcase>
  </testsuite>
</testsuites>
)";
  EXPECT_EQ(named(read_file(path("verdicts.xml"))), expected);
}

TEST_F(VerdictOutput, BenchmarkAction) {
  const auto run = kbench({"compare", base_, cand_, "--format", "benchmark-action"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.output, R"([
  {
    "name": "transpose/fast float32 1024 -",
    "unit": "us",
    "value": 110.0,
    "range": "±0.275",
    "extra": "slower +10.0% vs the baseline (p = 0.0079), repetitions 5/5: slower by 10.0%, more than the 1.0% allowed"
  },
  {
    "name": "transpose/fast float32 2048 -",
    "unit": "us",
    "value": 400.0,
    "range": "±1.000",
    "extra": "same +0.0% vs the baseline (p = 1), repetitions 5/5"
  }
]
)");
}

}  // namespace
