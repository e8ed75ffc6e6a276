#include "plugin/loader.hpp"

#include "case/case_spec.hpp"
#include "util/plugin_text.hpp"
#include "util/short_of_resources.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/filesystem/operations.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace kb {
namespace fs = boost::filesystem;

namespace {

// Boost.DLL reports a failed load as a bare error code; dlopen's own text says why (a missing
// dependency, "invalid ELF header", "file too short").
std::string dlopen_diagnostic(const std::string& file) {
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle != nullptr) {
    dlclose(handle);
    return "";
  }
  const char* text = dlerror();
  return text ? text : "";
}

// The descriptor's problems, read from `info` (bounded copies) where it is text.
std::string validate(const KernelPlugin& p, const PluginInfo& info) {
  if (p.abi_version < KB_ABI_VERSION_OLDEST || p.abi_version > KB_ABI_VERSION) {
    return "built for ABI version " + std::to_string(p.abi_version) + ", this kbench serves " +
           "ABI versions " + std::to_string(KB_ABI_VERSION_OLDEST) + " to " +
           std::to_string(KB_ABI_VERSION) + "; rebuild the plugin";
  }
  const std::size_t needed = p.abi_version == 1   ? KB_PLUGIN_SIZE_V1
                             : p.abi_version == 2 ? KB_PLUGIN_SIZE_V2
                                                  : sizeof(KernelPlugin);
  if (p.struct_size < needed) {
    return "KernelPlugin is " + std::to_string(p.struct_size) + " bytes, ABI version " +
           std::to_string(p.abi_version) + " needs " + std::to_string(needed);
  }
  // The name is a CSV cell, a --plugin glob's target and a word of --case: plain text, one word.
  const std::string raw = p.name ? std::string(p.name, strnlen(p.name, kPluginStringCapacity)) : "";
  if (raw.size() == kPluginStringCapacity || info.name != raw ||
      raw.find_first_of(" \t\n\r,") != std::string::npos) {
    return "name '" + info.name + "' is not printable UTF-8 without spaces or commas, " +
           "at most " + std::to_string(kPluginStringCapacity - 1) + " bytes";
  }
  const std::string& name = info.name;
  const auto slash = name.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == name.size() ||
      name.find('/', slash + 1) != std::string::npos) {
    return "name '" + name + "' is not of the form family/strategy";
  }
  if (p.family == nullptr || info.family != name.substr(0, slash)) {
    return "family '" + info.family + "' does not match name '" + name + "'";
  }
  if (p.device != KB_DEVICE_CUDA && p.device != KB_DEVICE_HOST) {
    return "unknown device kind " + std::to_string(static_cast<int>(p.device));
  }
  constexpr std::uint32_t kKnownDTypes = KB_DTYPE_NONE | KB_DTYPE_F32 | KB_DTYPE_F64 | KB_DTYPE_I32 |
                                         KB_DTYPE_F16 | KB_DTYPE_BF16 | KB_DTYPE_I8;
  if (p.dtypes == 0 || (p.dtypes & ~kKnownDTypes) != 0) return "invalid data type mask";
  const std::pair<const char*, bool> self_refereed_hooks[] = {
      {"setup", p.setup != nullptr},   {"poison", p.poison != nullptr},
      {"launch", p.launch != nullptr}, {"verify", p.verify != nullptr},
      {"teardown", p.teardown != nullptr}};
  if (p.abi_version >= 3) {
    // A strategy that also judged would be two referees: the family's check is the only one.
    if (p.run == nullptr) return "hook 'run' is null";
    for (const auto& [hook, present] : self_refereed_hooks) {
      if (present) {
        return std::string("hook '") + hook + "' is set: a version 3 strategy has no " + hook +
               " (its family draws, poisons and checks; see plugin.h)";
      }
    }
  } else {
    for (const auto& [hook, present] : self_refereed_hooks) {
      if (!present) return std::string("hook '") + hook + "' is null";
    }
  }
  if (p.version == nullptr || p.description == nullptr || p.ops == nullptr ||
      p.cuda_archs == nullptr) {
    return "version, description, ops and cuda_archs must not be null (use \"\")";
  }
  // Each operation is planned once per case: a repeated one would run every case twice.
  const auto ops = split_list(info.ops);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (std::count(ops.begin(), ops.begin() + i, ops[i])) {
      return "ops '" + info.ops + "' lists '" + ops[i] + "' twice";
    }
  }
  return check_family_and_params(info);
}

std::string validate_family(const KernelFamily& f, const PluginInfo& info) {
  if (f.abi_version < 3 || f.abi_version > KB_ABI_VERSION) {
    return "family built for ABI version " + std::to_string(f.abi_version) +
           ", this kbench serves family libraries of ABI version 3 to " +
           std::to_string(KB_ABI_VERSION) + "; rebuild it";
  }
  if (f.struct_size < sizeof(KernelFamily)) {
    return "KernelFamily is " + std::to_string(f.struct_size) + " bytes, ABI version " +
           std::to_string(f.abi_version) + " needs " + std::to_string(sizeof(KernelFamily));
  }
  if (!info.family_info) return "KernelFamily.info is null: a family must describe itself";
  const std::string& name = info.family_info->name;
  if (name.empty() || name.size() >= kPluginStringCapacity ||
      name.find_first_of(" \t\n\r,/") != std::string::npos) {
    return "family name '" + name + "' is not one word without '/' or commas";
  }
  const std::pair<const char*, bool> hooks[] = {
      {"work", f.work != nullptr},     {"create", f.create != nullptr},
      {"draw", f.draw != nullptr},     {"poison", f.poison != nullptr},
      {"check", f.check != nullptr},   {"destroy", f.destroy != nullptr}};
  for (const auto& [hook, present] : hooks) {
    if (!present) return std::string("family hook '") + hook + "' is null";
  }
  if (f.version == nullptr || f.ops == nullptr) {
    return "family version and ops must not be null (use \"\")";
  }
  constexpr std::uint32_t kKnownDTypes = KB_DTYPE_NONE | KB_DTYPE_F32 | KB_DTYPE_F64 | KB_DTYPE_I32 |
                                         KB_DTYPE_F16 | KB_DTYPE_BF16 | KB_DTYPE_I8;
  if (f.dtypes == 0 || (f.dtypes & ~kKnownDTypes) != 0) return "invalid family data type mask";
  return check_family_and_params(info);
}

}  // namespace

