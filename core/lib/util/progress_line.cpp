#include "util/progress_line.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace kb {
namespace {

double quiet_seconds() {
  const char* given = std::getenv("KBENCH_PROGRESS_AFTER_S");
  return given != nullptr ? std::atof(given) : 2.0;
}

// Straight to standard error: std::cerr shows control characters as escapes
// (util/terminal_text.hpp), and this line moves in place with them.
void say_in_place(const std::string& line) {
  std::fputs(("\r\033[K" + line).c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace

ProgressLine::ProgressLine()
    : terminal_(isatty(2) != 0), quiet_seconds_(quiet_seconds()),
      started_(std::chrono::steady_clock::now()), said_(started_) {}

ProgressLine::~ProgressLine() {
  if (shown_) say_in_place("");
}

void ProgressLine::update(const std::function<std::string()>& line) {
  if (!terminal_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - started_ < std::chrono::duration<double>(quiet_seconds_) ||
      (shown_ && now - said_ < std::chrono::seconds(1))) {
    return;
  }
  said_ = now;
  shown_ = true;
  std::cerr << std::flush;  // what kbench said before stays before
  say_in_place(line());
}

}  // namespace kb
