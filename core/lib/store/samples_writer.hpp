// --samples-out: every sample of every case, one row each, so distributions can be studied
// later. Shared and repaired like the results file (SharedCsvFile): a file with another header
// (the results CSV, say) is refused, and a failed write throws WriteError. Safe to use from
// several lanes at once.
#pragma once

#include "store/result_columns.hpp"
#include "store/shared_csv_file.hpp"

#include <string>
#include <vector>

namespace kb {

class SamplesWriter {
 public:
  explicit SamplesWriter(std::string path);  // appends; writes the header when the file is new
  // `samples`: the case's samples in microseconds, in the order they were taken.
  SharedCsvFile::Span append(const ResultCells& row, const std::vector<double>& samples);
  // Takes the samples of a case back when its row could not be written (see SharedCsvFile::undo).
  bool undo(const SharedCsvFile::Span& span) { return file_.undo(span); }

 private:
  SharedCsvFile file_;
};

}  // namespace kb
