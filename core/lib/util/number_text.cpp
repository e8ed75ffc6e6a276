#include "util/number_text.hpp"

#include <cmath>
#include <cstdio>

namespace kb {

std::string formatted_text(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string significant_text(double value, int digits) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

std::string exact_text(double value) { return significant_text(value, 17); }

std::string fixed_text(double value, int decimals) {
  if (!std::isfinite(value)) return "";
  char text[400];  // 1e308 in full
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string percent_text(double fraction) { return formatted_text("%.1f%%", 100 * fraction); }

}  // namespace kb
