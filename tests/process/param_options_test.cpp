// Plugin parameters (ABI version 2) end to end: declared axes swept like blocks, --param choosing
// values, refusals, the params column, accepts() seeing them, compare choosing the best, run by
// the kbench executable.
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>
#include <gtest/gtest.h>

#include <map>
#include <set>

namespace {

using kbtest::kbench;

std::vector<std::string> params_run(std::vector<std::string> extra) {
  std::vector<std::string> args = {"run",     "--plugins", kbtest::test_plugin_dir("params"),
                                   "--plugin", "testing/params", "--dtypes", "int32",
                                   "--max-time", "0.01"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(Params, TheDeclaredValuesAreSweptAndWrittenInTheParamsColumn) {
  const auto run = kbench(params_run({"--sizes", "100,1000"}));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::multiset<std::string> seen;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("message");
    seen.insert(row.at("shape") + " " + row.at("params"));
  }
  EXPECT_EQ(seen, (std::multiset<std::string>{"100 scale=2", "100 scale=3", "1000 scale=2",
                                              "1000 scale=3"}));
}

TEST(Params, ParamChoosesValuesAndAcceptsSeesThem) {
  const auto run = kbench(params_run({"--sizes", "100,1000", "--param", "scale=4"}));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::map<std::string, std::string> status;  // shape -> status
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("params"), "scale=4");
    status[row.at("shape")] = row.at("status") + " " + row.at("message");
  }
  EXPECT_EQ(status["100"], "ok ");
  EXPECT_EQ(status["1000"], "unsupported not accepted: scale=4 takes at most 500 elements");
}

TEST(Params, UnknownNamesAndValuesOutsideTheChoicesAreRefused) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--param", "size=1"}, "--param size: no plugin selected has a parameter 'size'"},
      {{"--param", "scale=5"}, "--param scale=5: testing/params takes scale in 2,3,4"},
      {{"--param", "scale=2,2"}, "--param scale: value '2' given twice"},
      {{"--param", "scale"}, "malformed --param 'scale'"},
      {{"--param", "scale=2", "--param", "scale=3"}, "--param scale given twice"},
  };
  for (const auto& [extra, expected] : bad) {
    auto args = params_run({"--sizes", "100"});
    args.insert(args.end(), extra.begin(), extra.end());
    const auto run = kbench(args);
    EXPECT_EQ(run.exit_code, 2) << expected << "\n" << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << run.output;
    EXPECT_TRUE(run.rows.empty());
  }
}

TEST(Params, ResumeTellsConfigurationsApart) {
  namespace fs = boost::filesystem;
  const std::string csv =
      (fs::temp_directory_path() / fs::unique_path("kbench-params-%%%%-%%%%.csv")).string();
  auto first = params_run({"--sizes", "100", "--param", "scale=2", "--run-id", "p"});
  ASSERT_EQ(kbench(first, csv).exit_code, 0);
  // The same run with another value is not "already in the CSV": it runs.
  auto second = params_run({"--sizes", "100", "--param", "scale=2,3", "--run-id", "p", "--resume"});
  const auto run = kbench(second, csv);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("1 already in the CSV"), std::string::npos) << run.output;
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[1].at("params"), "scale=3");
  std::remove(csv.c_str());
}

TEST(Params, AnExplicitCaseNamesItsParameters) {
  auto args = std::vector<std::string>{"run", "--plugins", kbtest::test_plugin_dir("params"),
                                       "--case", "testing/params int32 100 - scale=4",
                                       "--case", "testing/params int32 200", "--max-time", "0.01"};
  const auto run = kbench(args);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[0].at("params"), "scale=4");
  EXPECT_EQ(run.rows[1].at("params"), "scale=2");  // the first declared value
}

TEST(Params, ListShowsEachPluginsParameters) {
  const auto run = kbench({"list", "--plugins", kbtest::test_plugin_dir("params")});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.output.find("| testing/params | host | int32 |  | own | scale=2,3 of 2,3,4 | 1 |"),
            std::string::npos)
      << run.output;
}

}  // namespace
