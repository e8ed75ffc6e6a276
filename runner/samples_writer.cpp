#include "samples_writer.hpp"

#include "csv.hpp"

#include <cstdio>

namespace kb {
namespace {

const std::vector<std::string> kKeyColumns = {"run_id", "gpu_uuid", "device", "plugin",
                                              "dtype",  "op",       "shape",  "block",
                                              "params", "cache",    "repetition"};

std::vector<std::string> samples_header() {
  auto header = kKeyColumns;
  header.insert(header.end(), {"sample", "us"});
  return header;
}

}  // namespace

SamplesWriter::SamplesWriter(std::string path)
    : file_(std::move(path), samples_header(), "samples file") {}

SharedCsvFile::Span SamplesWriter::append(const ResultRow& row,
                                          const std::vector<double>& samples) {
  std::vector<std::string> key;
  for (const auto& column : kKeyColumns) key.push_back(row.get(column));
  std::string text;
  std::size_t index = 0;
  for (const double us : samples) {
    auto cells = key;
    cells.push_back(std::to_string(index++));
    char formatted[32];
    std::snprintf(formatted, sizeof formatted, "%.9g", us);
    cells.push_back(formatted);
    text += csv_line(cells);
  }
  return text.empty() ? SharedCsvFile::Span{} : file_.append(text);
}

}  // namespace kb
