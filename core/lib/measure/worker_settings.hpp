// What a worker is told before its first case, each as one record on its request channel (instead
// of command-line options the user's option parser would read again): first the device it opens
// (`open`: a worker can be started and hold its CUDA context before the run knows which strategy
// it will serve), then the strategy it loads, how it times, and what its referee needs of it
// (`settings`). It answers each with a greeting (`opened`, `hello`) that says what went wrong, if
// anything.
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

Record encode_device_opening(int device);  // -1: a host worker, which opens no device
int decode_device_opening(const Record& record);

// A worker's answer to `open` or `settings`: empty when it is ready; `error` (the strategy's or the
// device's fault, which becomes the case's row) or `short_of` (kbench's own trouble: descriptors,
// memory, room for its temporary folder; it ends the run).
struct WorkerGreeting {
  std::string error, short_of;
  bool ready() const { return error.empty() && short_of.empty(); }
};
Record encode_worker_greeting(const WorkerGreeting& greeting);
WorkerGreeting decode_worker_greeting(const Record& record);

Record encode_worker_settings(const WorkerSettings& settings);
// A ProtocolError names a missing or malformed field.
WorkerSettings decode_worker_settings(const Record& record);

}  // namespace kb
