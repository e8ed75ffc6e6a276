#include "util/markdown_table.hpp"

#include "util/terminal_text.hpp"

#include <algorithm>
#include <stdexcept>

namespace kb {
namespace {

// Characters as a terminal shows them: UTF-8 continuation bytes take no column ("—", "×").
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
}

}  // namespace

std::string markdown_cell(const std::string& cell) {
  std::string flat = cell;
  std::replace_if(flat.begin(), flat.end(), [](char ch) { return ch == '\n' || ch == '\r'; }, ' ');
  std::string text;
  for (char ch : terminal_text(flat)) {
    if (ch == '|') text += '\\';
    text += ch;
  }
  return text;
}

MarkdownTable::MarkdownTable(std::vector<std::string> header, std::size_t left)
    : header_(std::move(header)), alignment_(header_.size(), Align::right) {
  for (auto& title : header_) title = markdown_cell(title);
  std::fill(alignment_.begin(), alignment_.begin() + std::min(left, alignment_.size()), Align::left);
}

MarkdownTable::MarkdownTable(std::vector<std::string> header, std::vector<Align> alignment)
    : header_(std::move(header)), alignment_(std::move(alignment)) {
  for (auto& title : header_) title = markdown_cell(title);
  if (alignment_.size() != header_.size()) {
    throw std::logic_error("a markdown table needs one alignment per column");
  }
}

void MarkdownTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != header_.size()) {
    throw std::logic_error("a markdown table row needs one cell per column");
  }
  for (auto& cell : cells) cell = markdown_cell(cell);
  rows_.push_back(std::move(cells));
}

std::string MarkdownTable::str() const {
  std::vector<std::size_t> width(header_.size(), 3);
  for (std::size_t c = 0; c < header_.size(); ++c) {
    width[c] = std::max(width[c], display_width(header_[c]));
    for (const auto& row : rows_) width[c] = std::max(width[c], display_width(row[c]));
  }
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string text = "|";
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string padding(width[c] - display_width(cells[c]), ' ');
      text += ' ';
      text += alignment_[c] == Align::right ? padding + cells[c] : cells[c] + padding;
      text += " |";
    }
    return text + "\n";
  };
  std::string text = line(header_) + "|";
  for (std::size_t c = 0; c < header_.size(); ++c) {
    text += alignment_[c] == Align::right ? std::string(width[c] + 1, '-') + ":|"
                                          : std::string(width[c] + 2, '-') + "|";
  }
  text += "\n";
  for (const auto& row : rows_) text += line(row);
  return text;
}

}  // namespace kb
