// `kbench validate PLUGIN.so`: what a plugin author runs before sharing a plugin. Loads the file
// with every check the loader makes, then runs a small case of each data type (and operation) it
// declares, with verification, through the same parent/worker path as `kbench run`.
#include "case/case_spec.hpp"
#include "commands.hpp"
#include "device/device_info.hpp"
#include "options.hpp"
#include "plugin/family_table.hpp"
#include "plugin/loader.hpp"
#include "protocol/plugin_probe.hpp"
#include "store/result_record.hpp"
#include "util/input_error.hpp"

#include <boost/filesystem.hpp>

#include <algorithm>
#include <iostream>

namespace kb {
namespace {

// The family's small case, from its description: the plugin's own, or that of the installed
// plugins of its family; for a family no plugin describes, an odd size and a few blocks.
struct SmallCase {
  std::string sizes, blocks;
};

SmallCase small_case(const PluginInfo& plugin, const Discovery& installed) {
  auto described = std::make_shared<PluginInfo>(plugin);
  std::vector<std::shared_ptr<const PluginInfo>> plugins{described};
  plugins.insert(plugins.end(), installed.plugins.begin(), installed.plugins.end());
  const FamilyTable families(installed.families, plugins);
  if (const FamilyInfo* family = families.find(plugin.family)) {
    return {family->check_sizes, family->check_blocks.empty() ? "256" : family->check_blocks};
  }
  return {"1000", "256,32x8"};
}

}  // namespace

int validate_command(const std::vector<std::string>& args) {
  std::string given;
  double case_timeout = 60;
  po::options_description description("kbench validate");
  description.add_options()("help,h", "show this help")(
      "plugin-file", po::value(&given)->required(), "the plugin's shared library");
  description.add(case_timeout_option(case_timeout));
  po::positional_options_description positional;
  positional.add("plugin-file", 1);
  po::variables_map vm;
  try {
    po::store(parse_command_line(args, description, positional), vm);
    if (vm.count("help")) {
      std::cout << "Usage: kbench validate PLUGIN.so [--case-timeout S]\n" << description;
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string("kbench validate: ") + e.what());
  }
  if (given.empty()) throw InputError("kbench validate: the plugin file is empty");
  const std::string file = boost::filesystem::absolute(given).lexically_normal().string();
  if (!boost::filesystem::is_regular_file(file)) throw InputError("no such file '" + given + "'");
  std::string failure;
  PluginProbe probe(executable_path(), case_timeout);
  const auto plugin = probe.load(file, failure);
  if (!plugin) {
    std::cout << file << ": invalid: " << failure << "\n";
    return 1;
  }
  const PluginInfo& api = *plugin;
  if (api.kind == PartKind::family) {
    std::cout << "loaded the referee of family " << api.name << " (version " << api.version
              << ", " << dtype_list(api.dtypes) << (api.ops.empty() ? "" : ", ops " + api.ops)
              << "); validate its strategies to run it\n";
    return 0;
  }
  std::cout << "loaded " << api.name << " (family " << api.family << ", version " << api.version
            << ", " << (api.device == KB_DEVICE_CUDA ? "cuda" : "host") << ", "
            << dtype_list(api.dtypes) << (api.ops.empty() ? "" : ", ops " + api.ops)
            << (api.cuda_archs.empty() ? "" : ", built for " + api.cuda_archs) << ")\n";
  if (api.description.empty()) {
    std::cout << "invalid: the description is empty\n";
    return 1;
  }
  if (api.device == KB_DEVICE_CUDA && cuda_device_count(nullptr) == 0) {
    std::cout << "ABI and metadata valid; no CUDA device here, so no case was run\n";
    return 0;
  }

  namespace fs = boost::filesystem;
  const fs::path work = fs::temp_directory_path() / fs::unique_path("kbench-validate-%%%%-%%%%");
  fs::create_directories(work / "plugin");
  // Alone in a folder of its own, so nothing else there is loaded beside it.
  fs::copy_file(file, work / "plugin" / fs::path(file).filename());
  // The referee of a version 3 strategy: installed, else a family library beside the strategy,
  // copied with it.
  const Discovery installed = probe.discover(plugin_search_path({}));
  const auto family_named = [&](const Discovery& d) {
    return std::find_if(d.families.begin(), d.families.end(),
                        [&](const auto& f) { return f->name == api.family; }) != d.families.end();
  };
  if (api.refereed_by_family() && !family_named(installed)) {
    const Discovery beside = probe.discover({fs::path(file).parent_path().string()});
    const auto family = std::find_if(beside.families.begin(), beside.families.end(),
                                     [&](const auto& f) { return f->name == api.family; });
    if (family == beside.families.end()) {
      std::cout << "invalid: no referee: the library of the '" << api.family
                << "' family is neither installed nor beside the plugin\n";
      fs::remove_all(work);
      return 1;
    }
    fs::copy_file((*family)->file, work / "plugin" / fs::path((*family)->file).filename());
  }
  const SmallCase small = small_case(api, installed);
  std::string dtypes = dtype_list(api.dtypes & ~static_cast<std::uint32_t>(KB_DTYPE_NONE));
  std::vector<std::string> run_args = {
      "--plugins", (work / "plugin").string(), "--plugin", api.name, "--sizes", small.sizes,
      "--blocks", small.blocks, "--max-time", "0.05", "--output", (work / "validate.csv").string(),
      "--run-id", "validate"};
  run_args.insert(run_args.end(), {"--case-timeout", option_number(case_timeout)});
  if (!dtypes.empty()) run_args.insert(run_args.end(), {"--dtypes", dtypes});
  const int code = run_command(run_args);

  std::size_t ok = 0, total = 0;
  const fs::path csv = work / "validate.csv";
  if (fs::exists(csv)) {
    for (const auto& record : read_records(csv.string())) {
      ++total;
      if (record.ok()) ++ok;
    }
  }
  fs::remove_all(work);
  const bool valid = code == 0 && ok > 0;
  std::cout << (valid ? "valid: " : "invalid: ") << ok << " of " << total
            << " small cases ran and verified\n";
  return valid ? 0 : 1;
}

}  // namespace kb
