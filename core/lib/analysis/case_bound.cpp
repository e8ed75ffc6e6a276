#include "analysis/case_bound.hpp"

#include "store/result_selection.hpp"

namespace kb {

std::string case_bound(const ResultRow& row) {
  const std::string& peak = row.get("peak");
  const double bytes = cell_number(row.get("bytes")).value_or(0);
  const double flops = cell_number(row.get("flops")).value_or(0);
  if (peak != "copy" && !(bytes > 0 && bytes >= flops)) return peak;
  const double l2 = cell_number(row.get("l2_bytes")).value_or(0);
  return row.get("cache") == "hot" && bytes <= l2 ? "L2" : "memory";
}

bool moves_bytes(const std::string& bound) { return bound == "memory" || bound == "L2"; }

}  // namespace kb
