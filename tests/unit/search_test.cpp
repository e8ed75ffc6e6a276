// The search spaces of `kbench tune` and its strategies, on the tuning tests' cost model
// (tests/support/tuning_model.hpp): what a space holds and which points are neighbours, and that
// each strategy spends at most its budget, never evaluates a point twice, and takes the same path
// for the same seed.
#include "support/tuning_model.hpp"
#include "tune/search.hpp"
#include "tune/search_space.hpp"
#include "tune/search_strategy.hpp"
#include "util/input_error.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace {

namespace model = kbtest::tuning;

// The model's accepted configurations, as the cells of their rows, in a scrambled order.
std::vector<kb::Configuration> model_configurations() {
  std::vector<kb::Configuration> configurations;
  for (int v = 1; v >= 0; --v) {
    for (int u = 3; u >= 0; --u) {
      for (int b = 0; b < 5; ++b) {
        if (model::refused(b, u)) continue;
        configurations.push_back(
            {model::kBlocks[b], "unroll=" + std::to_string(model::kUnrolls[u]) +
                                    ";vec=" + std::to_string(model::kVecs[v])});
      }
    }
  }
  return configurations;
}

model::Point point_of(const kb::SearchSpace& space, std::size_t point) {
  const kb::Configuration& c = space.configuration(point);
  return model::point_of(c.block, c.params);
}

kb::Search::Objective model_objective(const kb::SearchSpace& space, long long n) {
  return [&space, n](std::size_t point) -> kb::Cost {
    const model::Point p = point_of(space, point);
    if (model::broken(p.b, p.u, p.v)) return std::nullopt;
    return model::cost_us(n, p);
  };
}

std::vector<std::size_t> path(const kb::Search& search) {
  std::vector<std::size_t> points;
  for (const auto& e : search.trace()) points.push_back(e.point);
  return points;
}

