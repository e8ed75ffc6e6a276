// What the user sees while a sweep runs and when it ends: a progress line (rewritten in place on a
// terminal, one line per case otherwise), the status counts and a markdown summary table.
#pragma once

#include "result_schema.hpp"

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace kb {

class SweepReport {
 public:
  explicit SweepReport(std::size_t planned);
  void started(const std::string& label);
  void finished(const ResultRow& row);
  void skipped_resumed();
  // Prints the table and the counts; returns the exit code: 0 when every case was ok or
  // unsupported, 1 otherwise.
  int close();

 private:
  std::size_t planned_, done_ = 0, resumed_ = 0;
  bool terminal_;
  std::vector<ResultRow> rows_;
  std::map<std::string, std::size_t> counts_;
  std::mutex mutex_;  // lanes report concurrently
};

}  // namespace kb
