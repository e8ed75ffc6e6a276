// Nothing lost: misbehaving plugins (real .so files built from tests/plugins/test_plugin.cpp) each
// become a row with the right status and message, and every other case still runs.
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <thread>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

TEST(Isolation, EveryFaultBecomesItsOwnRowAndTheSweepGoesOn) {
  const auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--family",
                           "testing", "--sizes", "1000,2000", "--dtypes", "int32",
                           "--case-timeout", "2", "--max-time", "0.02"});
  EXPECT_EQ(run.exit_code, 1) << run.output;  // something other than ok/unsupported happened

  std::map<std::string, std::vector<kbtest::Row>> by_plugin;
  for (const auto& row : run.rows) by_plugin[row.at("plugin")].push_back(row);
  // Two sizes each: a crash on the first case must not cost the second.
  for (const auto& [plugin, rows] : by_plugin) EXPECT_EQ(rows.size(), 2u) << plugin;

  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      {"testing/good", {"ok", ""}},
      {"testing/setup_segfault", {"crashed", "killed by signal 11"}},
      {"testing/launch_abort", {"crashed", "killed by signal 6"}},
      {"testing/verify_exit", {"crashed", "exited with code 3"}},
      {"testing/launch_hang", {"timeout", "no result after 2"}},
      {"testing/launch_throw", {"error", "exception: thrown inside the plugin"}},
      {"testing/verify_wrong", {"verify_failed", "verification failed"}},
      {"testing/setup_error", {"error", "setup: setup refused, with \"quotes\", commas\nand a newline"}},
      {"testing/launch_error", {"error", "launch: launch failed on purpose"}},
      {"testing/verify_error", {"error", "verify: could not check"}},
      {"testing/setup_oom", {"oom", "cannot allocate 1 TB"}},
  };
  ASSERT_EQ(by_plugin.size(), expected.size()) << run.output;
  for (const auto& [plugin, outcome] : expected) {
    ASSERT_TRUE(by_plugin.count(plugin)) << plugin << " has no rows";
    for (const auto& row : by_plugin[plugin]) {
      EXPECT_EQ(row.at("status"), outcome.first) << plugin << ": " << row.at("message");
      EXPECT_NE(row.at("message").find(outcome.second), std::string::npos)
          << plugin << ": " << row.at("message");
    }
  }
  EXPECT_EQ(by_plugin["testing/good"][0].at("metrics"), "elements=1000");
  EXPECT_NE(run.output.find("22 cases: 2 ok, 2 verify_failed, 0 implausible, 0 unsupported, 8 error, 6 crashed, "
                            "2 timeout, 2 oom"),
            std::string::npos)
      << run.output;
  // A message's line break stays in its row's cell, and shows as "\n" in its progress line: a
  // plugin cannot start a line of kbench's output (a fake "[k/n] ... ok").
  EXPECT_NE(run.output.find("(setup: setup refused, with \"quotes\", commas\\nand a newline)"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("\nand a newline"), std::string::npos) << run.output;
}

// KB_VERIFY_FAILED is a check's word: from a launch it is an error that says so, not a
// verify_failed row with no check's message.
TEST(Isolation, ALaunchThatSaysVerifyFailedIsAnErrorThatSaysSo) {
  const auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("launch_verify_failed"),
                           "--plugin", "testing/launch_verify_failed", "--sizes", "1000",
                           "--dtypes", "int32", "--max-time", "0.02"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  EXPECT_EQ(run.rows[0].at("status"), "error");
  EXPECT_EQ(run.rows[0].at("message"), "launch: returned KB_VERIFY_FAILED, which only a check returns");
}

using kbtest::spawn_kbench;

std::size_t rows_in(const std::string& csv) {
  if (!fs::exists(csv) || fs::file_size(csv) == 0) return 0;
  return kb::read_results(csv).size();
}

class Interruption : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / fs::unique_path("kbench-kill-%%%%");
    fs::create_directories(folder_);
    csv_ = (folder_ / "results.csv").string();
    args_ = {"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin", "testing/good",
             "--sizes", "100,200,300,400,500,600,700,800,900,1000,1100,1200", "--dtypes", "int32",
             "--min-time", "0.15", "--max-time", "0.15", "--output", csv_, "--run-id", "night-1"};
  }
  void TearDown() override { fs::remove_all(folder_); }

  void wait_for_rows(std::size_t n) {
    for (int i = 0; i < 200 && rows_in(csv_) < n; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }

  // Resumes run night-1 and checks that the file then holds every case once.
  void resume_and_expect_every_case_once() {
    auto resumed = args_;
    resumed.erase(std::find(resumed.begin(), resumed.end(), "--output"), resumed.end());
    resumed.insert(resumed.end(), {"--run-id", "night-1", "--resume"});
    const auto run = kbench(resumed, csv_);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    expect_every_case_once();
  }

  void expect_every_case_once() {
    const auto rows = kb::read_results(csv_);
    std::multiset<std::string> shapes;
    for (const auto& r : rows) {
      EXPECT_EQ(r.status, "ok");
      EXPECT_EQ(r.run_id, "night-1");
      shapes.insert(r.shape);
    }
    EXPECT_EQ(rows.size(), 12u);
    EXPECT_EQ(std::set<std::string>(shapes.begin(), shapes.end()).size(), 12u);
  }

  fs::path folder_;
  std::string csv_;
  std::vector<std::string> args_;
};

