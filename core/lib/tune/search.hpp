// One search of a space: what a strategy may spend, what it has evaluated, and the best so far.
// The strategies (search_strategy.hpp) only choose which point to evaluate next; a Search counts
// the evaluations, keeps each cost so a point revisited costs nothing, and says when to stop. The
// objective behind it is the real thing (a case run through a worker, `kbench tune`) or a lookup
// in measured rows (`kbench tune --simulate`): the strategies cannot tell.
#pragma once

#include "tune/search_space.hpp"
#include "util/seconds_since.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace kb {

// mt19937_64's output is fixed by the C++ standard (the distributions are not): with the helpers
// below, one seed gives one search on every platform.
using SearchRng = std::mt19937_64;
std::size_t pick(SearchRng& rng, std::size_t count);  // uniform in [0, count)
double uniform(SearchRng& rng);                       // uniform in [0, 1)
// Fisher-Yates with these draws: std::shuffle's sequence differs between libraries.
void shuffle(std::vector<std::size_t>& items, SearchRng& rng);
// A generator for one search: from the user's seed and what is searched (a case's description),
// so each shape of one tune draws its own numbers, the same in a resumed tune.
SearchRng search_rng(std::uint64_t seed, const std::string& what);

struct SearchLimits {
  std::size_t evaluations = 0;  // at most this many configurations evaluated; 0: no limit
  double seconds = 0;           // no evaluation started after this long; 0: no limit
};

// The cost of a configuration: lower is better (a median in microseconds); nothing for a bad
// configuration (it failed, did not verify, was refused).
using Cost = std::optional<double>;

class Search {
 public:
  using Objective = std::function<Cost(std::size_t point)>;

  Search(const SearchSpace& space, Objective objective, SearchLimits limits);

  const SearchSpace& space() const { return space_; }
  // The limits are spent, or every point is evaluated.
  bool done() const;
  // The share of the limits spent, 0 to 1 (the larger of evaluations and time; with no limit, of
  // the space): annealing cools with it.
  double progress() const;

  // The point's cost: evaluated the first time (which counts), remembered after. Evaluating a new
  // point once done() is a logic error.
  Cost evaluate(std::size_t point);
  bool evaluated(std::size_t point) const { return costs_[point].has_value(); }
  // A point not evaluated yet, uniformly; nothing when every point is.
  std::optional<std::size_t> random_unevaluated(SearchRng& rng) const;

  struct Evaluation {
    std::size_t point;
    Cost cost;
  };
  const std::vector<Evaluation>& trace() const { return trace_; }  // in evaluation order
  // The index in trace() of the first evaluation of the best cost; nothing while none is good.
  std::optional<std::size_t> best() const { return best_; }

 private:
  const SearchSpace& space_;
  Objective objective_;
  SearchLimits limits_;
  SteadyClock::time_point start_ = SteadyClock::now();
  std::vector<std::optional<Cost>> costs_;  // per point: empty until evaluated
  std::vector<Evaluation> trace_;
  std::optional<std::size_t> best_;
};

}  // namespace kb
