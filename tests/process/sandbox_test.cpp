// A plugin ran with every right of the user who ran kbench: it could append to or
// truncate the results file, write anywhere, and trace or write other processes. Its worker now
// confines it where the kernel allows (core/lib/protocol/sandbox.hpp); real plugins
// (tests/plugins/test_plugin.cpp) try, and say in their row what the system answered.
#include "protocol/sandbox.hpp"
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace {

namespace fs = boost::filesystem;
using kbtest::kbench;

// The results file and a folder, both beneath the build tree (or, for the test that says so, the
// shared temporary folder): outside every folder the sandbox lets a plugin write to (its own
// temporary folder, /dev, /proc, the caches).
class Sandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    const kb::SandboxSupport support = kb::sandbox_support();
    if (!support.missing().empty()) GTEST_SKIP() << support.missing();
    place(fs::path(KBT_PLUGIN_ROOT).parent_path());
    setenv("KBT_SHARED_TMP", fs::temp_directory_path().c_str(), 1);
  }
  void place(const fs::path& parent) {
    if (!folder_.empty()) fs::remove_all(folder_);
    folder_ = parent / fs::unique_path("sandbox-%%%%-%%%%");
    fs::create_directories(folder_ / "outside");
    csv_ = (folder_ / "results.csv").string();
    setenv("KBT_RESULTS", csv_.c_str(), 1);
    setenv("KBT_OUTSIDE", (folder_ / "outside").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("KBT_RESULTS");
    unsetenv("KBT_OUTSIDE");
    unsetenv("KBT_SHARED_TMP");
    unsetenv("KBENCH_SANDBOX");
    if (!folder_.empty()) fs::remove_all(folder_);
  }

  // One case of the plugin; the message of its row.
  std::string message_of(const std::string& plugin) {
    const auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("sandbox"), "--plugin",
                             plugin, "--sizes", "10", "--dtypes", "int32", "--run-id", plugin},
                            csv_);
    EXPECT_EQ(run.rows.size(), 1u) << run.output << run.csv_error;
    return run.rows.empty() ? "" : run.rows.front().at("message");
  }

  fs::path folder_;
  std::string csv_;
};

// What the plugin's TMPDIR was, from its message: its own folder, gone once the run ended.
void expect_private_temporary_folder_gone(const std::string& message) {
  const auto at = message.find("; TMPDIR=");
  ASSERT_NE(at, std::string::npos) << message;
  const fs::path tmpdir = message.substr(at + 9);
  EXPECT_EQ(tmpdir.parent_path(), fs::temp_directory_path()) << message;
  EXPECT_EQ(tmpdir.filename().string().rfind("kbench-", 0), 0u) << message;
  EXPECT_FALSE(fs::exists(tmpdir)) << message;
}

TEST_F(Sandbox, APluginCannotWriteTheResultsFileOrOutsideTheTemporaryFolders) {
  const std::string message = message_of("testing/setup_writes_outside");
  EXPECT_NE(message.find("results: Permission denied; truncate: Permission denied; "
                         "outside: Permission denied; tmp: ok; shared tmp: Permission denied"),
            std::string::npos)
      << message;
  expect_private_temporary_folder_gone(message);
  EXPECT_FALSE(fs::exists(folder_ / "outside" / "made-by-the-plugin"));
  // The file holds its header and the plugin's row, nothing else.
  EXPECT_EQ(kb::read_results(csv_).size(), 1u);
  EXPECT_EQ(kbtest::read_file(csv_).find("written by the plugin"), std::string::npos);
}

// A results file in the shared temporary folder (a test's, a quick try's) is as far out of reach:
// the plugin writes in a folder of its own, not in /tmp.
TEST_F(Sandbox, AResultsFileInTheSharedTemporaryFolderIsOutOfReachToo) {
  place(fs::temp_directory_path());
  const std::string message = message_of("testing/setup_writes_outside");
  EXPECT_NE(message.find("results: Permission denied; truncate: Permission denied; "
                         "outside: Permission denied; tmp: ok; shared tmp: Permission denied"),
            std::string::npos)
      << message;
  EXPECT_EQ(kb::read_results(csv_).size(), 1u);
  EXPECT_EQ(kbtest::read_file(csv_).find("written by the plugin"), std::string::npos);
}

