// What the user sees while `run` or `tune` runs and when it ends: a progress line (rewritten in
// place on a terminal, one line per case otherwise), the status counts, a markdown table of the
// cases and where the time went. It echoes each row's cells as they were written. (`kbench
// report`, the page written from results files, is report/.)
#pragma once

#include "case/case_outcome.hpp"
#include "store/result_columns.hpp"
#include "util/lane_times.hpp"

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace kb {

class RunProgress {
 public:
  explicit RunProgress(std::size_t planned);
  void started(const std::string& label);
  // `outcome` holds the case's phase times in the worker (none for a case that did not run).
  void finished(const ResultCells& row, const CaseOutcome& outcome);
  void skipped_resumed();
  void worker_started(double seconds);
  // A lane ran out of cases after `seconds` ("host", "device 0").
  void lane_finished(const std::string& lane, double seconds);
  // A line about the whole run (CUPTI missing, counters refused), printed once however many cases
  // say it.
  void note_once(const std::string& line);
  enum class CaseTable { shown, hidden };  // hidden: the command prints its own summary
  // Prints the table of the cases run and the counts; returns the exit code: 0 when every case
  // was ok or unsupported, 1 otherwise.
  int close(CaseTable table = CaseTable::shown);

 private:
  void print_cases() const;
  void print_time() const;

  std::size_t planned_, done_ = 0, resumed_ = 0;
  bool terminal_;
  std::vector<ResultCells> rows_;
  std::map<CaseStatus, std::size_t> counts_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::size_t worker_starts_ = 0;
  double worker_start_seconds_ = 0;
  // The worker's phases (setup, timing, verify), summed over the cases of every lane.
  PhaseSeconds phase_seconds_;
  std::vector<LaneTime> lanes_;
  std::set<std::string> noted_;
  std::mutex mutex_;  // lanes report concurrently
};

}  // namespace kb
