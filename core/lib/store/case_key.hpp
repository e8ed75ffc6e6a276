// What defines a case within a run (kCaseInRun), for --resume and for refusing duplicate rows. A
// planned case's key is taken from the cells its row will be written with, so the key of a case
// before it runs and of its row read back afterwards are formatted by the same code.
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
  CaseKey(const ResultCells& row, bool any_device);

  bool operator<(const CaseKey& other) const { return cells_ < other.cells_; }
  bool operator==(const CaseKey& other) const { return cells_ == other.cells_; }

 private:
  void add(CaseColumn column, const std::string& cell, bool any_device);
  std::vector<std::string> cells_;
};

}  // namespace kb
