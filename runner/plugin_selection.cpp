#include "plugin_selection.hpp"

#include "plan/plan.hpp"
#include "plugin/loader.hpp"
#include "plugin/params.hpp"
#include "protocol/sandbox.hpp"

#include <iostream>

namespace kb {

PluginSelection select_runnable(PluginProbe& probe, const SweepRequest& sweep,
                                const std::vector<std::string>& plugin_dirs, int device_count,
                                const std::string& why_no_device) {
  const Discovery discovery = probe.discover(plugin_search_path(plugin_dirs));
  for (const auto& failure : discovery.failures) {
    std::cerr << "kbench: skipped " << failure.file << ": " << failure.reason << "\n";
  }
  PluginSelection selection{{}, FamilyTable(discovery.families, discovery.plugins)};
  for (const auto& warning : selection.families.warnings()) {
    std::cerr << "kbench: " << warning << "\n";
  }
  if (const std::string missing = sandbox_support().missing(); !missing.empty()) {
    std::cerr << "kbench: note: " << missing << "\n";
  }
  const auto selected = select_plugins(discovery.plugins, sweep.families, sweep.plugin_globs);
  // Checked against every plugin selected, before those that cannot run here are dropped: a
  // --param refused on a GPU machine is refused without a device too.
  if (sweep.cases.empty()) check_param_request(selected, parse_param_options(sweep.params));
  std::string skipped;
  for (const auto& p : selected) {
    if (p->device == KB_DEVICE_CUDA && device_count == 0) {
      skipped += (skipped.empty() ? "" : ", ") + p->name;
    } else {
      selection.runnable.push_back(p);
    }
  }
  if (!skipped.empty()) {
    std::cerr << "kbench: no CUDA device found (" << why_no_device
              << "); skipping the CUDA plugins: " << skipped << "\n";
  }
  return selection;
}

}  // namespace kb
