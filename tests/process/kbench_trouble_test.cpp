// kbench's own trouble is kbench's, and a plugin's text is text. A temporary folder with no room
// (no inodes, no bytes) made every case an `error` row blamed on the plugin (which --resume then
// skipped), or one "skipped" line per plugin and exit 2; `list` died of SIGPIPE writing to a probe
// that had ended (exit 141, no line); and a plugin's standard error reached the terminal raw (its
// escape sequences, a bell, a carriage return, a line in kbench's words and colours).
#include "measure/worker_settings.hpp"
#include "protocol/worker_process.hpp"
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <sys/mount.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

std::string quoted(const std::string& word) {
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `kbench args...` with TMPDIR set for it alone (the test's own temporary files stay where they
// were), standard output and error together.
kbtest::Run kbench_with_tmpdir(const std::string& tmpdir, const std::vector<std::string>& args) {
  std::string command = "TMPDIR=" + quoted(tmpdir) + " " + quoted(KBENCH_EXE);
  for (const auto& arg : args) command += " " + quoted(arg);
  kbtest::Run run;
  if (FILE* pipe = popen((command + " 2>&1").c_str(), "r")) {
    char buffer[4096];
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.output.append(buffer, n);
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  return run;
}

class KbenchsOwnTrouble : public ::testing::Test {
 protected:
  // A tmpfs of no room at `mount_point_`: no inode left (its root folder takes the only one), or
  // no byte (a file fills it). False where mount(2) is not permitted.
  bool mount_without_room(bool inodes) {
    fs::create_directories(mount_point_);
    const char* options = inodes ? "size=64k,nr_inodes=1" : "size=4k";
    if (::mount("kbench-test", mount_point_.c_str(), "tmpfs", 0, options) != 0) return false;
    mounted_ = true;
    if (!inodes) {
      std::ofstream fill((mount_point_ / "fill").string(), std::ios::binary);
      fill << std::string(4096, 'x');
    }
    return true;
  }
  void TearDown() override {
    if (mounted_) ::umount(mount_point_.c_str());
  }

  kbtest::TempFolder folder_;
  fs::path mount_point_ = folder_.path() / "tmp";
  bool mounted_ = false;
};

TEST_F(KbenchsOwnTrouble, NoRoomForItsTemporaryFoldersIsOneLineAndNoRow) {
  for (const bool inodes : {true, false}) {
    SCOPED_TRACE(inodes ? "no inodes" : "no bytes");
    if (!mount_without_room(inodes)) {
      GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << ")";
    }
    const std::string csv = folder_.file("results.csv");
    const std::string faulty = kbtest::test_plugin_dir("faulty");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"run", "--plugins", faulty, "--plugin", "testing/good", "--sizes",
                                   "10,20", "--dtypes", "int32", "--output", csv},
          std::vector<std::string>{"list", "--plugins", faulty}}) {
      const auto run = kbench_with_tmpdir(mount_point_.string(), args);
      EXPECT_TRUE(run.exit_code == 3 || run.exit_code == 4) << args[0] << ": " << run.output;
      EXPECT_EQ(kbtest::count_lines(run.output), 1) << args[0] << ": " << run.output;
      EXPECT_NE(run.output.find("temporary folder"), std::string::npos) << run.output;
      EXPECT_EQ(run.output.find("skipped"), std::string::npos) << run.output;
    }
    EXPECT_FALSE(fs::exists(csv) && !kb::read_results(csv).empty());
    ::umount(mount_point_.c_str());
    mounted_ = false;
  }
}

// A worker that finds no room for its folder (the temporary folder filled during the run) says so
// as kbench's shortage before the plugin is loaded, which ends the run without a row.
TEST_F(KbenchsOwnTrouble, AWorkerWithNoRoomForItsFolderSaysItIsKbenchsShortage) {
  if (!mount_without_room(/*inodes=*/true)) {
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << ")";
  }
  const char* before = std::getenv("TMPDIR");
  const std::string kept = before ? before : "";
  setenv("TMPDIR", mount_point_.c_str(), 1);
  kb::WorkerProcess worker({KBENCH_EXE, "worker"});
  before ? setenv("TMPDIR", kept.c_str(), 1) : unsetenv("TMPDIR");
  std::string kind;
  kb::Record answer;
  ASSERT_TRUE(worker.send("open", kb::encode_device_opening(-1)));
  ASSERT_EQ(worker.receive(kind, answer, 10000), kb::WorkerProcess::Received::record);
  EXPECT_EQ(kind, "opened");
  EXPECT_TRUE(kb::decode_worker_greeting(answer).ready());
  kb::WorkerSettings settings;
  settings.plugin_file = kbtest::test_plugin_dir("faulty") + "/kbt_fault_free.so";
  ASSERT_TRUE(worker.send("settings", kb::encode_worker_settings(settings)));
  ASSERT_EQ(worker.receive(kind, answer, 10000), kb::WorkerProcess::Received::record);
  EXPECT_EQ(kind, "hello");
  const kb::WorkerGreeting hello = kb::decode_worker_greeting(answer);
  EXPECT_EQ(hello.error, "");
  EXPECT_NE(hello.short_of.find("No space left on device"), std::string::npos) << hello.short_of;
}

