#include "store/case_key.hpp"

namespace kb {

CaseKey::CaseKey(const ResultRecord& record, bool any_device) {
  for (const CaseColumn column : kCaseInRun.list()) {
    const std::string& cell = record.cell(column);
    cells_.push_back(any_device && column == CaseColumn::device && cell != "host" ? "any" : cell);
  }
}

}  // namespace kb
