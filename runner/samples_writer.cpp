#include "samples_writer.hpp"

#include "case_spec.hpp"
#include "csv.hpp"
#include "input_error.hpp"

#include <fstream>

namespace kb {
namespace {

const std::vector<std::string> kKeyColumns = {"run_id", "gpu_uuid", "device", "plugin", "dtype",
                                              "op", "shape", "block", "cache",
                                              "repetition"};

}  // namespace

SamplesWriter::SamplesWriter(std::string path) : path_(std::move(path)) {
  std::ofstream out(path_, std::ios::app);
  if (!out) throw InputError("cannot open samples file '" + path_ + "'");
  if (out.tellp() == 0) {
    auto header = kKeyColumns;
    header.insert(header.end(), {"sample", "us"});
    out << csv_line(header);
  }
}

void SamplesWriter::append(const ResultRow& row, const std::string& samples) {
  std::vector<std::string> key;
  for (const auto& column : kKeyColumns) key.push_back(row.get(column));
  std::string text;
  std::size_t index = 0;
  for (const auto& us : split_list(samples)) {
    auto cells = key;
    cells.push_back(std::to_string(index++));
    cells.push_back(us);
    text += csv_line(cells);
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  std::ofstream(path_, std::ios::app) << text;
}

}  // namespace kb
