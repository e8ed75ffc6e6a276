#include "store/results_store.hpp"

#include "util/csv.hpp"
#include "util/input_error.hpp"

#include <csv.h>  // libfccp
#include <sys/stat.h>

#include <array>
#include <fstream>
#include <iostream>
#include <iterator>
#include <tuple>

namespace kb {
namespace {

std::vector<std::string> result_header() {
  return std::vector<std::string>(kResultHeader.begin(), kResultHeader.end());
}

}  // namespace

std::string header_line() { return csv_line(result_header()); }

ResultsStore::ResultsStore(std::string path) : file_(std::move(path), results_schema()) {}

void ResultsStore::append(const ResultCells& row) { file_.append(csv_line(cells_in_order(row))); }

std::vector<ResultCells> read_results(const std::string& path) {
  // A folder failed deep in the stream, /dev/zero filled memory and a FIFO blocked forever.
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    throw InputError("results file '" + path + "' is not a regular file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read results file '" + path + "'");
  std::string fragment;
  const std::string content =
      complete_lines(std::string(std::istreambuf_iterator<char>(in), {}), &fragment);
  if (!fragment.empty()) {
    std::cerr << "kbench: results file '" << path << "': left out its incomplete last line (a "
              << "writer was interrupted; the next run appending to the file moves it aside)\n";
  }
  std::vector<ResultCells> rows;
  try {
    io::CSVReader<kResultColumnCount, io::trim_chars<>, io::double_quote_escape<',', '"'>> reader(
        path, content.data(), content.data() + content.size());
    // Files written by an older kbench lack the newer columns: those read as empty cells. A newer
    // kbench's extra columns are left out.
    std::apply(
        [&](auto... names) {
          reader.read_header(io::ignore_missing_column | io::ignore_extra_column, names...);
        },
        kResultHeader);
    for (const char* required : kRequiredColumns) {
      if (!reader.has_column(required)) {
        throw InputError("'" + path + "' is not a kbench results file (no '" + required +
                         "' column)");
      }
    }
    std::array<std::string, kResultColumnCount> cells;
    while (true) {
      for (auto& cell : cells) cell.clear();
      if (!std::apply([&](auto&... cell) { return reader.read_row(cell...); }, cells)) break;
      ResultCells& row = rows.emplace_back();
      for (std::size_t i = 0; i < kResultColumnCount; ++i) cell_at(row, i) = csv_unescape(cells[i]);
    }
  } catch (const io::error::base& e) {
    throw InputError("corrupt results file '" + path + "': " + e.what());
  }
  return rows;
}

}  // namespace kb