// A worker opens one device and serves it alone: settings for another are refused in its hello,
// and it ends.
TEST(WorkerOpening, SettingsForAnotherDeviceThanTheOneOpenedAreRefused) {
  kb::WorkerProcess worker({KBENCH_EXE, "worker"});
  std::string kind;
  kb::Record answer;
  ASSERT_TRUE(worker.send("open", kb::encode_device_opening(-1)));
  ASSERT_EQ(worker.receive(kind, answer, 10000), kb::WorkerProcess::Received::record);
  ASSERT_TRUE(kb::decode_worker_greeting(answer).ready());
  kb::WorkerSettings settings;
  settings.plugin_file = kbtest::test_plugin_dir("faulty") + "/kbt_fault_free.so";
  settings.device = 0;
  ASSERT_TRUE(worker.send("settings", kb::encode_worker_settings(settings)));
  ASSERT_EQ(worker.receive(kind, answer, 10000), kb::WorkerProcess::Received::record);
  EXPECT_EQ(kind, "hello");
  EXPECT_EQ(kb::decode_worker_greeting(answer).error,
            "settings for device 0 to a worker that opened device -1");
  EXPECT_EQ(worker.finish(), "exited with code 1");
}

// The opening names a device index or the host (-1), and nothing else travels with it.
TEST(WorkerOpening, AnOpeningRecordIsDecodedStrictly) {
  EXPECT_EQ(kb::decode_device_opening(kb::encode_device_opening(3)), 3);
  EXPECT_EQ(kb::decode_device_opening(kb::encode_device_opening(-1)), -1);
  EXPECT_THROW(kb::decode_device_opening({{"device", "-2"}}), kb::ProtocolError);
  EXPECT_THROW(kb::decode_device_opening({{"device", "0"}, {"plugin", "x"}}), kb::ProtocolError);
  EXPECT_THROW(kb::decode_device_opening({}), kb::ProtocolError);
  const kb::WorkerGreeting both = kb::decode_worker_greeting(
      kb::encode_worker_greeting({"the plugin's fault", "no descriptors"}));
  EXPECT_EQ(both.error, "the plugin's fault");
  EXPECT_EQ(both.short_of, "no descriptors");
  EXPECT_THROW(kb::decode_worker_greeting({{"eror", "x"}}), kb::ProtocolError);
}

// A plugin that closes its process's request pipe (standard input) as it loads: the next request
// written to that process found no reader.
TEST_F(KbenchsOwnTrouble, AChildThatStoppedReadingEndsNoCommandBySigpipe) {
  const std::vector<std::string> folders = {"--plugins", kbtest::test_plugin_dir("load_closes_requests"),
                                            "--plugins", kbtest::test_plugin_dir("faulty")};
  auto args = folders;
  args.insert(args.begin(), "list");
  const auto list = kbench(args);
  EXPECT_EQ(list.exit_code, 0) << list.output;
  EXPECT_NE(list.output.find("| testing/good |"), std::string::npos) << list.output;
  args = folders;
  args.insert(args.begin(), "run");
  for (const char* arg : {"--plugin", "testing/good", "--plugin", "testing/load_closes_requests",
                          "--sizes", "10", "--dtypes", "int32", "--max-time", "0.01"}) {
    args.push_back(arg);
  }
  const auto run = kbench(args);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.rows.size(), 2u) << run.output;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), row.at("plugin") == "testing/good" ? "ok" : "crashed")
        << row.at("message");
  }
}

TEST(PluginText, APluginsOwnStandardErrorReachesTheTerminalEscaped) {
  const std::string folder = kbtest::test_plugin_dir("load_writes_terminal_codes");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--plugins", folder, "--plugin",
                                 "testing/load_writes_terminal_codes", "--sizes", "10", "--dtypes",
                                 "int32", "--max-time", "0.01"},
        std::vector<std::string>{"list", "--plugins", folder, "--plugin",
                                 "testing/load_writes_terminal_codes"}}) {
    const auto run = kbench(args);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    for (const char raw : {'\x1b', '\a', '\r'}) {
      EXPECT_EQ(run.output.find(raw), std::string::npos) << args[0] << ": " << run.output;
    }
    // Its line said, escaped, in the probe that loaded it and (run) in its worker.
    const std::string shown =
        "\\x1b[1;32mkbench: all cases ok\\x1b[0m\\x07\\rthe plugin's line\\x1b[2J\n";
    std::size_t times = 0;
    for (std::size_t at = 0; (at = run.output.find(shown, at)) != std::string::npos; ++at) ++times;
    EXPECT_GE(times, args[0] == "run" ? 2u : 1u) << run.output;
  }
}

}  // namespace
