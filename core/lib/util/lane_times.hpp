// Where a run's wall time went, lane by lane: a run of several lanes (the host's plugins, each
// device) lasts as long as its slowest, and the closing `time:` line names them, slowest first.
#pragma once

#include <string>
#include <vector>

namespace kb {

struct LaneTime {
  std::string lane;  // "host", "device 0"
  double seconds = 0;
};

// "; lanes: host 70.4 s, device 0 53.0 s", slowest first (ties in the order given); "" for one
// lane or none, whose time is the run's.
std::string lane_times_text(std::vector<LaneTime> lanes);

}  // namespace kb
