// The commands that read results files (compare, report, tune --simulate) refuse anything that is
// not a regular file in one line naming it: a folder was an internal error that named nothing,
// /dev/zero filled memory without bound and a FIFO blocked forever.
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::string shell_quote(const std::string& s) {
  std::string quoted = "'";
  for (char ch : s) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

// `kbench ARGS` bounded in time and memory (a reader of /dev/zero or a FIFO must not take the test
// down with it): its exit code and its output.
std::pair<int, std::string> bounded_kbench(const std::vector<std::string>& args) {
  std::string command = "ulimit -v 8000000; exec timeout -s KILL 60 " + shell_quote(KBENCH_EXE);
  for (const auto& arg : args) command += " " + shell_quote(arg);
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), output};
}

TEST(NonRegularInput, EveryResultsReaderRefusesAFolderADeviceAndAFifoByName) {
  const kbtest::TempFolder folder;
  const std::string fifo = folder.file("fifo.csv");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& input : {folder.path().string(), std::string("/dev/zero"), fifo}) {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"compare", input, "--by", "run"},
             {"compare", input, input},
             {"report", input, "-o", folder.file("report")},
             {"tune", "--simulate", input, "--plugin", "transpose/cpu"}}) {
      SCOPED_TRACE(args[0] + " " + args[1]);
      const auto [code, output] = bounded_kbench(args);
      EXPECT_EQ(code, 2) << output;
      EXPECT_EQ(output, "kbench: error: results file '" + input + "' is not a regular file\n");
    }
  }
}

}  // namespace
