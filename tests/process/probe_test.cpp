// A plugin's kbench_plugin() that crashes or calls exit(), and an accepts() that crashes or never
// returns, cost that plugin alone: loading and accepts() run in the probe process (kbench probe),
// never in the parent, so `list`, `run` and `validate` go on with the other plugins.
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <map>

namespace {

using kbtest::kbench;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(Probe, ListSkipsPluginsWhoseEntryCrashesOrExitsAndShowsTheOthers) {
  const auto run = kbench({"list", "--plugins", kbtest::test_plugin_dir("probe")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("kbt_entry_segfault.so: kbench_plugin() killed by signal 11"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("kbt_entry_exit0.so: kbench_plugin() exited with code 0"),
            std::string::npos)
      << run.output;
  for (const char* listed : {"| testing/good |", "| testing/accepts_segfault |",
                             "| testing/accepts_hang |", "| transpose/cpu |"}) {
    EXPECT_NE(run.output.find(listed), std::string::npos) << listed << "\n" << run.output;
  }
}

// Its rows are ok; the run's exit code (1) says that files of its folders could not be loaded.
TEST(Probe, ARunOfAnotherPluginIsNotDisturbedByThem) {
  const auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("probe"), "--plugin",
                           "testing/good", "--sizes", "10,20", "--dtypes", "int32",
                           "--max-time", "0.01"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("file(s) of the plugin folders could not be loaded (skipped, above)"),
            std::string::npos)
      << run.output;
  ASSERT_EQ(run.rows.size(), 2u) << run.output;
  for (const auto& row : run.rows) EXPECT_EQ(row.at("status"), "ok");
  EXPECT_NE(run.output.find("skipped"), std::string::npos) << run.output;
}

TEST(Probe, AnAcceptsThatCrashesOrHangsBecomesRowsOfItsPluginAndTheRunGoesOn) {
  const auto start = std::chrono::steady_clock::now();
  const auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("probe"), "--family",
                           "testing", "--sizes", "10,20,30", "--dtypes", "int32",
                           "--case-timeout", "1", "--max-time", "0.01"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  std::map<std::string, std::vector<kbtest::Row>> by_plugin;
  for (const auto& row : run.rows) by_plugin[row.at("plugin")].push_back(row);
  ASSERT_EQ(by_plugin.size(), 3u) << run.output;
  for (const auto& [plugin, rows] : by_plugin) EXPECT_EQ(rows.size(), 3u) << plugin;
  for (const auto& row : by_plugin["testing/good"]) EXPECT_EQ(row.at("status"), "ok");
  for (const auto& row : by_plugin["testing/accepts_segfault"]) {
    EXPECT_EQ(row.at("status"), "crashed");
    EXPECT_NE(row.at("message").find("accepts() killed by signal 11"), std::string::npos)
        << row.at("message");
  }
  for (const auto& row : by_plugin["testing/accepts_hang"]) {
    EXPECT_EQ(row.at("status"), "timeout");
    EXPECT_NE(row.at("message").find("accepts() gave no answer within 1 s"), std::string::npos)
        << row.at("message");
  }
  // The hang is waited for once, not once per case.
  EXPECT_LT(seconds_since(start), 10.0);
}

TEST(Probe, ValidateSaysWhyAPluginsEntryFailed) {
  for (const auto& [file, reason] : std::map<std::string, std::string>{
           {"kbt_entry_segfault.so", "invalid: kbench_plugin() killed by signal 11"},
           {"kbt_entry_exit0.so", "invalid: kbench_plugin() exited with code 0"}}) {
    const auto run = kbench({"validate", kbtest::test_plugin_dir("probe") + "/" + file});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_NE(run.output.find(reason), std::string::npos) << run.output;
  }
}

// validate on a plugin that hangs (in launch or in accepts) ends within its --case-timeout.
TEST(Probe, ValidateBoundsAHangingPluginByItsCaseTimeout) {
  for (const auto& file : {kbtest::test_plugin_dir("faulty") + "/kbt_launch_hang.so",
                           kbtest::test_plugin_dir("probe") + "/kbt_accepts_hang.so"}) {
    const auto start = std::chrono::steady_clock::now();
    const auto run = kbench({"validate", file, "--case-timeout", "1"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_NE(run.output.find("invalid: 0 of 1 small cases ran and verified"), std::string::npos)
        << run.output;
    EXPECT_LT(seconds_since(start), 15.0) << file;
  }
  const auto run = kbench({"validate", kbtest::test_plugin_dir("faulty") + "/kbt_fault_free.so",
                           "--case-timeout", "nan"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("--case-timeout nan"), std::string::npos) << run.output;
}

}  // namespace
