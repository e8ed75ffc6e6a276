// Composes a results row: the run's and the device's metadata, the case, the worker's measurements,
// and the judgement (case_judgement.hpp): the status, the throughput and the fraction of peak.
#pragma once

#include "case/case_outcome.hpp"
#include "device/bandwidth.hpp"
#include "device/device_info.hpp"
#include "plan/plan.hpp"
#include "store/result_record.hpp"
#include "store/result_columns.hpp"

#include <string>

namespace kb {

struct RunContext {
  std::string run_id;
  std::string host;
  std::string cache = "hot";
};

// `device` is null for host plugins; `measured` holds what the device measurably moves (zeros
// when not measured).
ResultCells build_row(const RunContext& run, const PlannedCase& c, const DeviceInfo* device,
                    const MeasuredBandwidth& measured, const CaseOutcome& outcome);

// The cells a planned case's row will have before anything ran (the run's, the plugin's, the
// case's): what identifies the case (store/case_key.hpp) and what a tune groups it by, as its row
// will write them.
ResultCells planned_cells(const RunContext& run, const PlannedCase& c);

std::string utc_timestamp();  // 2026-11-21T23:59:01Z

}  // namespace kb
