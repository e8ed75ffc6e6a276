// The hello family on a real device, through the real runner: seed 000's cases verify, the
// captured printf text stays out of the output unless --show asks for it, hello/record's metrics
// answer the seed's question, and acceptance refuses launches over the line limit.
#include "../support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<std::string, std::int64_t> parse_metrics(const std::string& text) {
  std::map<std::string, std::int64_t> values;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string pair = text.substr(start, end - start);
    const std::size_t eq = pair.find('=');
    if (eq != std::string::npos) values[pair.substr(0, eq)] = std::stoll(pair.substr(eq + 1));
    start = end + 1;
  }
  return values;
}

const kbtest::Row* find_row(const kbtest::Run& run, const std::string& plugin,
                            const std::string& shape, const std::string& block) {
  for (const auto& row : run.rows) {
    if (row.at("plugin") == plugin && row.at("shape") == shape && row.at("block") == block) {
      return &row;
    }
  }
  return nullptr;
}

struct Case {
  std::string shape, block;
  std::int64_t n, x, y;
};

// Both plugins passed on every case; the printf counts are exact; the record metrics are
// consistent with the launch.
void expect_cases_pass(const kbtest::Run& run, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const std::int64_t threads = c.n * c.x * c.y;
    const std::int64_t warps = c.n * ((c.x * c.y + 31) / 32);
    SCOPED_TRACE(c.shape + " " + c.block);

    const kbtest::Row* printf_row = find_row(run, "hello/printf", c.shape, c.block);
    ASSERT_NE(printf_row, nullptr) << run.output;
    EXPECT_EQ(printf_row->at("status"), "ok") << printf_row->at("message");
    auto p = parse_metrics(printf_row->at("metrics"));
    EXPECT_EQ(p["lines"], threads + 1) << printf_row->at("metrics");
    EXPECT_EQ(p["host_lines"], 1);
    EXPECT_EQ(p["thread_lines"], threads);
    EXPECT_EQ(p["missing"], 0);
    EXPECT_EQ(p["duplicated"], 0);
    EXPECT_EQ(p["malformed"], 0);
    EXPECT_GE(p["block_runs"], c.n);

    const kbtest::Row* record_row = find_row(run, "hello/record", c.shape, c.block);
    ASSERT_NE(record_row, nullptr) << run.output;
    EXPECT_EQ(record_row->at("status"), "ok") << record_row->at("message");
    // A hello's measure is its time: the family counts no bytes, whatever way it says hello.
    EXPECT_DOUBLE_EQ(std::stod(record_row->at("bytes")), 0.0) << record_row->at("bytes");
    auto r = parse_metrics(record_row->at("metrics"));
    ASSERT_EQ(r.count("sms"), 1u) << record_row->at("metrics");
    EXPECT_GE(r["sms"], 1);
    EXPECT_LE(r["sms"], c.n);
    EXPECT_GE(r["max_resident"], 1);
    EXPECT_LE(r["max_resident"], c.n);
    EXPECT_GE(r["max_resident_per_sm"], 1);
    EXPECT_LE(r["max_resident_per_sm"], r["max_resident"]);
    EXPECT_EQ(r["warps"], warps);
    EXPECT_LE(r["warps_in_lane_order"], warps);
    EXPECT_LE(r["block_inversions"], c.n * (c.n - 1) / 2);
    EXPECT_EQ(r["blocks_in_order"] == 1, r["block_inversions"] == 0);
    EXPECT_GE(r["span_ns"], 20000);  // every thread stays alive kLifeNs
  }
}

TEST(HelloGpu, SeedCasesVerifyAndStayQuiet) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbtest::kbench({"run", "--family", "hello", "--sizes", "5,32", "--blocks",
                                   "2x2,32x32", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 8u) << run.output;
  expect_cases_pass(run, {{"5", "2x2", 5, 2, 2},
                          {"5", "32x32", 5, 32, 32},
                          {"32", "2x2", 32, 2, 2},
                          {"32", "32x32", 32, 32, 32}});
  // Without --show the captured text goes nowhere: not into the runner's output.
  EXPECT_EQ(run.output.find("Hello World from Thread"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("Hello World from the host!"), std::string::npos) << run.output;
}

TEST(HelloGpu, ThousandBlocksOf8x8) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbtest::kbench({"run", "--family", "hello", "--sizes", "1024", "--blocks",
                                   "8x8", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  expect_cases_pass(run, {{"1024", "8x8", 1024, 8, 8}});
  // 1024 blocks of 64 threads cannot all start on one SM: the device spreads them out.
  const kbtest::Row* row = find_row(run, "hello/record", "1024", "8x8");
  ASSERT_NE(row, nullptr);
  const auto r = parse_metrics(row->at("metrics"));
  EXPECT_GT(r.at("sms"), 1);
  EXPECT_GT(r.at("max_resident"), 1);
}

TEST(HelloGpu, ShowPrintsTheCapturedTextAndTheSummary) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbtest::kbench({"run", "--family", "hello", "--sizes", "5", "--blocks", "2x2",
                                   "--max-time", "0.01", "--show"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  expect_cases_pass(run, {{"5", "2x2", 5, 2, 2}});
  EXPECT_NE(run.output.find("Hello World from the host!"), std::string::npos) << run.output;
  for (int b = 0; b < 5; ++b) {
    for (const char* thread : {"(0, 0)", "(1, 0)", "(0, 1)", "(1, 1)"}) {
      const std::string line =
          std::string("Hello World from Thread ") + thread + " in Block " + std::to_string(b) + "!";
      EXPECT_NE(run.output.find(line), std::string::npos) << line << "\n" << run.output;
    }
  }
  EXPECT_NE(run.output.find("hello/printf n=5 block 2x2: lines=21;"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("hello/record n=5 block 2x2: the blocks ran on"), std::string::npos)
      << run.output;
}

TEST(HelloGpu, NearlyAMillionLinesFitTheFifo) {
  KBTEST_REQUIRE_GPU();
  // 976 * 32 * 32 = 999,424 lines: the largest accepted 32x32 case, so the FIFO reserved for
  // kMaxThreads lines must hold them all.
  const auto run = kbtest::kbench({"run", "--family", "hello", "--sizes", "976", "--blocks",
                                   "32x32", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  expect_cases_pass(run, {{"976", "32x32", 976, 32, 32}});
}

TEST(HelloGpu, MoreThanAMillionLinesAreRefusedWithAReason) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbtest::kbench({"run", "--family", "hello", "--sizes", "1024", "--blocks",
                                   "32x32", "--max-time", "0.01"});
  for (const char* plugin : {"hello/printf", "hello/record"}) {
    const kbtest::Row* row = find_row(run, plugin, "1024", "32x32");
    ASSERT_NE(row, nullptr) << plugin << "\n" << run.output;
    EXPECT_EQ(row->at("status"), "unsupported") << plugin;
    EXPECT_NE(row->at("message").find("1048576 threads"), std::string::npos) << row->at("message");
    EXPECT_NE(row->at("message").find("1000000"), std::string::npos) << row->at("message");
  }
}

}  // namespace
