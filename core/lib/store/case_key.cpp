#include "store/case_key.hpp"

namespace kb {

CaseKey::CaseKey(const ResultRecord& record, bool any_device) {
  for (const CaseColumn column : kCaseInRun.list()) add(column, record.cell(column), any_device);
}

CaseKey::CaseKey(const ResultCells& row, bool any_device) {
  for (const CaseColumn column : kCaseInRun.list()) add(column, case_cell(row, column), any_device);
}

void CaseKey::add(CaseColumn column, const std::string& cell, bool any_device) {
  cells_.push_back(any_device && column == CaseColumn::device && cell != "host" ? "any" : cell);
}

}  // namespace kb
