#include "plan/case_queue.hpp"

#include <algorithm>

namespace kb {

CaseQueue::CaseQueue(const std::vector<PlannedCase>& cases) {
  for (const auto& c : cases) {
    if (runs_.empty() || runs_.back().front().plugin != c.plugin ||
        runs_.back().front().repetition != c.repetition) {
      runs_.emplace_back();
    }
    runs_.back().push_back(c);
  }
}

std::optional<PlannedCase> CaseQueue::next(std::optional<int> device, Position& at) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (at.run == Position::kNone || runs_[at.run].empty()) {
    if (next_unstarted_ < runs_.size()) {
      at = {next_unstarted_++, false};
    } else {
      const auto longest = std::max_element(
          runs_.begin(), runs_.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
      if (longest == runs_.end() || longest->empty()) return std::nullopt;
      at = {static_cast<std::size_t>(longest - runs_.begin()), true};
    }
  }
  auto& cases = runs_[at.run];
  PlannedCase c = at.from_back ? cases.back() : cases.front();
  if (at.from_back) {
    cases.pop_back();
  } else {
    cases.pop_front();
  }
  if (device) c.request.device = *device;
  return c;
}

}  // namespace kb
