#include "analysis/case_bound.hpp"

namespace kb {

std::string case_bound(const ResultRecord& row) {
  const double bytes = row.bytes.value_or(0);
  const double flops = row.flops.value_or(0);
  if (row.peak != "copy" && !(bytes > 0 && bytes >= flops)) return row.peak;
  return row.cache == "hot" && bytes <= row.l2_bytes.value_or(0) ? "L2" : "memory";
}

bool moves_bytes(const std::string& bound) { return bound == "memory" || bound == "L2"; }

}  // namespace kb
