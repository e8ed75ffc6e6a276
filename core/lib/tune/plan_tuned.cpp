#include "tune/plan_tuned.hpp"

#include "plugin/params.hpp"

#include <algorithm>
#include <set>

namespace kb {
namespace {

GpuModelCells model_of(int device, const std::map<int, GpuModelCells>& models) {
  const auto model = models.find(device);
  return model == models.end() ? GpuModelCells{} : model->second;
}

// Formatted as a row writes its cells (judge/row_builder.hpp), so a planned case finds its entry.
BestKey key_of(const PluginInfo& plugin, const CaseRequest& r,
               const std::map<int, GpuModelCells>& models) {
  const GpuModelCells gpu = model_of(r.device, models);
  return {gpu.name, gpu.compute_capability, plugin.name, plugin.version, dtype_name(r.dtype),
          r.op,     format_extent(r.shape)};
}

// The entry's parameters name the plugin's, in its order.
bool names_its_params(const PluginInfo& plugin, const BestConfig& entry) {
  const ParamValues params = parse_params(entry.configuration.params);
  return params.size() == plugin.params.size() &&
         std::equal(params.begin(), params.end(), plugin.params.begin(),
                    [](const auto& value, const ParamInfo& p) { return value.first == p.name; });
}

// The request of the entry's tuned case on `device`.
CaseRequest tuned_request(const PluginInfo& plugin, const BestConfig& entry, int device,
                          const SweepRequest& request) {
  CaseRequest r;
  r.dtype = plugin.dtypes == KB_DTYPE_NONE ? KB_DTYPE_NONE : parse_dtypes(entry.key.dtype).front();
  r.op = entry.key.op;
  r.shape = parse_sizes(entry.key.shape).front();
  r.block =
      entry.configuration.block == "-" ? Block{} : parse_blocks(entry.configuration.block).front();
  r.params = entry.configuration.params;
  r.seed = request.seed;
  r.device = device;
  r.verbose = request.verbose;
  return r;
}

std::string where(int device, const std::map<int, GpuModelCells>& models) {
  return device < 0 ? "the host" : model_of(device, models).name;
}

}  // namespace

Plan plan_tuned(const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
                const SweepRequest& request, const FamilyTable& families, const BestConfigs& best,
                const std::string& file, const std::map<int, GpuModelCells>& models,
                PluginProbe& probe) {
  const auto tuned = [&](const PluginInfo& plugin, const BestKey& key) -> const BestConfig* {
    const BestConfig* entry = best.find(key);
    return entry != nullptr && names_its_params(plugin, *entry) ? entry : nullptr;
  };
  Plan plan;
  if (request.sizes.empty()) {
    const auto dtypes =
        request.dtypes.empty() ? std::vector<kb_dtype>{} : parse_dtypes(request.dtypes);
    const auto ops = request.ops.empty() ? std::vector<std::string>{}
                                         : split_user_list(request.ops, "operation");
    for (const auto& plugin : plugins) {
      for (int device : devices_of(*plugin, request)) {
        const GpuModelCells gpu = model_of(device, models);
        std::size_t found = 0;
        for (const auto& entry : best.entries()) {
          const BestKey& k = entry.key;
          if (k.gpu_name != gpu.name || k.compute_capability != gpu.compute_capability ||
              k.plugin != plugin->name || k.plugin_version != plugin->version ||
              !names_its_params(*plugin, entry)) {
            continue;
          }
          const CaseRequest r = tuned_request(*plugin, entry, device, request);
          if (!dtypes.empty() && std::count(dtypes.begin(), dtypes.end(), r.dtype) == 0) continue;
          if (!ops.empty() && std::count(ops.begin(), ops.end(), r.op) == 0) continue;
          plan_case(plan, plugin, r, probe, request.capabilities);
          ++found;
        }
        if (found == 0) {
          plan.notes.push_back("no tuned configuration of " + plugin->name + " for " +
                               where(device, models) + " in " + file + ": not run");
        }
      }
    }
    return plan;
  }
  // The sweep, each problem's cases replaced by its tuned case where the file has one.
  const Plan sweep = plan_sweep(plugins, request, families, probe);
  plan.notes = sweep.notes;
  std::set<std::pair<int, BestKey>> seen;  // the problems met, on each device
  for (const auto& c : sweep.cases) {
    const BestKey key = key_of(*c.plugin, c.request, models);
    const BestConfig* entry = tuned(*c.plugin, key);
    const bool first = seen.emplace(c.request.device, key).second;
    if (entry == nullptr) {
      if (first) {
        plan.notes.push_back(key.problem() + " on " + where(c.request.device, models) +
                             ": no tuned configuration in " + file +
                             "; runs its default blocks and parameters");
      }
      plan.cases.push_back(c);
    } else if (first) {
      plan_case(plan, c.plugin, tuned_request(*c.plugin, *entry, c.request.device, request), probe,
                request.capabilities);
    }
  }
  return plan;
}

}  // namespace kb
