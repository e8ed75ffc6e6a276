#include "kernel_parts.hpp"

#include "kernel/code_cache.hpp"
#include "plugin/kernel_manifest.hpp"
#include "util/input_error.hpp"

#include <algorithm>
#include <iostream>
#include <map>

namespace kb {

std::vector<std::shared_ptr<const PluginInfo>> load_kernel_parts(
    const std::vector<std::string>& files,
    const std::vector<std::shared_ptr<const PluginInfo>>& families,
    const std::vector<std::shared_ptr<const PluginInfo>>& plugins) {
  std::vector<std::shared_ptr<const PluginInfo>> parts;
  for (const auto& file : files) {
    auto manifest = std::make_shared<KernelManifest>(read_kernel_manifest(file));
    const auto family = std::find_if(families.begin(), families.end(),
                                     [&](const auto& f) { return f->name == manifest->family; });
    if (family == families.end()) {
      std::string known;
      for (const auto& f : families) known += (known.empty() ? "" : ", ") + f->name;
      throw InputError(file + ": unknown family '" + manifest->family + "' (no library of it is "
                       "loaded; families here: " + (known.empty() ? "none" : known) + ")");
    }
    bind_to_family(*manifest, **family);
    const std::string name = manifest->name;
    for (const auto& other : plugins) {
      if (other->name == name) {
        throw InputError(file + ": its name '" + name + "' is taken by " + other->file +
                         "; give it another (\"name\" in its manifest)");
      }
    }
    for (const auto& other : parts) {
      if (other->name == name) {
        throw InputError(file + ": its name '" + name + "' is taken by the kernel file " +
                         other->file + "; give it another (\"name\" in its manifest)");
      }
    }
    parts.push_back(std::make_shared<const PluginInfo>(kernel_part(std::move(manifest), *family)));
  }
  return parts;
}

void prepare_kernel_cache(const std::vector<std::string>& kernel_files) {
  if (!kernel_files.empty()) make_kernel_cache_dir();
}

void check_planned_kernels(PluginProbe& probe, Plan& plan) {
  // Each kernel file's cases to run, per device.
  std::map<std::pair<const PluginInfo*, int>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < plan.cases.size(); ++i) {
    const PlannedCase& c = plan.cases[i];
    if (c.plugin->kind != PartKind::kernel || c.outcome) continue;
    groups[{c.plugin.get(), c.request.device}].push_back(i);
  }
  for (const auto& [key, indices] : groups) {
    std::vector<CaseRequest> cases;
    for (std::size_t i : indices) cases.push_back(plan.cases[i].request);
    const auto build = probe.build_kernel(*key.first, cases, key.second);
    if (!build.built) throw InputError(build.failure);
    std::cerr << "kbench: " << build.summary << "\n";
    for (const auto& [index, reason] : build.unsupported) {
      plan.cases[indices[index]].outcome = CaseOutcome::without_run(CaseStatus::unsupported, reason);
    }
  }
}

void check_kernels_without_device(PluginProbe& probe,
                                  const std::vector<std::shared_ptr<const PluginInfo>>& kernels,
                                  const SweepRequest& sweep, const FamilyTable& families) {
  if (kernels.empty()) return;
  SweepRequest request = sweep;
  request.devices = {-1};
  Plan plan = plan_sweep(kernels, request, families, probe);
  check_planned_kernels(probe, plan);
}

}  // namespace kb
