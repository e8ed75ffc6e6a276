// --samples-out: every sample of every case, one row each, so distributions can be studied
// later. Shared and repaired like the results file (SharedCsvFile): a file with another header
// (the results CSV, say) is refused, and a failed write throws WriteError. Safe to use from
// several lanes at once.
#pragma once

#include "result_schema.hpp"
#include "shared_csv_file.hpp"

#include <string>

namespace kb {

class SamplesWriter {
 public:
  explicit SamplesWriter(std::string path);  // appends; writes the header when the file is new
  // `samples` is the worker's comma-separated list, in launch order.
  SharedCsvFile::Span append(const ResultRow& row, const std::string& samples);
  // Takes the samples of a case back when its row could not be written (see SharedCsvFile::undo).
  bool undo(const SharedCsvFile::Span& span) { return file_.undo(span); }

 private:
  SharedCsvFile file_;
};

}  // namespace kb
