// A nightly (--repetitions) runs, beside each asked shape, one drawn near it: a strategy honest
// only at the sizes people sweep shows there. Its rows go to a run of their own ("<id>-hidden"),
// so the night's comparisons and trends hold the asked shapes alone.
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

namespace {

using kbtest::kbench;

std::vector<std::string> nightly(const std::string& run_id) {
  return {"run",       "--plugin",      "transpose/cpu", "--sizes", "64x48,100", "--dtypes",
          "float32",   "--repetitions", "2",             "--max-time", "0.02",    "--run-id",
          run_id};
}

TEST(HiddenShapes, ANightlyRunsAShapeNearEachAskedOneInARunOfItsOwn) {
  kbtest::TempFolder folder;
  const std::string csv = folder.file("results.csv");
  const auto run = kbench(nightly("night"), csv);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 8u) << run.output;  // 2 shapes, each with its hidden one, twice
  std::set<std::string> asked, hidden;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("message");
    (row.at("run_id") == "night" ? asked : hidden).insert(row.at("shape"));
    EXPECT_TRUE(row.at("run_id") == "night" || row.at("run_id") == "night-hidden");
  }
  EXPECT_EQ(asked, (std::set<std::string>{"64x48", "100x100"}));
  ASSERT_EQ(hidden.size(), 2u);
  for (const std::string& shape : hidden) {
    const auto x = shape.find('x');
    const long rows = std::stol(shape.substr(0, x)), cols = std::stol(shape.substr(x + 1));
    const bool near_64x48 = std::labs(rows - 64) <= 3 && std::labs(cols - 48) <= 3;
    const bool near_100 = std::labs(rows - 100) <= 3 && std::labs(cols - 100) <= 3;
    EXPECT_TRUE(near_64x48 || near_100) << shape;
    EXPECT_EQ(asked.count(shape), 0u) << shape;
  }
  // The same run id draws the same shapes (the shards of a job array agree), and resuming it
  // finds every row, the hidden ones too.
  const auto resumed = kbench([&] {
    auto args = nightly("night");
    args.push_back("--resume");
    return args;
  }(), csv);
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(resumed.rows.size(), 8u) << resumed.output;  // the file as it was: nothing run again
}

// Two nights draw different hidden shapes: a verdict that took them in would call every one
// missing from one night and added in the other.
TEST(HiddenShapes, TheVerdictsOfTwoNightsHoldTheAskedShapesAloneUnlessAHiddenRunIsNamed) {
  kbtest::TempFolder folder;
  const std::string first = folder.file("first.csv"), second = folder.file("second.csv");
  ASSERT_EQ(kbench(nightly("night-1"), first).exit_code, 0);
  ASSERT_EQ(kbench(nightly("night-2"), second).exit_code, 0);
  const std::string junit = folder.file("gate.xml");
  const auto gate = kbench({"compare", first, second, "--fail-slower", "1000", "--junit", junit});
  EXPECT_EQ(gate.exit_code, 0) << gate.output;
  EXPECT_NE(gate.output.find("none of 2 cases fails the gate"), std::string::npos) << gate.output;
  EXPECT_EQ(gate.output.find("night-2-hidden"), std::string::npos) << gate.output;
  const std::string xml = kbtest::read_file(junit);
  std::size_t cases = 0;
  for (auto at = xml.find("<testcase "); at != std::string::npos;
       at = xml.find("<testcase ", at + 1)) {
    ++cases;
  }
  EXPECT_EQ(cases, 2u) << xml;  // 64x48 and 100x100, not their hidden neighbours

  const auto named = kbench({"compare", first, second, "--run", "night-2-hidden",
                             "--fail-slower", "1000"});
  EXPECT_NE(named.output.find("candidate: run night-2-hidden"), std::string::npos) << named.output;
}

TEST(HiddenShapes, ARunWithoutRepetitionsRunsTheAskedShapesAlone) {
  const auto run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "64x48", "--dtypes",
                           "float32", "--max-time", "0.02"});
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  EXPECT_EQ(run.rows[0].at("shape"), "64x48");
}

}  // namespace
