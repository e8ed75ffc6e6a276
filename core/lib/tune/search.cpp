#include "tune/search.hpp"

#include <algorithm>
#include <utility>
#include <stdexcept>

namespace kb {

std::size_t pick(SearchRng& rng, std::size_t count) {
  // The modulo's bias is below 2^-40 for any space a tune can evaluate.
  return static_cast<std::size_t>(rng() % count);
}

double uniform(SearchRng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

void shuffle(std::vector<std::size_t>& items, SearchRng& rng) {
  for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[pick(rng, i)]);
}

SearchRng search_rng(std::uint64_t seed, const std::string& what) {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (unsigned char ch : what) hash = (hash ^ ch) * 1099511628211ull;
  std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                         static_cast<std::uint32_t>(hash), static_cast<std::uint32_t>(hash >> 32)};
  return SearchRng(sequence);
}

Search::Search(const SearchSpace& space, Objective objective, SearchLimits limits)
    : space_(space), objective_(std::move(objective)), limits_(limits), costs_(space.size()) {}

bool Search::done() const {
  if (trace_.size() == space_.size()) return true;
  if (limits_.evaluations > 0 && trace_.size() >= limits_.evaluations) return true;
  return limits_.seconds > 0 &&
         seconds_since(start_) >=
             limits_.seconds;
}

double Search::progress() const {
  const double of_space = static_cast<double>(trace_.size()) / static_cast<double>(space_.size());
  double spent = limits_.evaluations > 0 || limits_.seconds > 0 ? 0 : of_space;
  if (limits_.evaluations > 0) {
    spent = std::max(spent, static_cast<double>(trace_.size()) / limits_.evaluations);
  }
  if (limits_.seconds > 0) {
    const double elapsed =
        seconds_since(start_);
    spent = std::max(spent, elapsed / limits_.seconds);
  }
  return std::min(spent, 1.0);
}

Cost Search::evaluate(std::size_t point) {
  if (costs_[point]) return *costs_[point];
  if (done()) throw std::logic_error("Search::evaluate: a new point after the search is done");
  const Cost cost = objective_(point);
  costs_[point] = cost;
  trace_.push_back({point, cost});
  if (cost && (!best_ || *cost < *trace_[*best_].cost)) best_ = trace_.size() - 1;
  return cost;
}

std::optional<std::size_t> Search::random_unevaluated(SearchRng& rng) const {
  const std::size_t left = space_.size() - trace_.size();
  if (left == 0) return std::nullopt;
  std::size_t skip = pick(rng, left);
  for (std::size_t p = 0; p < costs_.size(); ++p) {
    if (!costs_[p] && skip-- == 0) return p;
  }
  return std::nullopt;
}

}  // namespace kb
