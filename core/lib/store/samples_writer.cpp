#include "store/samples_writer.hpp"

#include "store/case_columns.hpp"
#include "store/result_record.hpp"
#include "util/csv.hpp"
#include "util/number_text.hpp"

#include <cstdio>

namespace kb {

SamplesWriter::SamplesWriter(std::string path) : file_(std::move(path), samples_schema()) {}

SharedCsvFile::Span SamplesWriter::append(const ResultCells& row,
                                          const std::vector<double>& samples) {
  std::vector<std::string> key;
  for (const CaseColumn column : kSampleCase.list()) key.push_back(case_cell(row, column));
  std::string text;
  std::size_t index = 0;
  for (const double us : samples) {
    auto cells = key;
    cells.push_back(std::to_string(index++));
    cells.push_back(significant_text(us, 9));
    text += csv_line(cells);
  }
  return text.empty() ? SharedCsvFile::Span{} : file_.append(text);
}

}  // namespace kb
