#include "families.hpp"

namespace kb {

std::optional<FamilyDefaults> family_defaults(const std::string& family) {
  // Defaults are a quick, representative sweep; presets/ hold the seeds' full experiments.
  static const FamilyDefaults kFamilies[] = {
      {"hello", 1, "5,32,1024", "2x2,8x8,32x32", "none"},
      {"transpose", 2, "2048,8192,8192x4096", "32x8,16x16,32x32", "float32,float64"},
      {"matmul", 3, "1024,4096", "16x16", "float32"},
      {"reduce", 1, "2^20,2^28", "256", "float32,int32"},
  };
  for (const auto& f : kFamilies) {
    if (family == f.name) return f;
  }
  return std::nullopt;
}

}  // namespace kb
