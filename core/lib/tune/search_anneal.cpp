#include "tune/search_strategy.hpp"

#include <cmath>

namespace kb {
namespace {

// A move 10% slower is taken with probability 1/e at first, and almost never at the end. Costs are
// compared relatively, so the schedule suits a 5 us kernel and a 5 ms one alike.
constexpr double kHotTemperature = 0.1;
constexpr double kColdTemperature = 0.001;

}  // namespace

void search_anneal(Search& search, SearchRng& rng) {
  std::optional<std::size_t> at;
  Cost cost;
  std::size_t idle = 0;  // proposals since the last new evaluation
  if (search.done()) return;
  const auto restart = [&] {
    at = search.random_unevaluated(rng);
    if (at) cost = search.evaluate(*at);
    idle = 0;
  };
  restart();
  while (at && !search.done()) {
    const auto& around = search.space().neighbours(*at);
    // Stuck: a bad point, nowhere to go, or a walk among points already evaluated for longer than
    // it takes to try each neighbour a few times.
    if (!cost || around.empty() || idle > 4 * around.size()) {
      restart();
      continue;
    }
    const std::size_t next = around[pick(rng, around.size())];
    idle = search.evaluated(next) ? idle + 1 : 0;
    const Cost there = search.evaluate(next);
    if (!there) continue;
    const double temperature =
        kHotTemperature * std::pow(kColdTemperature / kHotTemperature, search.progress());
    const double worse = (*there - *cost) / *cost;
    if (worse < 0 || uniform(rng) < std::exp(-worse / temperature)) at = next, cost = there;
  }
}

}  // namespace kb
