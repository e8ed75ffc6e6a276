// Finding and loading plugin libraries with Boost.DLL. A LoadedPlugin owns its library: the
// KernelPlugin pointer and every hook stay valid exactly as long as the LoadedPlugin lives.
// Loading runs the plugin's code (static constructors, kbench_plugin()), so only the child
// processes load: the probe (plugin_probe.hpp) and the worker that runs a plugin's cases.
#pragma once

#include "plugin/plugin_info.hpp"

#include <kbench/plugin.h>

#include <boost/dll/shared_library.hpp>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kb {

// Told the name of each step of a load before it runs the plugin's code ("kbench_plugin()"), so
// that a probe that dies in it can say where.
using LoadStep = std::function<void(const char* step)>;

// A strategy (api set) or a family's referee (family set), and its library. `api` and `family`
// point to kbench's own copies of the descriptor, taken once it was validated, their strings the
// bounded copies in `info`: the plugin's code keeps running in the process that loaded it, and a
// later write to its own struct (another name, other flags, another hook after the first case;
// a strategy writing to its family's) changes nothing kbench reads.
struct LoadedPlugin {
  LoadedPlugin() = default;
  LoadedPlugin(const LoadedPlugin&) = delete;  // api and family point into the object
  LoadedPlugin& operator=(const LoadedPlugin&) = delete;

  boost::dll::shared_library library;
  const KernelPlugin* api = nullptr;
  const KernelFamily* family = nullptr;
  PluginInfo info;  // bounded copies of the descriptor's strings

 private:
  friend std::shared_ptr<const LoadedPlugin> load_plugin(const std::string&, const LoadStep&);
  KernelPlugin own_api_{};
  KernelFamily own_family_{};
  kb_family own_family_info_{};
};

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads one file and validates its descriptor (ABI version, struct size, name, hooks): a strategy
// when it exports kbench_plugin, else a family when it exports kbench_family. Throws LoadError
// with the reason.
std::shared_ptr<const LoadedPlugin> load_plugin(const std::string& file, const LoadStep& step = {});

// The folders searched, in order: the build's or installation's plugin folder next to the
// executable (<exe>/../lib/kbench/plugins), each entry of KBENCH_PLUGIN_PATH (colon-separated),
// then each --plugins folder. Never the current directory unless named.
std::vector<std::string> plugin_search_path(const std::vector<std::string>& extra_dirs);

struct LoadFailure {
  std::string file;
  std::string reason;
  // A library that loaded, skipped because an earlier folder's has its name: its name still runs.
  bool duplicate = false;
};

// The *.so files of the folders, each folder's sorted by name. A folder that does not exist is
// skipped silently when it is the first (the default one) and is a failure otherwise.
std::vector<std::string> plugin_files(const std::vector<std::string>& dirs,
                                      std::vector<LoadFailure>& failures);

// The folder holding the running executable, and the executable itself.
std::string executable_dir();
std::string executable_path();

}  // namespace kb
