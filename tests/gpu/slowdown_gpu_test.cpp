// The slowdown test plugin on a GPU: its time scales with KBT_SLOWDOWN, and `kbench compare`
// flags a 3% slowdown of it over five repetitions while it calls two plain runs the same.
// (scripts/gpu-check.sh gate measures both over more cases.)
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

using kbtest::kbench;

std::vector<std::string> slowdown_run(const std::string& sizes, const std::string& run_id,
                                      const std::string& repetitions) {
  return {"run", "--plugins", kbtest::test_plugin_dir("slowdown"), "--plugin", "slowdown/lcg",
          "--sizes", sizes, "--dtypes", "int32", "--max-time", "0.2", "--run-id", run_id,
          "--repetitions", repetitions};
}

// Runs with KBT_SLOWDOWN set to `factor` ("" unsets it).
kbtest::Run slowed(const std::vector<std::string>& args, const std::string& csv,
                   const std::string& factor) {
  if (factor.empty()) {
    unsetenv("KBT_SLOWDOWN");
  } else {
    setenv("KBT_SLOWDOWN", factor.c_str(), 1);
  }
  auto run = kbench(args, csv);
  unsetenv("KBT_SLOWDOWN");
  return run;
}

class SlowdownGpu : public ::testing::Test {
 protected:
  kbtest::TempFolder folder_;
  const std::string csv_ = folder_.file("slowdown.csv");
};

TEST_F(SlowdownGpu, TimeScalesWithTheKnob) {
  KBTEST_REQUIRE_GPU();
  const auto plain = slowed(slowdown_run("20000", "plain", "1"), csv_, "");
  // Its own file: kbench() reads back every row of the file it is given.
  const auto half_again =
      slowed(slowdown_run("20000", "slowed", "1"), folder_.file("slowed.csv"), "1.5");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  ASSERT_EQ(half_again.exit_code, 0) << half_again.output;
  ASSERT_EQ(plain.rows.size(), 1u);
  ASSERT_EQ(half_again.rows.size(), 1u);
  EXPECT_EQ(half_again.rows[0].at("status"), "ok") << half_again.rows[0].at("message");
  const double ratio =
      std::stod(half_again.rows[0].at("median_us")) / std::stod(plain.rows[0].at("median_us"));
  EXPECT_NEAR(ratio, 1.5, 0.03) << "a kernel of hundreds of microseconds: time ~ steps";
}

TEST_F(SlowdownGpu, CompareFlagsThreePercentAndNotIdenticalRuns) {
  KBTEST_REQUIRE_GPU();
  const std::string sizes = "4000,8000,16000";
  ASSERT_EQ(slowed(slowdown_run(sizes, "base", "5"), csv_, "").exit_code, 0);
  ASSERT_EQ(slowed(slowdown_run(sizes, "same", "5"), csv_, "").exit_code, 0);
  ASSERT_EQ(slowed(slowdown_run(sizes, "slow", "5"), csv_, "1.03").exit_code, 0);
  const auto same = kbench({"compare", csv_, "--baseline-run", "base", "--run", "same"});
  EXPECT_EQ(same.exit_code, 0) << same.output;
  const auto slow = kbench({"compare", csv_, "--baseline-run", "base", "--run", "slow"});
  EXPECT_EQ(slow.exit_code, 1) << slow.output;
  EXPECT_NE(slow.output.find("FAIL: 3 of 3 cases fail the gate (3 slower)."), std::string::npos)
      << slow.output;
}

}  // namespace
