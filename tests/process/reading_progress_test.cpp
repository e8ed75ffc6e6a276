// A long read, and the long steps after it, say how far they are on a terminal: one line that
// moves in place, cleared before the command's own output. kbench runs here on a pseudo-terminal, as a person at a terminal sees it,
// told to show the line at once (KBENCH_PROGRESS_AFTER_S=0) instead of after two seconds.
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct TerminalRun {
  int exit_code = -1;
  std::string screen;  // every byte kbench wrote to its terminal
};

TerminalRun kbench_on_a_terminal(const std::vector<std::string>& args) {
  TerminalRun run;
  int terminal = -1;
  const pid_t pid = forkpty(&terminal, nullptr, nullptr, nullptr);
  if (pid < 0) return run;
  if (pid == 0) {
    setenv("KBENCH_PROGRESS_AFTER_S", "0", 1);
    std::vector<char*> argv{const_cast<char*>(KBENCH_EXE)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(KBENCH_EXE, argv.data());
    _exit(127);
  }
  char buffer[4096];
  while (true) {
    const ssize_t got = read(terminal, buffer, sizeof buffer);
    if (got > 0) {
      run.screen.append(buffer, static_cast<std::size_t>(got));
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once kbench is gone and the terminal has nobody on its other side
    }
  }
  close(terminal);
  int status = 0;
  waitpid(pid, &status, 0);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST(ReadingProgress, OnATerminalTheLineMovesInPlaceAndIsClearedBeforeTheOutput) {
  const std::string csv = std::string(KBENCH_SOURCE_DIR) + "/results/h200.csv";
  const TerminalRun run = kbench_on_a_terminal({"compare", csv, "--by", "gpu"});
  ASSERT_EQ(run.exit_code, 0) << run.screen;
  const std::string shown = "\r\033[Kkbench: reading " + csv + ": ";
  const auto line = run.screen.find(shown);
  ASSERT_NE(line, std::string::npos) << run.screen.substr(0, 400);
  EXPECT_NE(run.screen.find("rows kept)", line), std::string::npos);
  // Cleared (the same control sequence, nothing after it on the line) before the table.
  const auto cleared = run.screen.find("\r\033[K", line + shown.size());
  ASSERT_NE(cleared, std::string::npos);
  EXPECT_LT(cleared, run.screen.find("| "));
  // Never written as its escapes, as a value's control characters are.
  EXPECT_EQ(run.screen.find("\\x1b"), std::string::npos) << run.screen.substr(0, 400);
  EXPECT_EQ(run.screen.find("\\r"), std::string::npos);
}

TEST(ReadingProgress, TheHistorysGatesAndTheReplaysSayHowFarTheyAre) {
  const std::string csv = std::string(KBENCH_SOURCE_DIR) + "/results/h100.csv";
  kbtest::TempFolder folder;
  const TerminalRun history =
      kbench_on_a_terminal({"report", csv, "--history", "-o", folder.file("history")});
  ASSERT_EQ(history.exit_code, 0) << history.screen;
  EXPECT_NE(history.screen.find("\r\033[Kkbench: the history: run 2 of "), std::string::npos)
      << history.screen.substr(0, 600);
  const TerminalRun tune = kbench_on_a_terminal({"tune", "--simulate", csv, "--seeds", "2"});
  ASSERT_EQ(tune.exit_code, 0) << tune.screen.substr(0, 600);
  const auto line = tune.screen.find("\r\033[Kkbench: problem 1 of ");
  ASSERT_NE(line, std::string::npos) << tune.screen.substr(0, 600);
  EXPECT_LT(tune.screen.find("\r\033[K", line + 1), tune.screen.find("Evaluations until"));
}

TEST(ReadingProgress, OffATerminalNothingIsSaid) {
  const std::string csv = std::string(KBENCH_SOURCE_DIR) + "/results/h200.csv";
  setenv("KBENCH_PROGRESS_AFTER_S", "0", 1);
  const kbtest::Run run = kbtest::kbench({"compare", csv, "--by", "gpu"});
  unsetenv("KBENCH_PROGRESS_AFTER_S");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find("kbench: reading"), std::string::npos);
  EXPECT_EQ(run.output.find('\r'), std::string::npos);
}

}  // namespace
