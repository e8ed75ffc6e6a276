// `kbench list`: every plugin found, with what it supports and where it came from.
#include "case/case_spec.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "plugin/loader.hpp"
#include "protocol/plugin_probe.hpp"
#include "util/markdown_table.hpp"

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
  std::vector<std::string> dirs, families, globs;
  po::options_description description("kbench list");
  description.add_options()("help,h", "show this help")(
      "family", po::value(&families)->composing(), "only these families (repeatable)")(
      "plugin", po::value(&globs)->composing(), "only plugins whose name matches this glob "
                                                 "(repeatable), as in kbench run");
  description.add(plugin_path_options(dirs));
  const auto vm = parse_with_config(args, description, "list");
  if (vm.count("help")) {
    std::cout << "Usage: kbench list [options]\n" << description;
    return 0;
  }
  // Loading runs each plugin's own code: in the probe, where a crash costs that file alone.
  PluginProbe probe(executable_path(), kListLoadTimeoutSeconds);
  const Discovery discovery = probe.discover(plugin_search_path(dirs));
  for (const auto& failure : discovery.failures) {
    std::cerr << "kbench: skipped " << failure.file << ": " << failure.reason << "\n";
  }
  // As run selects: a family or glob that matches nothing is refused by name.
  const auto listed = families.empty() && globs.empty()
                          ? discovery.plugins
                          : select_plugins(discovery.plugins, families, globs);
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
  return 0;
}

}  // namespace kb
