// One value for a case measured on several cards of one GPU model: the median over each card's
// latest row, with the spread between the cards kept as part of the noise. Cards of one model
// differ (clocks, memory, cooling, the lease's neighbours); the median does not let one odd card
// speak for the model, and a difference between models smaller than that spread is no finding.
#pragma once

#include "store/result_record.hpp"
#include "store/rows_view.hpp"

#include <cstddef>
#include <vector>

namespace kb {

// Whether rows[candidate] replaces rows[held], an earlier row of the same case on the same card:
// the latest timestamp wins, and among equal timestamps the one further down the files (rows are
// appended).
bool is_later(const RowsView& rows, std::size_t candidate, std::size_t held);

struct CardValue {
  double value;  // the metric of the card's latest row
  double noise;  // that row's relative half-width of the 95% CI of the median (inf: unbounded)
};

struct Pooled {
  double value = 0;   // the median over the cards
  double spread = 0;  // (max - min) / value over the cards; 0 for one card
  double noise = 0;   // the larger of the cards' median noise and half the spread
  std::size_t cards = 0;
};

// Over at least one card.
Pooled pool(std::vector<CardValue> cards);

}  // namespace kb
