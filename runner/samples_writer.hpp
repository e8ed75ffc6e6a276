// --samples-out: every sample of every case, one row each, so distributions can be studied
// later. Safe to use from several lanes at once.
#pragma once

#include "result_schema.hpp"

#include <mutex>
#include <string>

namespace kb {

class SamplesWriter {
 public:
  explicit SamplesWriter(std::string path);  // appends; writes the header when the file is new
  // `samples` is the worker's comma-separated list, in launch order.
  void append(const ResultRow& row, const std::string& samples);

 private:
  std::string path_;
  std::mutex mutex_;
};

}  // namespace kb
