// One CSV row per physical line: RFC 4180 quoting for commas and quotes, and line breaks inside
// a cell written as the two characters \n (a backslash as \\), so a row never spans lines —
// libfccp reads line by line, and `grep`, `wc -l` and a killed writer all stay row-exact. Every
// cell is valid UTF-8 without control characters (clean_text), whatever a plugin wrote.
#pragma once

#include <string>
#include <vector>

namespace kb {

std::string csv_cell(const std::string& value);                // cleaned, escaped, quoted if needed
std::string csv_line(const std::vector<std::string>& cells);   // cells joined, with '\n'
std::string csv_unescape(const std::string& cell);             // inverse of the \n, \\ escaping

}  // namespace kb
