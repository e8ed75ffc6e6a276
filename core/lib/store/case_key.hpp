// What defines a case across runs, for --resume and for refusing duplicate rows: the cells of its
// row that say what was run. A planned case's key is read from the row it will be written as, so
// the key of a case before it runs and of its row afterwards are formatted by the same code. A
// new defining column (a plugin's parameters) is one more entry here.
#pragma once

#include "store/result_schema.hpp"

#include <array>
#include <string>
#include <vector>

namespace kb {

inline constexpr std::array<const char*, 11> kCaseKeyColumns = {
    "plugin", "plugin_version", "dtype", "op", "shape", "block", "params", "device", "seed",
    "cache", "repetition"};

class CaseKey {
 public:
  // With `any_device` (--split, where a case may run on any of the devices) a CUDA case's device
  // is not part of its identity.
  CaseKey(const ResultRow& row, bool any_device);

  bool operator<(const CaseKey& other) const { return cells_ < other.cells_; }
  bool operator==(const CaseKey& other) const { return cells_ == other.cells_; }
  // "testing/good 1 int32 10 - host 42 hot", for messages.
  std::string describe() const;

 private:
  std::vector<std::string> cells_;
};

}  // namespace kb
