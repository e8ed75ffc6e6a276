#include "util/csv.hpp"

#include "util/plugin_text.hpp"

namespace kb {

std::string csv_cell(const std::string& raw) {
  const std::string value = clean_text(raw);
  std::string escaped;
  bool needs_quotes = false;
  for (char ch : value) {
    switch (ch) {
      case '\\': escaped += "\\\\"; break;
      case '\n': escaped += "\\n"; break;
      case '\r': escaped += "\\r"; break;
      case '"': escaped += "\"\""; needs_quotes = true; break;
      case ',': escaped += ch; needs_quotes = true; break;
      default: escaped += ch;
    }
  }
  // libfccp trims spaces and tabs around unquoted cells.
  if (!value.empty() && (value.front() == ' ' || value.back() == ' ' || value.front() == '\t' ||
                         value.back() == '\t')) {
    needs_quotes = true;
  }
  return needs_quotes ? "\"" + escaped + "\"" : escaped;
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) line += ',';
    line += csv_cell(cells[i]);
  }
  line += '\n';
  return line;
}

std::string csv_unescape(const std::string& cell) {
  std::string value;
  for (std::size_t i = 0; i < cell.size(); ++i) {
    if (cell[i] == '\\' && i + 1 < cell.size()) {
      const char next = cell[++i];
      value += next == 'n' ? '\n' : next == 'r' ? '\r' : next;
    } else {
      value += cell[i];
    }
  }
  return value;
}

}  // namespace kb
