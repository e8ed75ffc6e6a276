#include "case/case_outcome.hpp"

#include <utility>

namespace kb {

const char* timing_name(TimingMethod method) {
  for (const auto& [value, name] : kTimingMethods) {
    if (value == method) return name;
  }
  return "plain";
}

CaseOutcome CaseOutcome::without_run(CaseStatus status, std::string message) {
  CaseOutcome outcome;
  outcome.status = status;
  outcome.message = std::move(message);
  return outcome;
}

}  // namespace kb
