// Bad input from the user (a malformed size, an unknown plugin, a refused CSV): reported as one
// line naming the input, with a non-zero exit, never as a crash.
#pragma once

#include <stdexcept>
#include <string>

namespace kb {

class InputError : public std::runtime_error {
 public:
  // A NUL byte in a value it names is written as "\\x00", as terminal_text writes a control
  // character: what() is read to its first NUL, which would cut the line there.
  explicit InputError(const std::string& what) : std::runtime_error(visible_nul(what)) {}

 private:
  static std::string visible_nul(std::string text) {
    for (std::size_t at = 0; (at = text.find('\0', at)) != std::string::npos;) {
      text.replace(at, 1, "\\x00");
    }
    return text;
  }
};

}  // namespace kb
