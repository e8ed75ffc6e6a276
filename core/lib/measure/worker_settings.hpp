// What a worker is told before its first case, as one record on its request channel (instead of
// command-line options the user's option parser would read again): the strategy it loads, how it
// times, and what its referee needs of it.
#pragma once

#include "measure/timing_options.hpp"
#include "plugin/plugin_info.hpp"
#include "protocol/record.hpp"

#include <optional>
#include <string>

namespace kb {

struct WorkerSettings {
  // The strategy: a plugin's library, or a kernel file run by kbench's own strategy (refused if its
  // content changed since the run planned it).
  std::string plugin_file, kernel_file, kernel_sha256;
  std::string planned_as;  // the strategy's planned_identity(): the worker refuses any other
  // The family the strategy belongs to, as the probe described it (a kernel file binds to it), and
  // its library where a version 1 or 2 plugin's work is counted by it. A version 3 strategy's
  // family is never loaded in the worker: it runs in the referee.
  std::optional<PluginInfo> family;
  std::string family_file;
  int device = -1;
  bool refereed = false;  // descriptor 4 is the referee's channel
  int referee_pid = 0;    // the referee process, which the worker may not signal (0: none)
  TimingOptions timing;
};

Record encode_worker_settings(const WorkerSettings& settings);
// A ProtocolError names a missing or malformed field.
WorkerSettings decode_worker_settings(const Record& record);

}  // namespace kb
