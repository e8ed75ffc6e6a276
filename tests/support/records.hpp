// Rows built cell by cell, as a results file holds them, read as the analysis reads them.
#pragma once

#include "store/result_record.hpp"

#include <vector>

namespace kbtest {

inline std::vector<kb::ResultRecord> records_of(const std::vector<kb::ResultCells>& rows) {
  std::vector<kb::ResultRecord> records;
  for (const auto& row : rows) records.push_back(kb::record_of(row));
  return records;
}

}  // namespace kbtest
