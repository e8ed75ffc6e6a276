#include "analysis/card_pool.hpp"

#include "util/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace kb {
bool is_later(const RowsView& rows, std::size_t candidate, std::size_t held) {
  const Text& a = rows[candidate].timestamp_utc;
  const Text& b = rows[held].timestamp_utc;
  if (a == b) return candidate > held;  // one text, one handle
  return a.str() > b.str();
}

Pooled pool(std::vector<CardValue> cards) {
  std::vector<double> values, noises;
  for (const auto& card : cards) {
    values.push_back(card.value);
    noises.push_back(card.noise);
  }
  Pooled pooled;
  pooled.cards = cards.size();
  pooled.value = summarize(values).median;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  // A counter of 0 on every card (no bank conflicts) has no spread.
  pooled.spread = pooled.value != 0 ? (*high - *low) / pooled.value : (*high > *low ? INFINITY : 0.0);
  // Half the spread: the pooled value sits between the cards, as a median sits inside its
  // confidence interval.
  pooled.noise = std::max(summarize(noises).median, pooled.spread / 2);
  return pooled;
}

}  // namespace kb
