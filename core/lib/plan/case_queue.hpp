// The cases of a sweep, handed out to the lanes (one per device, or the host) that run them.
// One lane takes them in plan order. With several lanes (--split) each lane keeps to one plugin's
// cases while they last, so it starts one worker per plugin and its consecutive cases reuse their
// host inputs; a lane that runs dry takes the next plugin no lane has started, and at the end
// helps with the plugin that has the most cases left, from its far end. A device that drew short
// cases takes more of them, and all lanes finish together.
#pragma once

#include "plan/plan.hpp"

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

namespace kb {

class CaseQueue {
 public:
  explicit CaseQueue(const std::vector<PlannedCase>& cases);

  // Where a lane takes its cases from; each lane keeps its own.
  struct Position {
    static constexpr std::size_t kNone = ~std::size_t{0};
    std::size_t run = kNone;
    bool from_back = false;
  };

  // The lane's next case, to run on `device` when given; nothing once every case is handed out.
  // Safe to call from several lanes at once.
  std::optional<PlannedCase> next(std::optional<int> device, Position& at);

 private:
  std::vector<std::deque<PlannedCase>> runs_;  // consecutive cases of one plugin and repetition
  std::size_t next_unstarted_ = 0;
  std::mutex mutex_;
};

}  // namespace kb