TEST_F(Sandbox, APluginCannotTraceWriteOrSignalAnotherProcessOrLeaveItsGroup) {
  const std::string message = message_of("testing/setup_reaches_other_processes");
  EXPECT_NE(message.find("ptrace: Operation not permitted; process_vm_writev: Operation not "
                         "permitted; parent memory: Permission denied; setsid: Operation not "
                         "permitted; signal the parent: Operation not permitted; signal every "
                         "process: Operation not permitted; the parent's priority: Operation not "
                         "permitted; the parent's oom_score_adj: Permission denied; "
                         "oom_score_adj 1000; own memory: Permission denied; requests reopened: "
                         "No such device or address; input pushed: Operation not permitted; "
                         "terminal taken: Operation not permitted"),
            std::string::npos)
      << message;
}

// The probe, where a plugin's kbench_plugin() and static constructors run, is confined the same.
TEST_F(Sandbox, APluginsEntryCannotWriteOutsideTheTemporaryFoldersEither) {
  { kb::ResultsStore store(csv_); }
  const std::string before = kbtest::read_file(csv_);
  const auto run = kbench({"list", "--plugins", kbtest::test_plugin_dir("sandbox_probe")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("| testing/entry_writes_outside |"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(folder_ / "outside" / "made-by-the-plugin"));
  EXPECT_EQ(kbtest::read_file(csv_), before);
}

// What no sandbox forbids: a plugin that may read the results file may lock a byte of it, and held
// the append lock until its worker ended, so the parent waited for ever for its first row. It waits
// a bounded time, says it waits, and stops as on a full disk: one line, the resume command, the file
// whole. (The patience is 60 s; the test's is 1 s.)
TEST_F(Sandbox, APluginHoldingTheAppendLockStopsTheRunWithALineNotAHang) {
  { kb::ResultsStore store(csv_); }
  const std::string before = kbtest::read_file(csv_);
  setenv("KBENCH_TEST_APPEND_LOCK_PATIENCE", "1", 1);
  const auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("sandbox"), "--plugin",
                           "testing/setup_locks_results", "--sizes", "10,20", "--dtypes", "int32",
                           "--run-id", "locked"},
                          csv_);
  unsetenv("KBENCH_TEST_APPEND_LOCK_PATIENCE");
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_NE(run.output.find("another process has held its append lock for 1 s"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("--run-id locked --output " + csv_ + " --resume"), std::string::npos)
      << run.output;
  EXPECT_EQ(kbtest::read_file(csv_), before);
}

// The escape hatch, and the proof that the plugins above do what they say where nothing stops
// them.
TEST_F(Sandbox, KbenchSandboxOffLeavesThePluginUnconfined) {
  setenv("KBENCH_SANDBOX", "off", 1);
  const auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("sandbox"), "--plugin",
                           "testing/setup_reaches_other_processes", "--sizes", "10", "--dtypes",
                           "int32"},
                          csv_);
  EXPECT_NE(run.output.find("kbench: note: the plugin sandbox is off (KBENCH_SANDBOX=off)"),
            std::string::npos)
      << run.output;
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  EXPECT_NE(run.rows[0].at("message").find("ptrace: ok; process_vm_writev: ok; parent memory: ok; "
                                           "setsid: ok; signal the parent: ok; signal every "
                                           "process: ok; the parent's priority: ok; the "
                                           "parent's oom_score_adj: ok; oom_score_adj 1000"),
            std::string::npos)
      << run.rows[0].at("message");
  EXPECT_NE(message_of("testing/setup_writes_outside").find("outside: ok; tmp: ok; shared tmp: ok"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(folder_ / "outside" / "made-by-the-plugin"));
}

}  // namespace
