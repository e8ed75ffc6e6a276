// CSV for other programs (`compare --format csv`: spreadsheets, pandas, R), as RFC 4180 has it:
// a cell holding a comma, a quote or a line break is quoted, a quote doubled, and nothing else is
// changed — no backslash escapes, which are kbench's own results files' convention (csv.hpp), not
// the standard's. A text cell a spreadsheet would run as a formula (starting with =, +, -, @, a
// tab or a carriage return; OWASP's "CSV injection") is written after a single quote, as a
// spreadsheet's own "text" mark; numbers, negative ones included, stay as they are.
#pragma once

#include <string>
#include <vector>

namespace kb {

std::string export_csv_cell(const std::string& value);
std::string export_csv_line(const std::vector<std::string>& cells);  // cells joined, with '\n'

}  // namespace kb
