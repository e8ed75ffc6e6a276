// What a long step of a command has done so far, for a person at a terminal: one line on standard
// error that moves in place, said at most once a second and only after the step has taken two
// seconds (KBENCH_PROGRESS_AFTER_S=N: after N, for a test on a pseudo-terminal), cleared when the
// step ends. Nothing at all when standard error is not a terminal.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace kb {

class ProgressLine {
 public:
  ProgressLine();
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // `line` is asked for only when it is shown. It is written as it is: escape what it quotes.
  void update(const std::function<std::string()>& line);

 private:
  bool terminal_;
  double quiet_seconds_;
  std::chrono::steady_clock::time_point started_, said_;
  bool shown_ = false;
};

}  // namespace kb
