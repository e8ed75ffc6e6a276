#include "util/export_csv.hpp"

#include "util/plugin_text.hpp"

#include <cstdlib>

namespace kb {
namespace {

bool number(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

// A lone "-" (no block, say) is no formula.
bool formula(const std::string& text) {
  return text.size() > 1 && std::string("=+-@\t\r").find(text.front()) != std::string::npos &&
         !number(text);
}

}  // namespace

std::string export_csv_cell(const std::string& raw) {
  std::string value = clean_text(raw);
  if (formula(value)) value = "'" + value;
  if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string quoted = "\"";
  for (char ch : value) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

std::string export_csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + export_csv_cell(cells[i]);
  return line + "\n";
}

}  // namespace kb
