// One family's details in `kbench report`: a headline table (per size and GPU model, the best
// plugin against the family's reference) and one PNG per GPU model with a panel per data type
// and op, each plugin's best block across the sizes. Each case is the median over the model's
// cards of their latest rows, as `kbench compare --by plugin` pools it.
#pragma once

#include "analysis/comparison.hpp"
#include "analysis/gpu_model.hpp"
#include "plugin/family_table.hpp"
#include "store/result_record.hpp"
#include "store/rows_view.hpp"

#include <string>
#include <vector>

namespace kb {

// What a family is measured by and held against.
struct FamilyView {
  Metric metric;                 // gbps, gflops, or time where a launch's latency is all it measures
  const char* unit;              // of the tables and the y axis
  std::string reference_plugin;  // the plugin drawn as the line to beat; empty: none
};

// From the family's description (its headline and reference plugin); for a family no plugin
// describes, the headline its rows support (GFLOP/s where they count flops, else GB/s, else time)
// and no reference.
FamilyView view_of(const FamilyInfo* described, RowsView rows);

// The section's markdown; its plots' scripts are appended to `scripts`. `rows`: the family's.
std::string family_section(const std::string& family, const FamilyView& view,
                           RowsView rows, const std::vector<GpuModel>& models,
                           const std::string& dir, std::vector<std::string>& scripts);

}  // namespace kb
