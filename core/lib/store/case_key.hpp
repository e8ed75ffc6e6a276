// What defines a case within a run (kCaseInRun), for --resume and for refusing duplicate rows. A
// planned case's key is read from the row it will be written as, so the key of a case before it
// runs and of its row afterwards are formatted by the same code.
#pragma once

#include "store/result_record.hpp"

#include <string>
#include <vector>

namespace kb {

class CaseKey {
 public:
  // With `any_device` (--split, where a case may run on any of the devices) a CUDA case's device
  // is not part of its identity.
  CaseKey(const ResultRecord& record, bool any_device);

  bool operator<(const CaseKey& other) const { return cells_ < other.cells_; }
  bool operator==(const CaseKey& other) const { return cells_ == other.cells_; }

 private:
  std::vector<std::string> cells_;
};

}  // namespace kb
