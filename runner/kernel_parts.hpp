// Kernel files on the command line (--kernel FILE, `kbench validate FILE.cu`): read and bound to
// their families in the parent (a manifest is data, not code), then checked in the probe before
// any case runs: compiled or found in the cache, loaded where there is a device, parameters held
// to the manifest. Any problem is bad input: one line, exit 2, nothing launched.
#pragma once

#include "plan/plan.hpp"
#include "plugin/family_table.hpp"
#include "plugin/plugin_info.hpp"
#include "protocol/plugin_probe.hpp"

#include <memory>
#include <string>
#include <vector>

namespace kb {

// Each file read (manifest found and checked) and bound to its family's library among
// `families`. InputError names the file and what is wrong: no manifest, an unknown family, role,
// type or data type, a formula's unknown name, a name taken by another part.
std::vector<std::shared_ptr<const PluginInfo>> load_kernel_parts(
    const std::vector<std::string>& files,
    const std::vector<std::shared_ptr<const PluginInfo>>& families,
    const std::vector<std::shared_ptr<const PluginInfo>>& plugins);

// Checks the kernel files among the plan's cases in the probe, one call per file and device;
// cases whose launch cannot be formed become `unsupported`. InputError for the first problem.
// Says in one line per file what was built (standard error).
void check_planned_kernels(PluginProbe& probe, Plan& plan);

// With kernel files to run, makes the compiled-code cache's folder where it is missing, before
// the probe (which compiles them) starts: inside its sandbox it may write beneath the folder but
// not make it. A folder that cannot be made is left to the build's note ("not cached: ...").
void prepare_kernel_cache(const std::vector<std::string>& kernel_files);

// The same for kernel files that cannot run here (no CUDA device): their default plan compiled,
// so a broken kernel is refused on any machine.
void check_kernels_without_device(PluginProbe& probe,
                                  const std::vector<std::shared_ptr<const PluginInfo>>& kernels,
                                  const SweepRequest& sweep, const FamilyTable& families);

}  // namespace kb
