// The results file: append-only CSV shared by runs, machines and concurrent runners.
#pragma once

#include "result_schema.hpp"

#include <mutex>
#include <string>
#include <vector>

namespace kb {

class ResultsStore {
 public:
  // Opens (creating the file and its folder if needed) and checks the header: a file with another
  // header is refused with an InputError naming the file and the first differing column.
  explicit ResultsStore(std::string path);
  ~ResultsStore();
  ResultsStore(const ResultsStore&) = delete;
  ResultsStore& operator=(const ResultsStore&) = delete;

  // Writes the row whole, under an exclusive lock on the file, with a single write.
  void append(const ResultRow& row);
  const std::string& path() const { return path_; }

 private:
  void write_header_or_check();
  std::string path_;
  int fd_ = -1;
  std::mutex mutex_;  // flock excludes other processes, not other threads sharing the descriptor
};

std::string header_line();

// Reads every row back (through libfccp); an InputError names the file and line of a corrupt row.
std::vector<ResultRow> read_results(const std::string& path);

}  // namespace kb
