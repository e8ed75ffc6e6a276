// The headers of kbench's files, now and in older kbench versions (store/file_schema.hpp): which
// a file's header is, what an older one lacks, and a run that waited for an upgrade's lock opening
// the upgraded file.
#include "store/file_lock.hpp"
#include "store/file_schema.hpp"
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"
#include "util/csv.hpp"

#include <gtest/gtest.h>

#include <boost/filesystem.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

namespace kb {
namespace {

namespace fs = boost::filesystem;
using Names = std::vector<std::string>;
using Age = HeaderVerdict::Age;

Names results_header() { return results_schema().header; }

Names without(Names header, const Names& gone) {
  for (const auto& name : gone) header.erase(std::find(header.begin(), header.end(), name));
  return header;
}

TEST(FileSchema, TodaysHeadersAreCurrent) {
  EXPECT_EQ(judge_header(results_schema(), results_header()).age, Age::current);
  EXPECT_EQ(results_header(), Names(kResultHeader.begin(), kResultHeader.end()));
  EXPECT_EQ(samples_schema().header,
            (Names{"run_id", "gpu_uuid", "device", "plugin", "dtype", "op", "shape", "block",
                   "params", "cache", "repetition", "sample", "us"}));
  EXPECT_EQ(judge_header(samples_schema(), samples_schema().header).age, Age::current);
}

// The header grows at the end: each prefix from the first one kbench wrote (57 columns, params)
// is an older kbench's, lacking the columns after it.
TEST(FileSchema, EveryPrefixFromTheFirstOneKbenchWroteIsOlder) {
  const Names header = results_header();
  for (std::size_t n = 57; n < header.size(); ++n) {
    const auto verdict = judge_header(results_schema(), Names(header.begin(), header.begin() + n));
    EXPECT_EQ(verdict.age, Age::older) << n;
    EXPECT_EQ(verdict.missing, Names(header.begin() + n, header.end())) << n;
  }
  const auto short_one = judge_header(results_schema(), Names(header.begin(), header.begin() + 56));
  EXPECT_EQ(short_one.age, Age::other);
  EXPECT_EQ(short_one.difference, "it ends after 56 columns");
  // Files of before the CUPTI columns (60 columns, ending at referee) lack every column since.
  const auto sixty = judge_header(results_schema(), Names(header.begin(), header.begin() + 60));
  EXPECT_EQ(header[59], "referee");
  EXPECT_EQ(sixty.missing, Names(header.begin() + 60, header.end()));
  EXPECT_EQ(sixty.missing.front(), "cupti_us");
}

// Before that, columns went in mid-way: those headers are known one by one.
TEST(FileSchema, TheHeadersOfBeforeTheColumnsGrewAtTheEndAreOlder) {
  // Headers of then ended at referee; the columns since went in at the end.
  const Names header = results_header();
  const Names then(header.begin(), std::find(header.begin(), header.end(), "referee") + 1);
  const Names since(header.begin() + then.size(), header.end());
  const Names first_runner = without(
      then, {"params", "repetition", "timing", "sample_launches", "batch_us", "host_us",
             "sm_clock_mhz", "temperature_c", "throttle", "energy_j", "power_w", "gb_per_j",
             "gflop_per_j", "read_gbps", "l2_gbps", "referee"});
  ASSERT_EQ(first_runner.size(), 44u);
  EXPECT_EQ(judge_header(results_schema(), first_runner).age, Age::older);
  const Names abi3 = without(then, {"read_gbps", "l2_gbps"});
  const auto verdict = judge_header(results_schema(), abi3);
  EXPECT_EQ(verdict.age, Age::older);
  Names missing = {"read_gbps", "l2_gbps"};
  missing.insert(missing.end(), since.begin(), since.end());
  EXPECT_EQ(verdict.missing, missing);
  for (const auto& earlier : results_schema().earlier) {
    EXPECT_EQ(judge_header(results_schema(), earlier).age, Age::older);
  }
  // Any other subsequence of today's header is no header kbench wrote: a CSV that happens to
  // hold some of its columns in order is not taken for a results file.
  EXPECT_EQ(judge_header(results_schema(), without(results_header(), {"referee"})).age,
            Age::other);
  EXPECT_EQ(judge_header(results_schema(), Names{"run_id", "plugin", "status"}).age, Age::other);

  const Names samples = samples_schema().header;
  const auto first_samples =
      judge_header(samples_schema(), without(samples, {"params", "repetition"}));
  EXPECT_EQ(first_samples.age, Age::older);
  EXPECT_EQ(first_samples.missing, (Names{"params", "repetition"}));
  EXPECT_EQ(judge_header(samples_schema(), without(samples, {"params"})).age, Age::older);
  EXPECT_EQ(judge_header(samples_schema(), without(samples, {"repetition"})).age, Age::other);
}

// Every results file committed to the repository is this kbench's or an older one's.
TEST(FileSchema, EveryCommittedResultsFileHasAHeaderKbenchWrote) {
  int files = 0;
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(KBENCH_SOURCE_DIR) / "results")) {
    if (entry.path().extension() != ".csv") continue;
    std::ifstream in(entry.path().string());
    std::string line;
    std::getline(in, line);
    EXPECT_NE(judge_header(results_schema(), header_names(line)).age, Age::other)
        << entry.path();
    ++files;
  }
  EXPECT_GT(files, 10);
}

