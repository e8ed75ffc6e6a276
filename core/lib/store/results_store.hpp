// The results file: append-only CSV shared by runs, machines and concurrent runners.
#pragma once

#include "store/result_columns.hpp"
#include "store/shared_csv_file.hpp"

#include <string>
#include <vector>

namespace kb {

class ResultsStore {
 public:
  // Opens (creating the file and its folder if needed), repairs an incomplete last line and
  // checks the header: a file with another header is refused with an InputError naming the file
  // and the first differing column (see SharedCsvFile).
  explicit ResultsStore(std::string path);

  // Writes the row whole, under an exclusive lock on the file, with a single write; a failed
  // write leaves nothing behind and throws WriteError.
  void append(const ResultCells& row);
  const std::string& path() const { return file_.path(); }

 private:
  SharedCsvFile file_;
};

std::string header_line();

// Reads every row back (through libfccp). A file of an older kbench (fewer columns) or a newer
// one (more) reads, its missing columns empty. An incomplete last line (a writer was killed) is
// left out and said on standard error. An InputError names the file and line of a corrupt row.
std::vector<ResultCells> read_results(const std::string& path);

}  // namespace kb
