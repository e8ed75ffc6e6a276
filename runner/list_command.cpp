// `kbench list`: every plugin found, with what it supports and where it came from.
#include "commands.hpp"

#include "case_spec.hpp"
#include "loader.hpp"
#include "options.hpp"

#include <iomanip>
#include <iostream>

namespace kb {

int list_command(const std::vector<std::string>& args) {
  std::vector<std::string> dirs;
  std::string family;
  po::options_description description("kbench list");
  description.add_options()("help,h", "show this help")(
      "family", po::value(&family), "only this family");
  description.add(plugin_path_options(dirs));
  const auto vm = parse_with_config(args, description, "list");
  if (vm.count("help")) {
    std::cout << "Usage: kbench list [options]\n" << description;
    return 0;
  }
  const Discovery discovery = discover_plugins(plugin_search_path(dirs));
  for (const auto& failure : discovery.failures) {
    std::cerr << "kbench: skipped " << failure.file << ": " << failure.reason << "\n";
  }
  std::cout << "| plugin | device | dtypes | ops | launch shape | version | built for | file |\n"
               "|---|---|---|---|---|---|---|---|\n";
  for (const auto& p : discovery.plugins) {
    const KernelPlugin& api = *p->api;
    if (!family.empty() && family != api.family) continue;
    std::cout << "| " << api.name << " | " << (api.device == KB_DEVICE_CUDA ? "cuda" : "host")
              << " | " << dtype_list(api.dtypes) << " | " << api.ops << " | "
              << (api.flags & KB_FLAG_OWN_LAUNCH_SHAPE ? "own" : "from --blocks") << " | "
              << api.version << " | " << api.cuda_archs << " | " << p->file << " |\n";
  }
  return 0;
}

}  // namespace kb
