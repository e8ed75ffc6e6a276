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

// CPUs 0..n-1, each a core of its own.
std::vector<kb::CpuPlace> one_thread_cores(const std::vector<int>& cpus) {
  std::vector<kb::CpuPlace> places;
  for (const int cpu : cpus) places.push_back({cpu, cpu});
  return places;
}

TEST(LaneCpus, DealsContiguousGroupsTheEarlierOnesLarger) {
  EXPECT_EQ(kb::lane_cpus(one_thread_cores({0, 1, 2, 3, 4, 5, 6, 7}), 2),
            (Groups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(kb::lane_cpus(one_thread_cores({0, 1, 2, 3, 4, 5, 6}), 3),
            (Groups{{0, 1, 2}, {3, 4}, {5, 6}}));
  EXPECT_EQ(kb::lane_cpus(one_thread_cores({2, 5, 9}), 1), (Groups{{2, 5, 9}}));
}

// Linux numbers a machine of 8 cores with two hardware threads each 0-7, then their siblings 8-15:
// a lane of CPUs 0-7 would share every core with the lane of 8-15.
TEST(LaneCpus, LanesGetWholeCoresWithBothTheirHardwareThreads) {
  std::vector<kb::CpuPlace> places;
  for (int cpu = 0; cpu < 16; ++cpu) places.push_back({cpu, cpu % 8});
  EXPECT_EQ(kb::lane_cpus(places, 2),
            (Groups{{0, 1, 2, 3, 8, 9, 10, 11}, {4, 5, 6, 7, 12, 13, 14, 15}}));
  EXPECT_EQ(kb::lane_cpus(places, 3),
            (Groups{{0, 1, 2, 8, 9, 10}, {3, 4, 5, 11, 12, 13}, {6, 7, 14, 15}}));
}

TEST(LaneCpus, FewerCoresThanLanesDealHardwareThreads) {
  // Two cores of two threads, three lanes.
  EXPECT_EQ(kb::lane_cpus({{0, 0}, {1, 1}, {2, 0}, {3, 1}}, 3), (Groups{{0, 1}, {2}, {3}}));
}

TEST(LaneCpus, LanesShareCpusWhereThereAreFewerCpusThanLanes) {
  EXPECT_EQ(kb::lane_cpus(one_thread_cores({4, 6}), 3), (Groups{{4}, {6}, {4}}));
}

TEST(LaneCpus, NoCpusOrNoLanesGiveEmptyGroups) {
  EXPECT_EQ(kb::lane_cpus({}, 2), (Groups{{}, {}}));
  EXPECT_TRUE(kb::lane_cpus(one_thread_cores({0, 1}), 0).empty());
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

// The hardware threads the kernel calls siblings (thread_siblings_list) are one core to the
// dealing.
TEST(LaneCpus, SiblingsTheKernelListsShareACore) {
  const std::vector<kb::CpuPlace> places = kb::allowed_cpus();
  ASSERT_FALSE(places.empty());
  for (const kb::CpuPlace& place : places) {
    std::ifstream list("/sys/devices/system/cpu/cpu" + std::to_string(place.cpu) +
                       "/topology/thread_siblings_list");
    std::string siblings;
    if (!std::getline(list, siblings)) continue;  // no topology: nothing to hold it to
    std::stringstream ranges(siblings);
    std::string range;
    while (std::getline(ranges, range, ',')) {
      const auto dash = range.find('-');
      const int first = std::stoi(range.substr(0, dash));
      const int last = dash == std::string::npos ? first : std::stoi(range.substr(dash + 1));
      for (const kb::CpuPlace& other : places) {
        if (other.cpu >= first && other.cpu <= last) {
          EXPECT_EQ(other.core, place.core) << "CPUs " << place.cpu << " and " << other.cpu;
        }
      }
    }
  }
}

std::vector<int> cpus_of(const std::vector<kb::CpuPlace>& places) {
  std::vector<int> cpus;
  for (const kb::CpuPlace& place : places) cpus.push_back(place.cpu);
  return cpus;
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
  const std::vector<int> cpus = cpus_of(kb::allowed_cpus());
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
  EXPECT_EQ(cpus_of(kb::allowed_cpus()), cpus);
}

TEST(LaneCpus, NoCpusLeaveTheThreadAsItWas) {
  const std::vector<int> cpus = cpus_of(kb::allowed_cpus());
  bool kept = true;
  std::vector<int> after;
  std::thread([&] {
    kept = kb::keep_thread_to({});
    after = cpus_of(kb::allowed_cpus());
  }).join();
  EXPECT_FALSE(kept);
  EXPECT_EQ(after, cpus);
}

}  // namespace
