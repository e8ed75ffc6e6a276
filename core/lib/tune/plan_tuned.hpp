// `kbench run --best FILE`: each plugin at the configuration `kbench tune` found best (block and
// parameters fixed) for each problem the file has for the GPU model it runs on.
#pragma once

#include "plan/plan.hpp"
#include "plugin/family_table.hpp"
#include "tune/best_configs.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kb {

struct GpuModelCells {
  std::string name, compute_capability;  // as a results row has them
};

// Without --sizes, the problems the file holds for each plugin and GPU model (narrowed by
// --dtypes and --ops), each one case at its tuned configuration; a plugin with none there runs
// nothing, said in a note. With --sizes, the sweep the request plans, except that each problem
// the file holds runs at its tuned configuration alone; the others run their default blocks and
// parameters, each said in a note. An entry that names other parameters than the plugin has
// (tuned before the plugin changed them) counts as absent. `models`: the GPU model of each CUDA
// device of the request; host plugins look up entries without a GPU.
Plan plan_tuned(const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
                const SweepRequest& request, const FamilyTable& families, const BestConfigs& best,
                const std::string& file, const std::map<int, GpuModelCells>& models,
                PluginProbe& probe);

}  // namespace kb
