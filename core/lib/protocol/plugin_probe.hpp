// Loading plugins and asking them which cases they accept, in a child process: `kbench probe`.
// A plugin's kbench_plugin(), its static constructors and its accepts() are untrusted code; run
// in the probe, a crash, an exit() or an endless loop there costs that plugin alone, never the
// parent (`list`, `run`, `validate`). One probe serves every file; when one dies or hangs, the
// file it was on is reported and a fresh probe goes on with the others.
#pragma once

#include "case/case_outcome.hpp"
#include "case/case_request.hpp"
#include "plugin/loader.hpp"
#include "plugin/plugin_info.hpp"
#include "protocol/codec.hpp"
#include "protocol/worker_process.hpp"

#include <map>
#include <memory>
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
  PluginProbe(std::string executable, double timeout_seconds);

  // Loads every *.so of the folders (plugin_files), each name once (a later file with a name
  // already loaded is a failure of that file).
  Discovery discover(const std::vector<std::string>& dirs);

  // One file; the reason in `failure` when it cannot be used.
  std::shared_ptr<const PluginInfo> load(const std::string& file, std::string& failure);

  Acceptance accepts(const PluginInfo& plugin, const CaseRequest& request);

 private:
  struct Answer {
    std::string kind;  // empty when the probe died or hung
    Record fields;
    std::string failure;  // then: "kbench_plugin() killed by signal 11 (Segmentation fault)"
    bool timed_out = false;
  };
  Answer ask(const std::string& kind, const Record& fields);
  Answer ask_once(const std::string& kind, const Record& fields);

  std::string executable_;
  int timeout_ms_;
  std::unique_ptr<WorkerProcess> child_;
  std::map<std::string, CaseOutcome> faulted_;  // file -> the outcome of its accepts() fault
};

}  // namespace kb