TEST(FileSchema, AnyOtherHeaderIsNamedByItsFirstDifference) {
  Names reordered = results_header();
  std::swap(reordered[2], reordered[3]);
  Names unknown = results_header();
  unknown[40] = "host_time";
  Names newer = results_header();
  newer.push_back("a_future_column");
  const struct {
    Names header;
    std::string difference;
  } cases[] = {
      {reordered, "column 3 is 'kbench_version', expected 'host'"},
      {unknown, "column 41 is 'host_time', expected 'host_us'"},
      {newer, "it has " + std::to_string(newer.size()) + " columns, expected " +
                  std::to_string(newer.size() - 1)},
      {Names{"x", "y"}, "column 1 is 'x', expected 'timestamp_utc'"},
  };
  for (const auto& c : cases) {
    const auto verdict = judge_header(results_schema(), c.header);
    EXPECT_EQ(verdict.age, Age::other);
    EXPECT_EQ(verdict.difference, c.difference);
  }
  EXPECT_EQ(header_names("a,b,,c"), (Names{"a", "b", "", "c"}));
}

// `kbench upgrade` renames the upgraded copy over the file while it holds the file's lock: a run
// that opened the old file and waited for that lock appends to the upgraded one.
TEST(FileSchema, ARunThatWaitedForAnUpgradesLockOpensTheUpgradedFile) {
  kbtest::TempFolder folder;
  const std::string path = folder.file("results.csv");
  const Names header = results_header();
  const Names old(header.begin(), header.begin() + 60);
  Names cells(old.size(), "");
  cells[1] = "old";
  cells[17] = "testing/good";
  { std::ofstream(path) << csv_line(old) << csv_line(cells); }

  // The upgrade's part, by hand: the lock held on the old file while the new one takes its name.
  const int held = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(held, 0);
  ASSERT_TRUE(lock_byte(held, kAppendLockByte, true));
  std::string error;
  std::thread run([&] {
    try {
      ResultCells row;
      row.run_id = "new";
      row.plugin = "testing/good";
      ResultsStore(path).append(row);
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the run waits for the lock
  const std::string upgraded = path + ".new";
  cells.resize(header.size(), "");
  { std::ofstream(upgraded) << csv_line(header) << csv_line(cells); }
  fs::rename(upgraded, path);
  ::close(held);  // the lock goes with it
  run.join();
  EXPECT_EQ(error, "");
  const auto rows = read_results(path);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].run_id, "old");
  EXPECT_EQ(rows[1].run_id, "new");
}

}  // namespace
}  // namespace kb
