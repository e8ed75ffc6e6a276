#include "store/case_key.hpp"

#include <string_view>

namespace kb {

CaseKey::CaseKey(const ResultRow& row, bool any_device) {
  for (const char* column : kCaseKeyColumns) {
    const std::string& cell = row.get(column);
    cells_.push_back(any_device && std::string_view(column) == "device" && cell != "host" ? "any"
                                                                                          : cell);
  }
}

std::string CaseKey::describe() const {
  std::string text;
  for (const auto& cell : cells_) {
    if (!cell.empty()) text += (text.empty() ? "" : " ") + cell;
  }
  return text;
}

}  // namespace kb
