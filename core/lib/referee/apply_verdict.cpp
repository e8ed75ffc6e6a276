#include "referee/apply_verdict.hpp"

#include <utility>
#include <vector>

namespace kb {

void apply_verdict(const RefereeVerdict& v, bool checked_samples, CaseOutcome& o) {
  if (v.bytes) o.bytes = v.bytes;
  if (v.flops) o.flops = v.flops;
  if (v.figures) o.verification = v.figures;
  if (v.failure_status != KB_OK) {
    // A crash, a timeout, an error of the strategy's own stand: the referee's failure overrules
    // only what claims to be a verdict.
    if (o.status == CaseStatus::ok || o.status == CaseStatus::verify_failed) {
      o.status = status_of(v.failure_status);
      o.message = v.failure;
    }
    return;
  }
  if (o.status != CaseStatus::ok) return;
  std::vector<std::pair<const char*, int>> required = {{checks::kFreshInputs, 1}};
  if (checked_samples) required.emplace_back(checks::kTimedLaunch, 1);
  if (v.inputs > 0) {
    required.emplace_back(checks::kInputsUnchanged, 2);
    required.emplace_back(checks::kUnpoisonedLaunch, 1);
  }
  for (const auto& [check, times] : required) {
    if (v.times(check) < times) {
      o.status = CaseStatus::error;
      o.message = std::string("the referee passed the '") + check + "' check " +
                  std::to_string(v.times(check)) + " times (at least " + std::to_string(times) +
                  " make a verdict): the worker's answer alone makes no row ok";
      return;
    }
  }
}

}  // namespace kb