TEST(SearchSpace, AxesOrderBlocksByThreadsAndValuesNaturally) {
  const kb::SearchSpace space(model_configurations());
  ASSERT_EQ(space.axes().size(), 3u);
  EXPECT_EQ(space.axes()[0].name, "block");
  EXPECT_EQ(space.axes()[0].values,
            (std::vector<std::string>{"8x8", "16x8", "16x16", "32x8", "32x16"}));
  EXPECT_EQ(space.axes()[1].name, "unroll");
  EXPECT_EQ(space.axes()[1].values, (std::vector<std::string>{"1", "2", "4", "8"}));
  EXPECT_EQ(space.axes()[2].values, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(space.size(), static_cast<std::size_t>(model::kConfigurations - 2));
  // Points follow the grid's order: the first is the smallest block at the first values.
  EXPECT_EQ(space.describe(0), "block=8x8 unroll=1 vec=1");
  EXPECT_EQ(space.describe(space.size() - 1), "block=32x16 unroll=4 vec=2");
  const auto found = space.find({"32x8", "unroll=2;vec=2"});
  ASSERT_TRUE(found);
  EXPECT_EQ(space.describe(*found), "block=32x8 unroll=2 vec=2");
  EXPECT_FALSE(space.find({"32x16", "unroll=8;vec=1"})) << "refused by the plugin: not a point";
}

TEST(SearchSpace, NeighboursAreOneStepAlongOneAxisSteppingOverRefusedPoints) {
  const kb::SearchSpace space(model_configurations());
  const auto describe_neighbours = [&](const kb::Configuration& c) {
    std::set<std::string> names;
    for (std::size_t n : space.neighbours(*space.find(c))) names.insert(space.describe(n));
    return names;
  };
  EXPECT_EQ(describe_neighbours({"16x16", "unroll=2;vec=1"}),
            (std::set<std::string>{"block=16x8 unroll=2 vec=1", "block=32x8 unroll=2 vec=1",
                                   "block=16x16 unroll=1 vec=1", "block=16x16 unroll=4 vec=1",
                                   "block=16x16 unroll=2 vec=2"}));
  // 32x16 with unroll 8 is refused: from 32x16 unroll 4 there is no step up the unroll axis, and
  // from 32x8 unroll 8 none up the block axis.
  EXPECT_EQ(describe_neighbours({"32x16", "unroll=4;vec=1"}),
            (std::set<std::string>{"block=32x8 unroll=4 vec=1", "block=32x16 unroll=2 vec=1",
                                   "block=32x16 unroll=4 vec=2"}));
  EXPECT_EQ(describe_neighbours({"32x8", "unroll=8;vec=2"}),
            (std::set<std::string>{"block=16x16 unroll=8 vec=2", "block=32x8 unroll=4 vec=2",
                                   "block=32x8 unroll=8 vec=1"}));
}

TEST(SearchSpace, ARefusedValueInTheMiddleOfAnAxisIsSteppedOver) {
  // The plugin takes unroll 1 and 4 with 16x16, but not 2: 1 and 4 are neighbours there.
  const kb::SearchSpace space({{"16x16", "unroll=1"},
                               {"16x16", "unroll=4"},
                               {"32x8", "unroll=1"},
                               {"32x8", "unroll=2"},
                               {"32x8", "unroll=4"}});
  EXPECT_EQ(space.axes()[1].values, (std::vector<std::string>{"1", "2", "4"}));
  std::set<std::string> names;
  for (std::size_t n : space.neighbours(*space.find({"16x16", "unroll=1"}))) {
    names.insert(space.describe(n));
  }
  EXPECT_EQ(names, (std::set<std::string>{"block=16x16 unroll=4", "block=32x8 unroll=1"}));
}

TEST(SearchSpace, APluginWithoutParametersHasTheBlockAxisAlone) {
  const kb::SearchSpace space({{"32x8", ""}, {"16x16", ""}, {"32x32", ""}, {"16x16", ""}});
  ASSERT_EQ(space.axes().size(), 1u);
  EXPECT_EQ(space.axes()[0].values, (std::vector<std::string>{"16x16", "32x8", "32x32"}));
  EXPECT_EQ(space.size(), 3u);
  EXPECT_EQ(space.neighbours(1).size(), 2u);
}

TEST(SearchSpace, ConfigurationsNamingOtherParametersAreRefused) {
  EXPECT_THROW(kb::SearchSpace({{"32x8", "tile=1"}, {"32x8", "vec=1"}}), kb::InputError);
  EXPECT_THROW(kb::SearchSpace({{"32x8", "tile=1;vec=1"}, {"32x8", "vec=1;tile=2"}}),
               kb::InputError);
  EXPECT_THROW(kb::SearchSpace({kb::Configuration{"32x8", "tile"}}), kb::InputError);
}

TEST(Strategies, EachSpendsAtMostItsBudgetAndNeverEvaluatesAPointTwice) {
  const kb::SearchSpace space(model_configurations());
  for (const auto& strategy : kb::kSearchStrategies) {
    for (std::size_t budget : {1u, 7u, 0u}) {
      std::size_t calls = 0;
      const auto objective = model_objective(space, 1000);
      kb::Search search(space, [&](std::size_t p) { return ++calls, objective(p); }, {budget, 0});
      kb::SearchRng rng = kb::search_rng(3, "model");
      strategy.run(search, rng);
      const std::size_t expected = budget == 0 ? space.size() : budget;
      EXPECT_EQ(search.trace().size(), expected) << strategy.name << " budget " << budget;
      EXPECT_EQ(calls, expected) << strategy.name;
      const auto points = path(search);
      EXPECT_EQ(std::set<std::size_t>(points.begin(), points.end()).size(), points.size())
          << strategy.name;
      if (budget == 0) {
        // Unlimited, every strategy ends having seen the optimum.
        ASSERT_TRUE(search.best());
        EXPECT_DOUBLE_EQ(*search.trace()[*search.best()].cost, 100.0) << strategy.name;
      }
    }
  }
}

TEST(Strategies, TheSameSeedTakesTheSamePathAndAnotherSeedAnother) {
  const kb::SearchSpace space(model_configurations());
  for (const auto& strategy : kb::kSearchStrategies) {
    std::vector<std::vector<std::size_t>> paths;
    for (std::uint64_t seed : {5u, 5u, 6u}) {
      kb::Search search(space, model_objective(space, 2000), {12, 0});
      kb::SearchRng rng = kb::search_rng(seed, "tuning/model int32 2000");
      strategy.run(search, rng);
      paths.push_back(path(search));
    }
    EXPECT_EQ(paths[0], paths[1]) << strategy.name;
    if (std::string(strategy.name) != "exhaustive") EXPECT_NE(paths[0], paths[2]) << strategy.name;
  }
}

TEST(Strategies, ExhaustiveGoesInGridOrder) {
  const kb::SearchSpace space(model_configurations());
  kb::Search exhaustive(space, model_objective(space, 1000), {5, 0});
  kb::SearchRng rng = kb::search_rng(1, "x");
  kb::search_exhaustive(exhaustive, rng);
  EXPECT_EQ(path(exhaustive), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(Strategies, ABadConfigurationIsNeverTheBest) {
  // Only the broken configuration and one other: the search ends with the other as the best.
  const kb::SearchSpace space({{"8x8", "unroll=1;vec=2"}, {"16x8", "unroll=1;vec=2"}});
  for (const auto& strategy : kb::kSearchStrategies) {
    kb::Search search(space, [](std::size_t p) { return p == 0 ? kb::Cost{} : kb::Cost{7.0}; },
                      {0, 0});
    kb::SearchRng rng = kb::search_rng(2, "x");
    strategy.run(search, rng);
    ASSERT_TRUE(search.best()) << strategy.name;
    EXPECT_EQ(search.trace()[*search.best()].point, 1u) << strategy.name;
  }
}

}  // namespace