std::string executable_dir() { return boost::dll::program_location().parent_path().string(); }

std::string executable_path() { return boost::dll::program_location().string(); }

std::vector<std::string> plugin_search_path(const std::vector<std::string>& extra_dirs) {
  std::vector<std::string> dirs{
      (fs::path(executable_dir()) / ".." / "lib" / "kbench" / "plugins").lexically_normal().string()};
  if (const char* env = std::getenv("KBENCH_PLUGIN_PATH")) {
    std::string list = env;
    std::size_t start = 0;
    while (start <= list.size()) {
      const auto end = std::min(list.find(':', start), list.size());
      if (end > start) dirs.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  dirs.insert(dirs.end(), extra_dirs.begin(), extra_dirs.end());
  return dirs;
}

namespace {

// The first bytes of a descriptor the plugin declares (a version 1 struct is shorter than this
// kbench's), the rest zero.
template <typename Descriptor>
Descriptor copy_of(const Descriptor& given) {
  Descriptor copy{};
  std::memcpy(&copy, &given, std::min<std::size_t>(given.struct_size, sizeof(Descriptor)));
  return copy;
}

}  // namespace

std::shared_ptr<const LoadedPlugin> load_plugin(const std::string& file, const LoadStep& step) {
  const auto entering = [&](const char* name) {
    if (step) step(name);
  };
  auto loaded = std::make_shared<LoadedPlugin>();
  auto& info = loaded->info;
  boost::system::error_code error;
  entering("loading the library");
  // rtld_local: two plugins may define the same internal symbols without interfering.
  loaded->library.load(file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local,
                       error);
  if (error) {
    const std::string detail = dlopen_diagnostic(file);
    if (names_resource_shortage(detail)) throw ShortOfResources("load " + file, detail);
    throw LoadError("not a loadable shared library (" + (detail.empty() ? error.message() : detail) +
                    ")");
  }
  if (!loaded->library.has(KB_ENTRY_SYMBOL)) {
    if (!loaded->library.has(KB_FAMILY_ENTRY_SYMBOL)) {
      throw LoadError("no '" KB_ENTRY_SYMBOL "' (or '" KB_FAMILY_ENTRY_SYMBOL "') symbol exported");
    }
    const auto entry = loaded->library.get<const KernelFamily*()>(KB_FAMILY_ENTRY_SYMBOL);
    entering(KB_FAMILY_ENTRY_SYMBOL "()");
    const KernelFamily* given = entry();
    if (given == nullptr) throw LoadError(KB_FAMILY_ENTRY_SYMBOL "() returned NULL");
    entering("reading its KernelFamily");
    info = describe_family(*given, loaded->library.location().string());
    if (const std::string problem = validate_family(*given, info); !problem.empty()) {
      throw LoadError(problem);
    }
    const FamilyInfo& described = *info.family_info;
    kb_family& own_info = loaded->own_family_info_;
    for (const auto& field : kFamilyTexts) {
      own_info.*field.described = (described.*field.copied).c_str();
    }
    own_info.rank = described.rank;
    KernelFamily& own = loaded->own_family_ = copy_of(*given);
    own.info = &own_info;
    own.version = info.version.c_str();
    own.ops = info.ops.c_str();
    loaded->family = &own;
    return loaded;
  }
  const auto entry = loaded->library.get<const KernelPlugin*()>(KB_ENTRY_SYMBOL);
  entering(KB_ENTRY_SYMBOL "()");
  const KernelPlugin* given = entry();
  if (given == nullptr) throw LoadError(KB_ENTRY_SYMBOL "() returned NULL");
  entering("reading its KernelPlugin");
  info = describe_plugin(*given, file);
  if (const std::string problem = validate(*given, info); !problem.empty()) {
    throw LoadError(problem);
  }
  KernelPlugin& own = loaded->own_api_ = copy_of(*given);
  own.name = info.name.c_str();
  own.family = info.family.c_str();
  own.version = info.version.c_str();
  own.description = info.description.c_str();
  own.ops = info.ops.c_str();
  own.cuda_archs = info.cuda_archs.c_str();
  loaded->api = &own;
  return loaded;
}

std::vector<std::string> plugin_files(const std::vector<std::string>& dirs,
                                      std::vector<LoadFailure>& failures) {
  std::vector<std::string> all;
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    boost::system::error_code error;
    if (!fs::is_directory(dirs[i], error)) {
      if (i > 0) failures.push_back({dirs[i], "not a folder"});
      continue;
    }
    std::vector<std::string> files;
    for (fs::directory_iterator it(dirs[i], error), end; !error && it != end; it.increment(error)) {
      if (it->path().extension() == ".so") files.push_back(it->path().string());
    }
    // A folder read in part would drop plugins without a word.
    if (error && is_resource_shortage(error.value())) {
      throw ShortOfResources("list the plugin folder " + dirs[i], error.message());
    }
    if (error) {
      failures.push_back({dirs[i], "cannot be listed: " + error.message()});
      continue;
    }
    std::sort(files.begin(), files.end());
    all.insert(all.end(), files.begin(), files.end());
  }
  return all;
}

}  // namespace kb
