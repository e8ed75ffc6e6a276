#include "store/result_record.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <stdexcept>

namespace kb {
namespace {

// A numeric cell; nothing for an empty or non-numeric one. "nan", "inf" and an overflowing
// "1e999" are no numbers a row can hold (a hand-edited or foreign file): nothing either.
std::optional<double> number(const char* text) {
  if (*text == '\0') return std::nullopt;
  // from_chars (correctly rounded, as strtod) where it reads the whole cell; strtod for what only
  // it reads ("+1", "0x1p3").
  const char* end = text + std::strlen(text);
  double value = 0;
  const auto [stop, fault] = std::from_chars(text, end, value);
  if (fault != std::errc() || stop != end) {
    char* stopped = nullptr;
    value = std::strtod(text, &stopped);
    if (stopped == text || *stopped != '\0') return std::nullopt;
  }
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

namespace {

// The column list's place of a column that identifies the case (`gpu` is none: the reader's label).
std::size_t case_column_index(CaseColumn column) {
  if (column == CaseColumn::gpu) {
    throw std::logic_error(std::string("no cell for the case column '") + column_name(column) +
                           "'");
  }
  for (std::size_t i = 0; i < kResultColumnCount; ++i) {
    if (std::string_view(kResultHeader[i]) == column_name(column)) return i;
  }
  throw std::logic_error(std::string("no results column '") + column_name(column) + "'");
}

// Where a record keeps column i's cell: a Text, an OptionalNumber, the status, or nowhere.
struct Kept {
  Text ResultRecord::*text = nullptr;
  OptionalNumber ResultRecord::*number = nullptr;
  bool status = false;
};
constexpr Kept kept_text(Text ResultRecord::*text) { return {text, nullptr, false}; }
constexpr Kept kept_number(OptionalNumber ResultRecord::*number) { return {nullptr, number, false}; }
#define KBENCH_KEPT_text(column) kept_text(&ResultRecord::column)
#define KBENCH_KEPT_number(column) kept_number(&ResultRecord::column)
#define KBENCH_KEPT_status(column) Kept{nullptr, nullptr, true}
#define KBENCH_KEPT_written(column) Kept{}
#define KBENCH_KEPT(column, kept) KBENCH_KEPT_##kept(column),
constexpr std::array<Kept, kResultColumnCount> kKept = {KBENCH_RESULT_COLUMNS(KBENCH_KEPT)};
#undef KBENCH_KEPT
#undef KBENCH_KEPT_written
#undef KBENCH_KEPT_status
#undef KBENCH_KEPT_number
#undef KBENCH_KEPT_text

}  // namespace

const Text& ResultRecord::cell(CaseColumn column) const {
  const Kept& kept = kKept[case_column_index(column)];
  if (kept.text == nullptr) {
    throw std::logic_error(std::string("the case column '") + column_name(column) +
                           "' is not kept as text");
  }
  return this->*kept.text;
}

ResultRecord record_of_cells(const CellOf& cell, const TextOf& text) {
  ResultRecord r;
  for (std::size_t i = 0; i < kResultColumnCount; ++i) {
    const Kept& kept = kKept[i];
    if (kept.text != nullptr) {
      r.*kept.text = text(i);
    } else if (kept.number != nullptr) {
      r.*kept.number = number(cell(i));
    } else if (kept.status) {
      const std::string_view status = cell(i);
      r.status = parse_status(std::string(status));
      if (!r.status) r.other_status = Text(status);
    }
  }
  return r;
}

ResultRecord record_of(const ResultCells& row) {
  return record_of_cells([&](std::size_t column) { return cell_at(row, column).c_str(); },
                         [&](std::size_t column) { return Text(cell_at(row, column)); });
}

const std::string& case_cell(const ResultCells& row, CaseColumn column) {
  return cell_at(row, case_column_index(column));
}

std::vector<std::string> key_cells(const ResultRecord& record, CaseColumns columns,
                                   const std::string& gpu) {
  std::vector<std::string> cells;
  for (const CaseColumn column : columns.list()) {
    cells.push_back(column == CaseColumn::gpu ? gpu : record.cell(column).str());
  }
  return cells;
}

}  // namespace kb
