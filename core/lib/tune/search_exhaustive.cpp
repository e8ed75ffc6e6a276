#include "tune/search_strategy.hpp"

namespace kb {

void search_exhaustive(Search& search, SearchRng&) {
  for (std::size_t point = 0; point < search.space().size() && !search.done(); ++point) {
    search.evaluate(point);
  }
}

}  // namespace kb
