// Composes a results row: the run's and the device's metadata, the case, the worker's measurements
// and the derived throughput and fraction of peak.
#pragma once

#include "case/case_outcome.hpp"
#include "device/device_info.hpp"
#include "plan/plan.hpp"
#include "store/result_schema.hpp"

#include <string>

namespace kb {

struct RunContext {
  std::string run_id;
  std::string host;
  std::string cache = "hot";
};

// `device` is null for host plugins; `copy_gbps` is the device's measured copy bandwidth (0 when
// not measured).
ResultRow build_row(const RunContext& run, const PlannedCase& c, const DeviceInfo* device,
                    double copy_gbps, const CaseOutcome& outcome);

std::string utc_timestamp();  // 2026-11-21T23:59:01Z

}  // namespace kb
