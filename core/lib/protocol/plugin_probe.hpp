// Loading plugins and asking them which cases they accept, in child processes: `kbench probe`.
// A plugin's kbench_plugin(), its static constructors and its accepts() are untrusted code; run
// in a probe, a crash, an exit() or an endless loop there costs that plugin alone, never the
// parent (`list`, `run`, `validate`). Each file has a probe of its own (file_probe.hpp): what a
// plugin's code does to its probe touches no other plugin's answers. The files of the folders are
// loaded by several probes at a time; the probe of a file whose accepts() will be asked stays for
// the questions.
#pragma once

#include "case/case_outcome.hpp"
#include "case/case_request.hpp"
#include "plugin/loader.hpp"
#include "plugin/plugin_info.hpp"
#include "protocol/codec.hpp"
#include "protocol/file_probe.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kb {

struct Discovery {
  std::vector<std::shared_ptr<const PluginInfo>> plugins;  // strategies, sorted by name
  std::vector<std::shared_ptr<const PluginInfo>> families;  // family libraries, in search order
  std::vector<LoadFailure> failures;  // files refused by the loader, or whose loading crashed or hung
};

// A plugin's answer about one case.
struct Acceptance {
  bool accepted = false;
  std::string reason;  // the plugin's why, when it refuses
  // When accepts() crashed or hung: the outcome the case is recorded with (`crashed` or
  // `timeout`, and why), and every later case of the plugin too, without asking again.
  std::optional<CaseOutcome> fault;
};

class PluginProbe {
 public:
  // `executable` is the kbench binary; a load or an accepts() over `timeout_seconds` is a hang.
  // A WriteError when the temporary folder has no room for the probes' own folders.
  PluginProbe(std::string executable, double timeout_seconds);
  ~PluginProbe();  // ends the probes it kept
  PluginProbe(const PluginProbe&) = delete;
  PluginProbe& operator=(const PluginProbe&) = delete;

  // Loads every *.so of the folders (plugin_files), each name once (a later file with a name
  // already loaded is a failure of that file).
  Discovery discover(const std::vector<std::string>& dirs);

  // One file, in a probe started on this thread (or the one kept for it); the reason in `failure`
  // when it cannot be used.
  std::shared_ptr<const PluginInfo> load(const std::string& file, std::string& failure);

  // A kernel file's acceptance is its manifest's (plugin/kernel_manifest.hpp), decided here: a
  // manifest runs no code.
  Acceptance accepts(const PluginInfo& plugin, const CaseRequest& request);

  // A kernel file's check before a run, in a probe of its own: its manifest bound to its family's
  // library and its operands held to the family's (its code is compiled by `kbench compile`, which
  // runs no plugin code: kernel_parts.hpp).
  struct KernelBuild {
    bool built = false;
    std::string failure;  // one line, when not built
    std::string summary;  // when built
    std::map<std::size_t, std::string> unsupported;  // case index -> why its launch cannot be formed
  };
  KernelBuild build_kernel(const PluginInfo& kernel, const std::vector<CaseRequest>& cases,
                           int device);

 private:
  struct Kept {
    std::unique_ptr<FileProbe> probe;
    std::uint64_t last_used = 0;
  };
  // A probe of `file` started (on this thread: it ends with the thread), or the one kept for it.
  std::unique_ptr<FileProbe> probe_of(const std::string& file);
  // Keeps a probe still running for later questions, ending the least recently used past the bound.
  void keep(std::unique_ptr<FileProbe> probe);
  // Loads the probe's file in it (on any thread: keeping the probe is thread-safe).
  std::shared_ptr<const PluginInfo> load_with(std::unique_ptr<FileProbe> probe,
                                              std::string& failure);

  std::string executable_;
  int timeout_ms_;
  std::mutex kept_mutex_;
  std::map<std::string, Kept> kept_;  // by file
  std::uint64_t uses_ = 0;
  std::map<std::string, CaseOutcome> faulted_;  // file -> the outcome of its accepts() fault
};

}  // namespace kb
