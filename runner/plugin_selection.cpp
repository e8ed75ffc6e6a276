#include "plugin_selection.hpp"

#include "kernel_parts.hpp"
#include "plan/plan.hpp"
#include "plugin/loader.hpp"
#include "plugin/params.hpp"
#include "protocol/sandbox.hpp"

#include "util/terminal_text.hpp"

#include <algorithm>
#include <iostream>

namespace kb {

void say_skipped(const std::vector<LoadFailure>& failures) {
  for (const auto& failure : failures) {
    std::cerr << terminal_text("kbench: skipped " + failure.file + ": " + failure.reason) << "\n";
  }
}

PluginSelection select_runnable(PluginProbe& probe, const SweepRequest& sweep,
                                const std::vector<std::string>& plugin_dirs,
                                const std::vector<std::string>& kernel_files, int device_count,
                                const std::string& why_no_device) {
  prepare_kernel_cache(kernel_files);
  const Discovery discovery = probe.discover(plugin_search_path(plugin_dirs));
  say_skipped(discovery.failures);
  PluginSelection selection{{}, FamilyTable(discovery.families, discovery.plugins)};
  selection.skipped_files = static_cast<std::size_t>(
      std::count_if(discovery.failures.begin(), discovery.failures.end(),
                    [](const LoadFailure& failure) { return !failure.duplicate; }));
  for (const auto& warning : selection.families.warnings()) {
    std::cerr << terminal_text("kbench: " + warning) << "\n";
  }
  if (const std::string missing = sandbox_support().missing(); !missing.empty()) {
    std::cerr << "kbench: note: " << missing << "\n";
  }
  const auto kernels = load_kernel_parts(kernel_files, discovery.families, discovery.plugins);
  std::vector<std::shared_ptr<const PluginInfo>> selected;
  if (kernels.empty() || !sweep.families.empty() || !sweep.plugin_globs.empty()) {
    auto everything = discovery.plugins;
    everything.insert(everything.end(), kernels.begin(), kernels.end());
    selected = select_plugins(everything, sweep.families, sweep.plugin_globs);
  }
  for (const auto& k : kernels) {
    if (std::find(selected.begin(), selected.end(), k) == selected.end()) selected.push_back(k);
  }
  // Checked against every plugin selected, before those that cannot run here are dropped: a
  // --param refused on a GPU machine is refused without a device too.
  if (sweep.cases.empty()) {
    check_param_request(selected, parse_param_options(sweep.params));
    check_blocks_request(selected, sweep.blocks);
  }
  std::string skipped;
  for (const auto& p : selected) {
    if (p->device == KB_DEVICE_CUDA && device_count == 0) {
      skipped += (skipped.empty() ? "" : ", ") + p->name;
      if (p->kind == PartKind::kernel) selection.kernels_without_device.push_back(p);
    } else {
      selection.runnable.push_back(p);
    }
  }
  // Compiled all the same: a broken kernel file is refused on any machine, before anything else
  // is said of it.
  check_kernels_without_device(probe, selection.kernels_without_device, sweep, selection.families);
  if (!skipped.empty()) {
    std::cerr << "kbench: no CUDA device found (" << why_no_device
              << "); skipping the CUDA plugins: " << skipped << "\n";
  }
  return selection;
}

}  // namespace kb
