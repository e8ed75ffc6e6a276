// What a case's row says of it beyond what was measured, decided in one place: its status (an `ok`
// the plausibility checks refuse becomes `implausible`), its message with the judge's notes, its
// throughput, and the roof it is held to with its fraction of it. A pure function of the planned
// case, the worker's outcome and the device's facts.
#pragma once

#include "case/case_outcome.hpp"
#include "case/case_status.hpp"
#include "device/bandwidth.hpp"
#include "device/device_info.hpp"
#include "plan/plan.hpp"

#include <optional>
#include <string>

namespace kb {

struct Judgement {
  CaseStatus status = CaseStatus::error;
  std::string message;
  // Of the median; given where the case has a median and counts bytes (or flops), and energy.
  std::optional<double> gbps, gflops, gb_per_j, gflop_per_j;
  // The roof the case is held to ("copy", or a math: "fp32", "bf16", ...) and the fraction of it
  // the median reached; none for a host plugin, or where the roof is unknown.
  std::string peak;
  std::optional<double> fraction_of_peak;
};

// `device` is null for a host plugin; `measured` what the device measurably moves (zeros where not
// measured); `cold`: the run flushed the L2 before each launch.
Judgement judge_case(const PlannedCase& c, const DeviceInfo* device,
                     const MeasuredBandwidth& measured, const CaseOutcome& outcome, bool cold);

}  // namespace kb
