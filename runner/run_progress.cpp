#include "run_progress.hpp"

#include "util/markdown_table.hpp"
#include "util/number_text.hpp"
#include "util/terminal_text.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace kb {

RunProgress::RunProgress(std::size_t planned) : planned_(planned), terminal_(isatty(2)) {}

void RunProgress::skipped_resumed() {
  const std::lock_guard<std::mutex> lock(mutex_);
  ++resumed_;
}

void RunProgress::started(const std::string& label) {
  if (!terminal_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  // Written past std::cerr's filter (it would show the line's own \r and erase as text).
  std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done_ + 1, planned_,
               terminal_text(label).c_str());
  std::fflush(stderr);
}

void RunProgress::worker_started(double seconds) {
  const std::lock_guard<std::mutex> lock(mutex_);
  ++worker_starts_;
  worker_start_seconds_ += seconds;
}

void RunProgress::lane_finished(const std::string& lane, double seconds) {
  const std::lock_guard<std::mutex> lock(mutex_);
  lanes_.push_back({lane, seconds});
}

void RunProgress::note_once(const std::string& line) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!noted_.insert(line).second) return;
  if (terminal_) std::fprintf(stderr, "\r\033[K");
  // Written past std::cerr's filter: the line passes through terminal_text here.
  std::fprintf(stderr, "kbench: %s\n", terminal_text(line).c_str());
}

void RunProgress::finished(const ResultCells& row, const CaseOutcome& outcome) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (outcome.phases) {
    phase_seconds_.setup += outcome.phases->setup;
    phase_seconds_.timing += outcome.phases->timing;
    phase_seconds_.verify += outcome.phases->verify;
    phase_seconds_.cupti += outcome.phases->cupti;
    phase_seconds_.counters += outcome.phases->counters;
  }
  ++done_;
  // Every row this kbench writes has a status it knows.
  ++counts_[parse_status(row.status).value_or(CaseStatus::error)];
  rows_.push_back(row);
  if (terminal_) return;
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(planned_) + "] " +
                     row.plugin + " " + row.dtype +
                     (row.op.empty() ? "" : " " + row.op) + " " + row.shape +
                     " " + row.block +
                     (row.params.empty() ? "" : " " + row.params) + ": " +
                     row.status;
  if (!row.median_us.empty()) line += " " + row.median_us + " us";
  if (!row.gbps.empty()) line += " " + row.gbps + " GB/s";
  if (!row.gflops.empty()) line += " " + row.gflops + " GFLOP/s";
  if (!row.message.empty()) line += " (" + row.message + ")";
  if (!row.throttle.empty()) line += " [throttled: " + row.throttle + "]";
  std::fprintf(stderr, "%s\n", terminal_text(line).c_str());
}

// Wall time, and the time of every lane summed: what the GPUs' timing loops took against the host
// work around them (worker starts, inputs and references, verification); last, with several
// lanes, each lane's wall time, slowest first.
void RunProgress::print_time() const {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::cout << "time: " << fixed_text(wall, 1) << " s; summed over the lanes: " << worker_starts_
            << " worker starts " << fixed_text(worker_start_seconds_, 1) << " s, setup "
            << fixed_text(phase_seconds_.setup, 1) << " s, timing "
            << fixed_text(phase_seconds_.timing, 1) << " s, verify "
            << fixed_text(phase_seconds_.verify, 1) << " s";
  // Parts of the timing: what the fourth clock and --metrics cost.
  if (phase_seconds_.cupti > 0 || phase_seconds_.counters > 0) {
    std::cout << " (of the timing: CUPTI clock " << fixed_text(phase_seconds_.cupti, 2) << " s";
    if (phase_seconds_.counters > 0) {
      std::cout << ", counters " << fixed_text(phase_seconds_.counters, 2) << " s";
    }
    std::cout << ")";
  }
  std::cout << lane_times_text(lanes_) << "\n";
}

void RunProgress::print_cases() const {
  std::cout << "\n| plugin | dtype | op | shape | block | status | median us | GB/s | GFLOP/s | "
               "of peak |\n|---|---|---|---|---|---|---:|---:|---:|---:|\n";
  for (const auto& r : rows_) {
    std::string peak = r.fraction_of_peak;
    if (!peak.empty()) peak += " " + r.peak;
    std::cout << "|";
    for (const std::string& cell : {r.plugin, r.dtype, r.op, r.shape,
                                    r.block, r.status, r.median_us,
                                    r.gbps, r.gflops, peak}) {
      std::cout << " " << markdown_cell(cell) << " |";
    }
    std::cout << "\n";
  }
}

int RunProgress::close(CaseTable table) {
  if (terminal_) std::fprintf(stderr, "\r\033[K");
  if (table == CaseTable::shown) print_cases();
  std::cout << "\n" << done_ << " cases:";
  bool first = true;
  for (const CaseStatus status : kCaseStatuses) {
    std::cout << (first ? " " : ", ") << counts_[status] << " " << status_name(status);
    first = false;
  }
  if (resumed_) std::cout << "; " << resumed_ << " already in the CSV (resumed)";
  std::cout << "\n";
  print_time();
  std::cout << std::flush;
  for (const auto& [status, count] : counts_) {
    if (count > 0 && status != CaseStatus::ok && status != CaseStatus::unsupported) return 1;
  }
  return 0;
}

}  // namespace kb
