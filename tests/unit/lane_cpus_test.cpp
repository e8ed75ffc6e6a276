// The cores a run's lanes keep to: dealt from the process's own mask, and inherited by the
// processes a pinned thread starts (the workers and referees of a lane).
#include "util/lane_cpus.hpp"

#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

extern char** environ;

namespace {

using Groups = std::vector<std::vector<int>>;

TEST(LaneCpus, DealsContiguousGroupsTheEarlierOnesLarger) {
  EXPECT_EQ(kb::lane_cpus({0, 1, 2, 3, 4, 5, 6, 7}, 2), (Groups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(kb::lane_cpus({0, 1, 2, 3, 4, 5, 6}, 3), (Groups{{0, 1, 2}, {3, 4}, {5, 6}}));
  EXPECT_EQ(kb::lane_cpus({2, 5, 9}, 1), (Groups{{2, 5, 9}}));
}

TEST(LaneCpus, LanesShareCpusWhereThereAreFewerCpusThanLanes) {
  EXPECT_EQ(kb::lane_cpus({4, 6}, 3), (Groups{{4}, {6}, {4}}));
}

TEST(LaneCpus, NoCpusOrNoLanesGiveEmptyGroups) {
  EXPECT_EQ(kb::lane_cpus({}, 2), (Groups{{}, {}}));
  EXPECT_TRUE(kb::lane_cpus({0, 1}, 0).empty());
}

TEST(LaneCpus, TheProcessMaskIsWhatTheKernelSays) {
  std::ifstream status("/proc/self/status");
  std::string line;
  int listed = -1;
  while (std::getline(status, line)) {
    if (line.rfind("Cpus_allowed_list:", 0) != 0) continue;
    // "0-3,6": count the CPUs the ranges name.
    listed = 0;
    std::stringstream ranges(line.substr(line.find(':') + 1));
    std::string range;
    while (std::getline(ranges, range, ',')) {
      const auto dash = range.find('-');
      const int first = std::stoi(range.substr(0, dash));
      const int last = dash == std::string::npos ? first : std::stoi(range.substr(dash + 1));
      listed += last - first + 1;
    }
  }
  EXPECT_EQ(static_cast<int>(kb::allowed_cpus().size()), listed);
}

std::string allowed_list_of_child() {
  int out[2];
  if (pipe(out) != 0) return "pipe failed";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  char sh[] = "/bin/sh", flag[] = "-c",
       script[] = "sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status";
  char* argv[] = {sh, flag, script, nullptr};
  pid_t pid = -1;
  const int failed = posix_spawn(&pid, sh, &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  std::string text;
  char buffer[256];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  close(out[0]);
  if (failed != 0) return "spawn failed";
  int status = 0;
  waitpid(pid, &status, 0);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

TEST(LaneCpus, AProcessStartedByAPinnedThreadKeepsToItsCpus) {
  const std::vector<int> cpus = kb::allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  const int last = cpus.back();
  std::string seen;
  bool kept = false;
  // On a thread of its own, so that the test process's main thread keeps its mask.
  std::thread([&] {
    kept = kb::keep_thread_to({last});
    seen = allowed_list_of_child();
  }).join();
  ASSERT_TRUE(kept);
  EXPECT_EQ(seen, std::to_string(last));
  EXPECT_EQ(kb::allowed_cpus(), cpus);
}

TEST(LaneCpus, NoCpusLeaveTheThreadAsItWas) {
  const std::vector<int> cpus = kb::allowed_cpus();
  bool kept = true;
  std::vector<int> after;
  std::thread([&] {
    kept = kb::keep_thread_to({});
    after = kb::allowed_cpus();
  }).join();
  EXPECT_FALSE(kept);
  EXPECT_EQ(after, cpus);
}

}  // namespace
