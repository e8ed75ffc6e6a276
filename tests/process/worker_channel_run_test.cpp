// The worker's result channel is a descriptor of a process that runs plugin code. A
// plugin writing a result-shaped line on it put the answers out of step (each later row held the
// previous case's numbers, exit 0); a process the plugin left behind holding it open turned a
// crash into a timeout after the whole --case-timeout, and one holding standard error kept `kbench
// run`'s output open after the run. Real plugins (tests/plugins/test_plugin.cpp) do each. (The
// sequence number's encoding: tests/unit/worker_channel_test.cpp.)
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>

namespace {

using kbtest::kbench;

std::vector<std::string> sweep(const std::string& plugin, const std::string& sizes) {
  return {"run", "--plugins", kbtest::test_plugin_dir("channel"), "--plugin", plugin, "--sizes",
          sizes, "--dtypes", "int32", "--max-time", "0.01", "--case-timeout", "30"};
}

// Each row must be its own case's: `metrics` says how many elements the case verified.
void expect_rows_are_their_cases(const kbtest::Run& run, const std::string& forged) {
  ASSERT_EQ(run.rows.size(), 3u) << run.output;
  for (const auto& row : run.rows) {
    if (row.at("shape") == "100") {
      EXPECT_EQ(row.at("status"), "error") << row.at("message");
      EXPECT_NE(row.at("message").find(forged), std::string::npos) << row.at("message");
    } else {
      EXPECT_EQ(row.at("status"), "ok") << row.at("message");
      EXPECT_EQ(row.at("metrics"), "elements=" + row.at("shape"));
    }
  }
  EXPECT_EQ(run.exit_code, 1) << run.output;
}

TEST(WorkerChannel, AResultShapedLineFromThePluginIsAnErrorOfItsCaseAndTheRestStayInStep) {
  expect_rows_are_their_cases(kbench(sweep("testing/setup_forges_result", "100,200,300")),
                              "worker protocol error: a line that answers no case ('result'");
}

// A plugin numbering a forged `ok` by its own count of requests: the parent's numbers start where
// nothing in the worker can guess, so it answers no case. (A forged answer that did carry the
// number would still need the referee's verdict: referee_verdict_test.cpp.)
TEST(WorkerChannel, AnOkNumberedByThePluginsOwnCountAnswersNoCase) {
  expect_rows_are_their_cases(kbench(sweep("testing/setup_forges_unsampled_ok", "100,200,300")),
                              "worker protocol error: a line that answers no case ('result'");
}

// Bytes without a line feed: the parent kept them all and searched them again on every read (a
// plugin grew it by 32 MB in 20 s). What it keeps is bounded, and the flood is a line out of step.
TEST(WorkerChannel, AFloodWithoutLineFeedsIsAnErrorOfItsCaseNotUnboundedMemory) {
  expect_rows_are_their_cases(kbench(sweep("testing/setup_floods_channel", "100,200,300")),
                              "worker protocol error: a line that answers no case ('a line of "
                              "over 64 MiB'");
}

// The worker segfaults while a child it started holds the channel and standard error: the crash
// is seen from the worker's exit at once, and the child ends with it.
TEST(WorkerChannel, ACrashIsSeenFromTheWorkersExitAndItsDescendantsEndWithIt) {
  const auto start = std::chrono::steady_clock::now();
  const auto run = kbench(sweep("testing/setup_orphan_segfault", "100,200"));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // kbench() reads the output until every writer has closed it: a child left alive would hold it
  // for a minute, a crash seen from the channel would wait for the 30 s case timeout.
  EXPECT_LT(seconds, 10) << run.output;
  ASSERT_EQ(run.rows.size(), 2u) << run.output;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "crashed");
    EXPECT_NE(row.at("message").find("killed by signal 11"), std::string::npos) << row.at("message");
  }
}

TEST(WorkerChannel, WhatAPluginStartsEndsWithItsWorkerAndTheRunsOutputCloses) {
  const auto start = std::chrono::steady_clock::now();
  const auto run = kbench(sweep("testing/setup_orphan", "100,200"));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10) << run.output;
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 2u) << run.output;
}

// Kbench's own shortage of file descriptors was blamed on the plugin (a row "worker
// failed to start: pipe: Too many open files", or the probe's "skipped FILE"). Under each limit
// from starved to ample, the run either runs or stops with one line saying it is kbench's own
// trouble; never a row or a skipped plugin.
TEST(WorkerChannel, KbenchsOwnShortOfDescriptorsIsNeverThePluginsFault) {
  const kbtest::TempFolder folder;
  int starved = 0;
  for (int limit = 4; limit <= 16; ++limit) {
    const std::string csv = folder.file("results-" + std::to_string(limit) + ".csv");
    const std::vector<std::string> args = {
        KBENCH_EXE, "run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin",
        "testing/good", "--sizes", "10", "--dtypes", "int32", "--max-time", "0.01", "--run-id",
        "fd", "--output", csv};
    int out[2];
    ASSERT_EQ(pipe(out), 0);
    const pid_t pid = fork();
    if (pid == 0) {
      // kbench alone, with standard output and error on the pipe and nothing else open.
      dup2(out[1], 1);
      dup2(out[1], 2);
      close_range(3, ~0u, 0);
      const rlimit few{static_cast<rlim_t>(limit), static_cast<rlim_t>(limit)};
      setrlimit(RLIMIT_NOFILE, &few);
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    std::string output;
    char buffer[4096];
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) output.append(buffer, n);
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    EXPECT_EQ(output.find("skipped"), std::string::npos) << limit << ": " << output;
    EXPECT_EQ(output.find(": error ("), std::string::npos) << limit << ": " << output;
    if (code == 3) {
      ++starved;
      EXPECT_NE(output.find("kbench cannot "), std::string::npos) << limit << ": " << output;
      EXPECT_NE(output.find("kbench's own trouble, not a plugin's"), std::string::npos) << output;
    } else {
      EXPECT_EQ(code, 0) << limit << ": " << output;
    }
  }
  EXPECT_GT(starved, 0) << "no limit starved kbench: the shortage was not tried";
}

}  // namespace
