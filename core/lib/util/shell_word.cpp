#include "util/shell_word.hpp"

namespace kb {

std::string shell_word(const std::string& text) {
  if (!text.empty() &&
      text.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=,:^+") ==
          std::string::npos) {
    return text;
  }
  std::string quoted = "'";
  for (char ch : text) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

}  // namespace kb
