#include "util/lane_times.hpp"

#include "util/number_text.hpp"

#include <algorithm>

namespace kb {

std::string lane_times_text(std::vector<LaneTime> lanes) {
  if (lanes.size() < 2) return "";
  std::stable_sort(lanes.begin(), lanes.end(),
                   [](const LaneTime& a, const LaneTime& b) { return a.seconds > b.seconds; });
  std::string text = "; lanes:";
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    text += (i == 0 ? " " : ", ") + lanes[i].lane + " " + fixed_text(lanes[i].seconds, 1) + " s";
  }
  return text;
}

}  // namespace kb
