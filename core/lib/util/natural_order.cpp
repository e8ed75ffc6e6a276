#include "util/natural_order.hpp"

#include <cctype>

namespace kb {

bool natural_less(const std::string& a, const std::string& b) {
  // Keys of several cells mostly differ in one: the others are the same text.
  if (a == b) return false;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i_end = i, j_end = j;
      while (i_end < a.size() && std::isdigit(static_cast<unsigned char>(a[i_end]))) ++i_end;
      while (j_end < b.size() && std::isdigit(static_cast<unsigned char>(b[j_end]))) ++j_end;
      // As whole numbers, without converting them: leading zeros aside, the longer run is the
      // larger number, and runs of one length compare digit by digit.
      std::size_t x = i, y = j;
      while (x + 1 < i_end && a[x] == '0') ++x;
      while (y + 1 < j_end && b[y] == '0') ++y;
      if (i_end - x != j_end - y) return i_end - x < j_end - y;
      const int digits = a.compare(x, i_end - x, b, y, j_end - y);
      if (digits != 0) return digits < 0;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

}  // namespace kb
