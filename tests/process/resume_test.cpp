// --resume runs the cases a run id lacks, and only those: the key is everything that defines a case
// (CaseKey), so another --seed or --cold is another case; a reused --run-id without --resume is
// refused, and one process at a time runs a chosen run id, so no case gets two rows.
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <thread>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

class Resume : public ::testing::Test {
 protected:

  std::vector<std::string> sweep(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"run", "--plugins", kbtest::test_plugin_dir("faulty"),
                                     "--plugin", "testing/good", "--sizes", "10,20,30",
                                     "--dtypes", "int32", "--max-time", "0.01", "--run-id", "r1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  std::multiset<std::string> cases() const {
    std::multiset<std::string> seen;
    for (const auto& row : kb::read_results(csv_)) {
      seen.insert(row.shape + " seed " + row.seed + " " + row.cache);
    }
    return seen;
  }

  kbtest::TempFolder folder_;
  const std::string csv_ = folder_.file("results.csv");
};

TEST_F(Resume, AnotherSeedOrCacheModeIsAnotherCase) {
  ASSERT_EQ(kbench(sweep(), csv_).exit_code, 0);
  auto run = kbench(sweep({"--resume", "--seed", "7"}), csv_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 6u) << "the seed-7 cases were skipped as done:\n" << run.output;
  run = kbench(sweep({"--resume", "--cold"}), csv_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 9u) << "the cold cases were skipped as done:\n" << run.output;
  run = kbench(sweep({"--resume", "--cold"}), csv_);  // now each is there
  EXPECT_NE(run.output.find("0 cases: "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("3 already in the CSV"), std::string::npos) << run.output;
  const auto seen = cases();
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 9u);
}

TEST_F(Resume, AReusedRunIdWithoutResumeIsRefusedButShardsMayShareOne) {
  ASSERT_EQ(kbench(sweep(), csv_).exit_code, 0);
  auto run = kbench(sweep(), csv_);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("run id 'r1' already has rows for 3 of the 3 planned cases in '" +
                            csv_ + "': add --resume"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(kb::read_results(csv_).size(), 3u);

  // The shards of one run (a job array) name one run id; their cases are disjoint.
  const std::string sharded = folder_.file("sharded.csv");
  for (const char* shard : {"0/2", "1/2"}) {
    run = kbench(sweep({"--shard", shard}), sharded);
    EXPECT_EQ(run.exit_code, 0) << shard << "\n" << run.output;
  }
  EXPECT_EQ(kb::read_results(sharded).size(), 3u);
}

TEST_F(Resume, AChosenRunIdWritesIntoAFolderNotYetMade) {
  const std::string nested = folder_.file("new/folder/results.csv");
  const auto run = kbench(sweep(), nested);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 3u);
}

// Two resumes of one run id at once (a job submitted twice): the second is refused before it
// runs anything, so no case runs twice.
TEST_F(Resume, OneProcessAtATimeRunsARunId) {
  // Three cases of 1 s each: the second process starts while the first runs its second case.
  auto slow = sweep({"--min-time", "1", "--output", csv_});
  *std::find(slow.begin(), slow.end(), "0.01") = "1";  // --max-time
  const pid_t first = kbtest::spawn_kbench(slow);
  for (int i = 0; i < 200 && (!fs::exists(csv_) || kb::read_results(csv_).empty()); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const auto second = kbench(sweep({"--resume"}), csv_);
  int status = 0;
  waitpid(first, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_NE(second.output.find("run 'r1' is being run by another kbench on '" + csv_ + "'"),
            std::string::npos)
      << second.output;
  const auto seen = cases();
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 3u);
}

// The lock was keyed on the path and the shard as typed, so a run started again through
// a symbolic link to the file, or with its shard spelled "00/2", wrote every case twice. It is a
// lock on the file itself now, and the shard is compared as numbers.
TEST_F(Resume, ARunIdIsLockedOnTheFileWhateverItsPathOrShardSpelling) {
  const std::string link = folder_.file("link.csv"), hard = folder_.file("hard.csv");
  auto slow = sweep({"--min-time", "1", "--shard", "0/2", "--output", csv_});
  *std::find(slow.begin(), slow.end(), "0.01") = "1";  // --max-time
  *std::find(slow.begin(), slow.end(), "10,20,30") = "10,20,30,40,50,60,70,80";
  // Four cases of 1 s: the others are started while it runs the second.
  const pid_t first = kbtest::spawn_kbench(slow);
  for (int i = 0; i < 200 && (!fs::exists(csv_) || kb::read_results(csv_).empty()); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  fs::create_symlink(csv_, link);
  fs::create_hard_link(csv_, hard);
  const std::string dotted = (folder_.path() / "." / "results.csv").string();
  for (const auto& [path, spelled] : {std::pair{link, "00/2"}, {hard, "0/02"}, {dotted, "0/2"}}) {
    auto again = sweep({"--resume", "--shard", spelled});
    *std::find(again.begin(), again.end(), "10,20,30") = "10,20,30,40,50,60,70,80";
    const auto second = kbench(again, path);
    EXPECT_EQ(second.exit_code, 2) << spelled << ": " << second.output;
    EXPECT_NE(second.output.find("run 'r1' shard 0/2 is being run by another kbench"),
              std::string::npos)
        << second.output;
  }
  int status = 0;
  waitpid(first, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  const auto seen = cases();
  EXPECT_EQ(seen.size(), 4u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 4u);
}

// The results file replaced while the run goes on: the run stops (exit 4) naming the
// file, and the resume writes what the new file lacks, each case once.
TEST_F(Resume, AFileReplacedDuringTheRunStopsItAndTheResumeCompletesIt) {
  auto slow = sweep({"--min-time", "0.3", "--output", csv_});
  *std::find(slow.begin(), slow.end(), "0.01") = "0.3";  // --max-time
  *std::find(slow.begin(), slow.end(), "10,20,30") = "10,20,30,40,50,60";
  const std::string log = folder_.file("log");
  const pid_t pid = kbtest::spawn_kbench(slow, log);
  for (int i = 0; i < 200 && (!fs::exists(csv_) || kb::read_results(csv_).empty()); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // As an editor saves: a copy written beside it, renamed over it.
  fs::copy_file(csv_, csv_ + ".swp");
  fs::rename(csv_ + ".swp", csv_);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 4) << kbtest::read_file(log);
  EXPECT_NE(kbtest::read_file(log).find("results file '" + csv_ + "' was replaced or removed while "
                                        "this run wrote to it"),
            std::string::npos)
      << kbtest::read_file(log);
  auto resumed = sweep({"--resume"});
  *std::find(resumed.begin(), resumed.end(), "10,20,30") = "10,20,30,40,50,60";
  const auto run = kbench(resumed, csv_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const auto seen = cases();
  EXPECT_EQ(seen.size(), 6u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 6u);
}

}  // namespace
