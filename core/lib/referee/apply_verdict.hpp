// The worker's answer held to its referee's verdict. What the worker reports (its samples, its
// clocks) is the strategy's process speaking; what makes a row `ok` is the referee's word: a check
// that failed there fails the row whatever the worker says, and a row whose worker says `ok` must
// rest on the checks the referee itself ran. The work, and the figures of the check, are the
// referee's count, never the worker's.
#pragma once

#include "case/case_outcome.hpp"
#include "referee/referee_messages.hpp"

namespace kb {

// `checked_samples`: the timing loop checks some timed launches (every mode but --profile).
void apply_verdict(const RefereeVerdict& verdict, bool checked_samples, CaseOutcome& outcome);

}  // namespace kb
