// The plugins a command runs: found and loaded in the probe process, chosen by --family and
// --plugin, and able to run here.
#pragma once

#include "options.hpp"
#include "plugin/family_table.hpp"
#include "plugin/plugin_info.hpp"
#include "protocol/plugin_probe.hpp"

#include <memory>
#include <string>
#include <vector>

namespace kb {

struct PluginSelection {
  std::vector<std::shared_ptr<const PluginInfo>> runnable;
  FamilyTable families;  // as every plugin found describes them, not only those selected
  // Kernel files selected that cannot run here (no CUDA device): checked all the same (compiled)
  // by select_runnable, so a broken one is refused on any machine (kernel_parts.hpp).
  std::vector<std::shared_ptr<const PluginInfo>> kernels_without_device;
  // Files of the plugin folders that could not be loaded (another ABI version, not a library, a
  // crash while loading, no referee), and folders named that are none: a sweep without their rows
  // is not the sweep asked for, so the run's exit code says so. (A duplicate name is not counted:
  // that name runs, from the first folder.)
  std::size_t skipped_files = 0;
};

// Says on standard error which files of the folders were skipped and why, one line each whatever
// a file's name or a plugin's name in the reason holds (a line break is written as "\n").
void say_skipped(const std::vector<LoadFailure>& failures);

// Says on standard error, one line each, which files were skipped (refused by the loader, or
// their loading crashed) and, without a CUDA device, which selected CUDA plugins cannot run.
// An InputError names a family or glob that matched nothing, or a kernel file that cannot be
// read as its manifest says. Kernel files (`kernel_files`) are always selected; without
// --family and --plugin they alone are.
PluginSelection select_runnable(PluginProbe& probe, const SweepRequest& sweep,
                                const std::vector<std::string>& plugin_dirs,
                                const std::vector<std::string>& kernel_files, int device_count,
                                const std::string& why_no_device);

}  // namespace kb
