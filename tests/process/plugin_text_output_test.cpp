// A plugin that fills kb_message (or the metrics) to capacity without a NUL, with invalid UTF-8
// and control characters: the runner reads to the buffer's end and no further, cleans the text,
// and the CSV reads in libfccp and in Python's csv module.
#include "support/kbench_process.hpp"
#include "util/plugin_text.hpp"

#include <kbench/plugin.h>

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>

namespace kb {
namespace {

// What tests/plugins/test_plugin.cpp's fill_unterminated writes into an N-byte buffer, as the
// runner must report it: cut at the buffer's end, each bad byte replaced.
std::string cleaned_fill(std::size_t n) {
  static const char kPattern[] = {'x', '\xff', '\x01', '\x1b', ','};
  std::string raw;
  for (std::size_t i = 0; i < n; ++i) raw += kPattern[i % sizeof kPattern];
  return clean_text(raw);
}

TEST(PluginText, UnterminatedBuffersReachTheCsvCutAndCleaned) {
  const auto run = kbtest::kbench({"run", "--plugins", kbtest::test_plugin_dir("text"), "--family",
                                   "testing", "--sizes", "100", "--dtypes", "int32",
                                   "--max-time", "0.01"});
  ASSERT_TRUE(run.csv_error.empty()) << run.csv_error;
  std::map<std::string, kbtest::Row> by_plugin;
  for (const auto& row : run.rows) by_plugin[row.at("plugin")] = row;
  ASSERT_EQ(by_plugin.size(), 4u) << run.output;
  EXPECT_EQ(by_plugin["testing/setup_unterminated"].at("status"), "error");
  EXPECT_EQ(by_plugin["testing/setup_unterminated"].at("message"),
            "setup: " + cleaned_fill(KB_MESSAGE_CAPACITY));
  EXPECT_EQ(by_plugin["testing/verify_unterminated"].at("status"), "ok");
  EXPECT_EQ(by_plugin["testing/verify_unterminated"].at("metrics"),
            cleaned_fill(KB_METRICS_CAPACITY));
  EXPECT_EQ(by_plugin["testing/accepts_unterminated"].at("status"), "unsupported");
  EXPECT_EQ(by_plugin["testing/accepts_unterminated"].at("message"),
            "not accepted: " + cleaned_fill(KB_MESSAGE_CAPACITY));
  EXPECT_EQ(by_plugin["testing/garbled_description"].at("status"), "ok");
}

TEST(PluginText, ADescriptorsTextIsCleanedWhereverItIsShown) {
  const auto run = kbtest::kbench({"list", "--plugins", kbtest::test_plugin_dir("text")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(clean_text(run.output), run.output) << "list printed bytes that are not clean text";
  EXPECT_NE(run.output.find("| testing/garbled_description | host | int32 |"), std::string::npos)
      << run.output;
}

// The second reader: Python's csv module (on CI as here); skipped with a message without python3.
TEST(PluginText, PythonsCsvModuleReadsTheRowsOfThesePlugins) {
  if (std::system("python3 -c 'import csv' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "python3 is not installed: the second reader is not available";
  }
  namespace fs = boost::filesystem;
  const fs::path csv = fs::temp_directory_path() / fs::unique_path("kbench-text-%%%%.csv");
  const auto run = kbtest::kbench({"run", "--plugins", kbtest::test_plugin_dir("text"), "--family",
                                   "testing", "--sizes", "100", "--dtypes", "int32",
                                   "--max-time", "0.01"},
                                  csv.string());
  ASSERT_EQ(run.rows.size(), 4u) << run.output;
  const std::string check =
      "python3 -c 'import csv,sys; rows=list(csv.reader(open(sys.argv[1], encoding=\"utf-8\", "
      "newline=\"\"), strict=True)); sys.exit(0 if len(rows) == 5 and all(len(r) == len(rows[0]) "
      "for r in rows) else 1)' " + csv.string();
  EXPECT_EQ(std::system(check.c_str()), 0) << "Python's csv module could not read " << csv;
  fs::remove(csv);
}

}  // namespace
}  // namespace kb
