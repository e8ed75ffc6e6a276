#include "tune/search_strategy.hpp"

#include <numeric>
#include <vector>

namespace kb {

void search_random(Search& search, SearchRng& rng) {
  std::vector<std::size_t> order(search.space().size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  shuffle(order, rng);
  for (std::size_t point : order) {
    if (search.done()) return;
    search.evaluate(point);
  }
}

}  // namespace kb
