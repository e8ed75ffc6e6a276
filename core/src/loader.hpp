// Finding and loading plugin libraries with Boost.DLL. A LoadedPlugin owns its library: the
// KernelPlugin pointer and every hook stay valid exactly as long as the LoadedPlugin lives.
#pragma once

#include <kbench/plugin.h>

#include <boost/dll/shared_library.hpp>
#include <boost/filesystem/path.hpp>

#include <memory>
#include <string>
#include <vector>

namespace kb {

struct LoadedPlugin {
  boost::dll::shared_library library;
  const KernelPlugin* api = nullptr;
  std::string file;
};

struct LoadFailure {
  std::string file;
  std::string reason;
};

struct Discovery {
  std::vector<std::shared_ptr<const LoadedPlugin>> plugins;  // sorted by name
  std::vector<LoadFailure> failures;
};

// The folders searched, in order: the build's or installation's plugin folder next to the
// executable (<exe>/../lib/kbench/plugins), each entry of KBENCH_PLUGIN_PATH (colon-separated),
// then each --plugins folder. Never the current directory unless named.
std::vector<std::string> plugin_search_path(const std::vector<std::string>& extra_dirs);

// Loads one file and validates it; throws LoadError with the reason.
std::shared_ptr<const LoadedPlugin> load_plugin(const std::string& file);

// Loads every *.so in the folders (a folder that does not exist is skipped silently when it is
// the default one, and reported otherwise). A bad file is recorded in failures, the rest load.
// A name already loaded from an earlier file is a failure of the later file.
Discovery discover_plugins(const std::vector<std::string>& dirs);

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The folder holding the running executable.
std::string executable_dir();

}  // namespace kb
