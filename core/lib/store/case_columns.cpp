#include "store/case_columns.hpp"

#include <array>

namespace kb {
namespace {

// CaseColumn's names, in its order.
constexpr std::array<const char*, 16> kNames = {
    "run_id", "gpu",   "gpu_name", "gpu_uuid", "device", "family", "plugin", "plugin_version",
    "dtype",  "op",    "shape",    "block",    "params", "seed",   "cache",  "repetition"};
static_assert(static_cast<std::size_t>(CaseColumn::repetition) + 1 == kNames.size(),
              "kNames: one name per CaseColumn");

}  // namespace

const char* column_name(CaseColumn column) { return kNames[static_cast<std::size_t>(column)]; }

std::vector<CaseColumn> CaseColumns::list() const {
  std::vector<CaseColumn> columns;
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    const auto column = static_cast<CaseColumn>(i);
    if (has(column)) columns.push_back(column);
  }
  return columns;
}

std::vector<std::string> CaseColumns::names() const {
  std::vector<std::string> names;
  for (const CaseColumn column : list()) names.emplace_back(column_name(column));
  return names;
}

}  // namespace kb
