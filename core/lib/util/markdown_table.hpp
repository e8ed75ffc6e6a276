// A markdown table padded so its columns line up when read in a terminal, and still valid
// markdown when pasted into a note or a report.
#pragma once

#include <string>
#include <vector>

namespace kb {

// A cell (or a column's title: run ids, plugin and GPU names head the columns of `compare`) that
// stays in its column whatever it holds: a pipe is escaped, a line break becomes a space, and any
// other control character is shown as its escape (terminal_text).
std::string markdown_cell(const std::string& cell);

// Cells and titles pass through markdown_cell.
class MarkdownTable {
 public:
  enum class Align { left, right };
  MarkdownTable(std::vector<std::string> header, std::vector<Align> alignment);
  // The first `left` columns (text) aligned left, the others (numbers) right.
  MarkdownTable(std::vector<std::string> header, std::size_t left);
  void add_row(std::vector<std::string> cells);  // as many cells as the header
  std::string str() const;

 private:
  std::vector<std::string> header_;
  std::vector<Align> alignment_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace kb
