#include "case/case_spec.hpp"
#include "plan/case_queue.hpp"
#include "plan/plan.hpp"
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <thread>

namespace kb {
namespace {

// Runs of consecutive cases of real plugins, as plan_sweep orders them: `sizes` cases each.
std::vector<PlannedCase> runs_of(const std::vector<std::string>& names, const std::vector<int>& sizes) {
  const auto loaded = kbtest::test_plugins("faulty");
  std::vector<PlannedCase> cases;
  for (std::size_t r = 0; r < names.size(); ++r) {
    const auto plugins = select_plugins(loaded, {}, {names[r]});
    for (int i = 1; i <= sizes[r]; ++i) {
      PlannedCase c;
      c.plugin = plugins.at(0);
      c.request.shape = parse_sizes(std::to_string(i)).at(0);
      c.request.device = 0;
      cases.push_back(c);
    }
  }
  return cases;
}

std::string key(const PlannedCase& c) {
  return c.plugin->name + " " + format_extent(c.request.shape);
}

TEST(CaseQueue, OneLaneTakesThePlanInOrder) {
  const auto cases = runs_of({"testing/good", "testing/setup_error", "testing/launch_error"}, {3, 2, 4});
  CaseQueue queue(cases);
  CaseQueue::Position at;
  for (const auto& expected : cases) {
    const auto c = queue.next(std::nullopt, at);
    ASSERT_TRUE(c);
    EXPECT_EQ(key(*c), key(expected));
    EXPECT_EQ(c->request.device, 0);
  }
  EXPECT_FALSE(queue.next(std::nullopt, at));
}

TEST(CaseQueue, LanesKeepToOnePluginEachAndShareTheLongestAtTheEnd) {
  const auto cases = runs_of({"testing/good", "testing/setup_error", "testing/launch_error"}, {5, 3, 8});
  CaseQueue queue(cases);
  CaseQueue::Position at[2];
  std::vector<std::string> taken[2];
  std::multiset<std::string> all;
  // The lanes take turns, as two devices of equal speed would.
  for (bool more = true; more;) {
    more = false;
    for (int lane = 0; lane < 2; ++lane) {
      if (const auto c = queue.next(lane, at[lane])) {
        EXPECT_EQ(c->request.device, lane);
        taken[lane].push_back(key(*c));
        all.insert(key(*c));
        more = true;
      }
    }
  }
  ASSERT_EQ(all.size(), cases.size());
  for (const auto& c : cases) EXPECT_EQ(all.count(key(c)), 1u) << key(c);
  EXPECT_EQ(taken[0].size(), 8u);
  EXPECT_EQ(taken[1].size(), 8u);
  // Lane 0 runs good 1-5, then helps with launch_error from its far end; lane 1 runs setup_error,
  // then launch_error from its start. Two workers per lane.
  EXPECT_EQ(taken[0], (std::vector<std::string>{"testing/good 1", "testing/good 2", "testing/good 3",
                                                "testing/good 4", "testing/good 5",
                                                "testing/launch_error 8", "testing/launch_error 7",
                                                "testing/launch_error 6"}));
  EXPECT_EQ(taken[1],
            (std::vector<std::string>{"testing/setup_error 1", "testing/setup_error 2",
                                      "testing/setup_error 3", "testing/launch_error 1",
                                      "testing/launch_error 2", "testing/launch_error 3",
                                      "testing/launch_error 4", "testing/launch_error 5"}));
}

TEST(CaseQueue, ConcurrentLanesGetEveryCaseExactlyOnce) {
  const auto cases = runs_of({"testing/good", "testing/setup_error", "testing/launch_error",
                              "testing/verify_wrong"},
                             {300, 7, 450, 1});
  CaseQueue queue(cases);
  std::map<std::string, int> seen;
  std::mutex mutex;
  std::vector<std::thread> lanes;
  for (int lane = 0; lane < 4; ++lane) {
    lanes.emplace_back([&, lane] {
      CaseQueue::Position at;
      while (const auto c = queue.next(lane, at)) {
        const std::lock_guard<std::mutex> lock(mutex);
        ++seen[key(*c)];
      }
    });
  }
  for (auto& lane : lanes) lane.join();
  ASSERT_EQ(seen.size(), cases.size());
  for (const auto& [name, count] : seen) EXPECT_EQ(count, 1) << name;
}

}  // namespace
}  // namespace kb
