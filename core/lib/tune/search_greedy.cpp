#include "tune/search_strategy.hpp"

#include <vector>

namespace kb {

void search_greedy(Search& search, SearchRng& rng) {
  while (!search.done()) {
    const auto start = search.random_unevaluated(rng);
    if (!start) return;
    std::size_t at = *start;
    Cost cost = search.evaluate(at);
    // A bad start has nowhere to climb from: restart. Each climb ends, as every move is faster.
    while (cost && !search.done()) {
      std::vector<std::size_t> around = search.space().neighbours(at);
      shuffle(around, rng);
      bool moved = false;
      for (std::size_t next : around) {
        if (search.done()) break;
        const Cost there = search.evaluate(next);
        if (there && *there < *cost) {
          at = next, cost = there, moved = true;
          break;
        }
      }
      if (!moved) break;
    }
  }
}

}  // namespace kb
