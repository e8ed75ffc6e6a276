// Numbers as text, in one place, so a value reads the same in a row, a record, a message and a
// table. Values are formatted only where they are written; everywhere else they stay doubles.
#pragma once

#include <string>

namespace kb {

// "%.*g": measurements to six significant digits by default; nan, inf and -inf spelled out.
std::string significant_text(double value, int digits = 6);
// Seventeen significant digits: strtod gives back the very same double (records, config values).
std::string exact_text(double value);
// "%.*f"; "" for a value that is not finite (an empty cell, not a number that is not one).
std::string fixed_text(double value, int decimals);
// 100 * fraction with one decimal and a percent sign: "12.3%".
std::string percent_text(double fraction);
// One double through a printf format of the caller's ("%.2f", "%.3g x"): for table cells whose
// format is data.
std::string formatted_text(const char* format, double value);

}  // namespace kb
