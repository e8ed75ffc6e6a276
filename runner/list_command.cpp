// `kbench list`: every plugin found, with what it supports and where it came from.
#include "case/case_spec.hpp"
#include "commands.hpp"
#include "kernel_parts.hpp"
#include "options.hpp"
#include "plugin_selection.hpp"
#include "plugin/loader.hpp"
#include "protocol/plugin_probe.hpp"
#include "util/markdown_table.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace kb {
namespace {

// A plugin whose loading takes longer is taken to hang.
constexpr double kListLoadTimeoutSeconds = 60;

// "tile_bytes=512 of 128,256,512": each parameter's default sweep, and what --param may ask.
std::string params_text(const PluginInfo& plugin) {
  const auto joined = [](const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ",") + item;
    return text;
  };
  std::string text;
  for (const auto& p : plugin.params) {
    text += (text.empty() ? "" : " ") + p.name + "=" + joined(p.values) +
            (p.choices.empty() ? "" : " of " + joined(p.choices));
  }
  return text;
}

}  // namespace

int list_command(const std::vector<std::string>& args) {
  std::vector<std::string> dirs, families, globs, kernel_files;
  po::options_description description("kbench list");
  description.add_options()("help,h", "show this help")(
      "family", po::value(&families)->composing(), "only these families (repeatable)")(
      "plugin", po::value(&globs)->composing(), "only plugins whose name matches this glob "
                                                 "(repeatable), as in kbench run");
  description.add(plugin_path_options(dirs));
  description.add(kernel_file_options(kernel_files));
  const auto vm = parse_with_config(args, description, "list");
  if (vm.count("help")) {
    std::cout << "Usage: kbench list [options]\n" << description;
    return 0;
  }
  // Loading runs each plugin's own code: in the probe, where a crash costs that file alone.
  PluginProbe probe(executable_path(), kListLoadTimeoutSeconds);
  const Discovery discovery = probe.discover(plugin_search_path(dirs));
  say_skipped(discovery.failures);
  // As run selects: a family or glob that matches nothing is refused by name; kernel files are
  // read and checked against their families (not compiled: kbench validate FILE does that), and
  // listed alone without --family or --plugin.
  const auto kernels = load_kernel_parts(kernel_files, discovery.families, discovery.plugins);
  auto everything = discovery.plugins;
  everything.insert(everything.end(), kernels.begin(), kernels.end());
  std::vector<std::shared_ptr<const PluginInfo>> listed =
      families.empty() && globs.empty() ? (kernels.empty() ? discovery.plugins : kernels)
                                        : select_plugins(everything, families, globs);
  for (const auto& k : kernels) {
    if (std::find(listed.begin(), listed.end(), k) == listed.end()) listed.push_back(k);
  }
  std::cout << "| plugin | device | dtypes | ops | launch shape | params | version | built for | "
               "file |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& p : listed) {
    std::cout << "|";
    for (const std::string& cell :
         {p->name, std::string(p->device == KB_DEVICE_CUDA ? "cuda" : "host"),
          dtype_list(p->dtypes), p->ops,
          std::string(p->flags & KB_FLAG_OWN_LAUNCH_SHAPE ? "own" : "from --blocks"),
          params_text(*p), p->version, p->cuda_archs, p->file}) {
      std::cout << " " << markdown_cell(cell) << " |";
    }
    std::cout << "\n";
  }
  // What each kernel file's manifest says it is.
  for (const auto& k : kernels) {
    if (std::find(listed.begin(), listed.end(), k) == listed.end()) continue;
    std::cout << "\n" << k->name << ": " << markdown_cell(k->description) << "\n";
  }
  return 0;
}

}  // namespace kb
