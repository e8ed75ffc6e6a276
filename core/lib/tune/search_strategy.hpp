// How `kbench tune` picks the configurations to measure. A strategy asks its Search (search.hpp)
// for costs until the search is done; it never repeats an evaluation (the Search remembers), and
// given the same seed and the same costs it evaluates the same points in the same order.
#pragma once

#include "tune/search.hpp"

#include <array>
#include <string>

namespace kb {

// Every point, in the grid's order (SearchSpace numbering).
void search_exhaustive(Search& search, SearchRng& rng);
// Points drawn at random without replacement.
void search_random(Search& search, SearchRng& rng);
// Hill climbing with restarts: from a random point not yet evaluated, move to the first neighbour
// (in random order) that is faster; at a point none of whose neighbours is faster, restart.
void search_greedy(Search& search, SearchRng& rng);
// Simulated annealing: from a random point, try a random neighbour; move when it is faster, or
// when slower by a relative d with probability exp(-d / T), T cooling from 0.1 to 0.001 as the
// search's limits are spent; restart at a random point not yet evaluated when stuck among
// points already evaluated.
void search_anneal(Search& search, SearchRng& rng);

struct SearchStrategy {
  const char* name;
  void (*run)(Search&, SearchRng&);
};

inline constexpr std::array<SearchStrategy, 4> kSearchStrategies = {{
    {"exhaustive", search_exhaustive},
    {"random", search_random},
    {"greedy", search_greedy},
    {"anneal", search_anneal},
}};

// The strategy of that name; an InputError names the strategies there are.
const SearchStrategy& find_strategy(const std::string& name);

}  // namespace kb
