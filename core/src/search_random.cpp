#include "search_strategy.hpp"

#include <numeric>
#include <utility>
#include <vector>

namespace kb {

void search_random(Search& search, SearchRng& rng) {
  std::vector<std::size_t> order(search.space().size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Fisher-Yates with our own draws: std::shuffle's sequence differs between libraries.
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[pick(rng, i)]);
  for (std::size_t point : order) {
    if (search.done()) return;
    search.evaluate(point);
  }
}

}  // namespace kb
