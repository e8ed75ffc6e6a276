// A child's standard error, shown on kbench's. What a plugin prints there (its debugging, a
// library's warning) reaches the terminal as kbench's own lines do, through terminal_text: an
// escape sequence, a bell or a carriage return is written as its escape ("\x1b", "\x07", "\r"),
// so that it cannot recolour, rewrite or clear what kbench said, nor pass for a line of kbench's.
#pragma once

#include <thread>

namespace kb {

class StderrRelay {
 public:
  // Shows what arrives on `from` (the read end of the child's standard error, which the relay
  // then owns) on kbench's standard error, whole lines at a time, from a thread of its own. A
  // ShortOfResources when it cannot start.
  explicit StderrRelay(int from);
  // Shows what is left (a last line without its line feed too) and stops, even while a process
  // the child left behind still holds the other end.
  ~StderrRelay();
  StderrRelay(const StderrRelay&) = delete;
  StderrRelay& operator=(const StderrRelay&) = delete;

 private:
  void relay();
  int from_;
  int stop_;  // an eventfd, readable once the relay is to stop
  std::thread thread_;
};

}  // namespace kb
