// `kbench report --history`: the nightly runs of a CSV file in the order they ran, each case's
// median time in each run, and the regressions the gate (regression_gate.hpp) finds between a run
// and the one before it. Pure functions over rows; history_report.hpp writes it.
#pragma once

#include "analysis/regression_gate.hpp"
#include "store/result_record.hpp"

#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kb {

struct HistoryRun {
  std::string run_id;
  std::time_t started = 0;  // its earliest timestamp_utc
  std::string started_text;  // as the CSV writes it
  std::size_t cases = 0;      // cases with a median in this run
};

struct CaseHistory {
  std::vector<std::string> key;  // one value per History::key_columns
  // Per run: the median of its repetitions' medians (us), and whether the gate failed it as
  // slower than in the run before.
  std::vector<std::optional<double>> median;
  std::vector<bool> slower;
};

struct Regression {
  std::size_t run = 0;   // index into History::runs (> 0: against the run before)
  std::size_t case_index = 0;
  double before_us = 0, after_us = 0, effect = 0;
  std::optional<double> p_value;
};

struct History {
  std::vector<std::string> key_columns;  // as the gate's: gpu, family, plugin, dtype, op, ...
  std::vector<HistoryRun> runs;          // oldest first
  std::vector<CaseHistory> cases;        // in natural order of their keys
  std::vector<Regression> regressions;   // by run, then case
};

// Throws InputError when the rows hold no ok median at all. `gating`, when given, is told before
// each run is gated against the one before (its index and the number of runs): a command's
// progress line.
History history(const std::vector<ResultRecord>& rows, const GateRequest& request,
                const std::function<void(std::size_t run, std::size_t runs)>& gating = {});

}  // namespace kb
