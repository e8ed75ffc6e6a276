// Bad input from the user (a malformed size, an unknown plugin, a refused CSV): reported as one
// line naming the input, with a non-zero exit, never as a crash.
#pragma once

#include <stdexcept>
#include <string>

namespace kb {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kb
