#include "store/result_schema.hpp"

#include <stdexcept>

namespace kb {

std::size_t column_index(std::string_view column) {
  for (std::size_t i = 0; i < kResultColumnCount; ++i) {
    if (column == kResultColumns[i]) return i;
  }
  throw std::logic_error("unknown result column '" + std::string(column) + "'");
}

ResultRow::ResultRow(std::vector<std::string> cells) : cells_(std::move(cells)) {
  if (cells_.size() != kResultColumnCount) {
    throw std::logic_error("a result row has " + std::to_string(kResultColumnCount) + " cells");
  }
}

void ResultRow::set(std::string_view column, std::string value) {
  cells_[column_index(column)] = std::move(value);
}

const std::string& ResultRow::get(std::string_view column) const {
  return cells_[column_index(column)];
}

}  // namespace kb