TEST_F(Interruption, SigkillThenResumeCompletesExactlyTheMissingCases) {
  const pid_t pid = spawn_kbench(args_);
  wait_for_rows(3);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::size_t before = rows_in(csv_);  // the file parses whole after a SIGKILL
  ASSERT_GE(before, 3u);
  ASSERT_LT(before, 12u) << "the run finished before it could be killed";

  auto resumed = args_;
  resumed.erase(std::find(resumed.begin(), resumed.end(), "--output"), resumed.end());
  resumed.insert(resumed.end(), {"--run-id", "night-1", "--resume"});
  const auto run = kbench(resumed, csv_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find(std::to_string(before) + " already in the CSV"), std::string::npos)
      << run.output;
  expect_every_case_once();
}

TEST_F(Interruption, SigintFinishesTheCaseFlushesAndPrintsTheResumeCommand) {
  const pid_t pid = spawn_kbench(args_);
  wait_for_rows(2);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::size_t before = rows_in(csv_);
  EXPECT_LT(before, 12u);
  for (const auto& r : kb::read_results(csv_)) EXPECT_EQ(r.status, "ok");  // none torn

  resume_and_expect_every_case_once();
}

}  // namespace

// --- A signal to the whole process group ---------------------------------------------------------
namespace {

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class GroupSignal : public Interruption, public ::testing::WithParamInterface<int> {};

// The worker used to die first, and the case in flight became `crashed (signal 15)`, which
// --resume never runs again.
TEST_P(GroupSignal, TheCaseInFlightIsFinishedOrAbandonedNeverCrashedAndResumeCompletes) {
  const int sig = GetParam();
  const std::string log = (folder_ / "log").string();
  const pid_t pid = spawn_kbench(args_, log, /*own_group=*/true);
  wait_for_rows(2);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));  // into the next case's sampling
  kill(-pid, sig);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the parent died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::string output = text_of(log);
  EXPECT_NE(output.find("Resume with:\n  kbench run "), std::string::npos) << output;
  EXPECT_NE(output.find(" --resume\n"), std::string::npos) << output;
  const std::size_t before = rows_in(csv_);
  EXPECT_GE(before, 2u);
  EXPECT_LT(before, 12u);
  for (const auto& r : kb::read_results(csv_)) EXPECT_EQ(r.status, "ok") << r.message;

  resume_and_expect_every_case_once();
}

INSTANTIATE_TEST_SUITE_P(TermHupInt, GroupSignal, ::testing::Values(SIGTERM, SIGHUP, SIGINT));

class OtherSignal : public Interruption, public ::testing::WithParamInterface<int> {};

// These ended the parent silently, without the resume command: now each is taken as SIGTERM.
TEST_P(OtherSignal, EndsTheRunAsSigtermDoesWithTheResumeCommand) {
  const std::string log = (folder_ / "log").string();
  const pid_t pid = spawn_kbench(args_, log);
  wait_for_rows(2);
  kill(pid, GetParam());
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the parent died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::string output = text_of(log);
  EXPECT_NE(output.find("kbench: interrupted; the CSV holds every finished case. Resume with:\n"
                        "  kbench run "),
            std::string::npos)
      << output;
  EXPECT_LT(rows_in(csv_), 12u);
  resume_and_expect_every_case_once();
}

INSTANTIATE_TEST_SUITE_P(EveryTerminatingSignal, OtherSignal,
                         ::testing::Values(SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM,
                                           SIGPROF));

// A scheduler's SIGTERM gives the job seconds: a case that would run for minutes is abandoned at
// once, without a row, and --resume runs it again.
TEST_F(Interruption, SigtermAbandonsALongCaseAtOnceWithoutARow) {
  args_ = {"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin", "testing/launch_hang",
           "--sizes", "100,200", "--dtypes", "int32", "--case-timeout", "120", "--output", csv_,
           "--run-id", "night-1"};
  const std::string log = (folder_ / "log").string();
  const pid_t pid = spawn_kbench(args_, log, /*own_group=*/true);
  // The run has said it starts (after planning), and the first case is hanging.
  for (int i = 0; i < 400 && text_of(log).find(" lane(s) -> ") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto sent = std::chrono::steady_clock::now();
  kill(-pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_LT(std::chrono::steady_clock::now() - sent, std::chrono::seconds(10));
  ASSERT_TRUE(WIFEXITED(status)) << "the parent died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_EQ(rows_in(csv_), 0u);
  EXPECT_NE(text_of(log).find(" --resume\n"), std::string::npos) << text_of(log);
}

TEST_F(Interruption, ASecondSignalStopsAtOnceAbandoningTheCaseAndSaysHowToResume) {
  // Cases that take 2 s each: the second signal does not wait for one to end.
  args_ = {"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin", "testing/good",
           "--sizes", "100,200,300", "--dtypes", "int32", "--min-time", "2", "--max-time", "2",
           "--output", csv_, "--run-id", "night-1"};
  const std::string log = (folder_ / "log").string();
  const pid_t pid = spawn_kbench(args_, log, /*own_group=*/true);
  // Into the first case: the run has said it starts (after planning), and a little more.
  for (int i = 0; i < 400 && text_of(log).find(" lane(s) -> ") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto start = std::chrono::steady_clock::now();
  kill(-pid, SIGINT);  // the first would let the case finish (SIGTERM abandons it at once)
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(-pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.5);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::string output = text_of(log);
  EXPECT_NE(output.find("interrupted twice; the cases in flight were abandoned. Resume with:\n"
                        "  kbench run "),
            std::string::npos)
      << output;
  EXPECT_EQ(rows_in(csv_), 0u);  // the abandoned case has no row: --resume runs it
}

}  // namespace
