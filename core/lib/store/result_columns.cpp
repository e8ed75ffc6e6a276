#include "store/result_columns.hpp"

namespace kb {
namespace {

#define KBENCH_MEMBER(column, kept) &ResultCells::column,
constexpr std::array<std::string ResultCells::*, kResultColumnCount> kCells = {
    KBENCH_RESULT_COLUMNS(KBENCH_MEMBER)};
#undef KBENCH_MEMBER

}  // namespace

std::string& cell_at(ResultCells& row, std::size_t i) { return row.*kCells.at(i); }
const std::string& cell_at(const ResultCells& row, std::size_t i) { return row.*kCells.at(i); }

std::vector<std::string> cells_in_order(const ResultCells& row) {
  std::vector<std::string> cells;
  cells.reserve(kResultColumnCount);
  for (const auto cell : kCells) cells.push_back(row.*cell);
  return cells;
}

}  // namespace kb
