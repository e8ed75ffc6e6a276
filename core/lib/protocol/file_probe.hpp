// One probe process (`kbench probe`) and the one file it serves: it loads that plugin file (or
// family library, or kernel file's family) alone and answers questions about it alone. A plugin
// whose code takes over its probe's answer channel (a constructor relaying it, a forged record
// with the right number) can so lie about itself only, never decide another plugin's cases.
//
// Before each step that runs the plugin's code the probe says so (`step`): a crash or a hang is
// named by the step it happened in, and a shortage the probe reports (`short`: descriptors,
// memory, no room for its temporary folder) is kbench's own trouble only when it came before any
// such step; after one, the plugin's code may have used the descriptors up, or forged the report,
// and it is the file's.
#pragma once

#include "protocol/record.hpp"
#include "protocol/worker_process.hpp"

#include <memory>
#include <string>

namespace kb {

class FileProbe {
 public:
  // Starts the probe; a ShortOfResources when kbench cannot (kbench's own trouble).
  FileProbe(const std::string& executable, std::string file, int timeout_ms);

  struct Answer {
    std::string kind;  // empty when the probe died, hung or wrote out of turn (then ended)
    Record fields;
    std::string failure;  // then: "kbench_plugin() killed by signal 11 (Segmentation fault)"
    bool timed_out = false;
  };
  // A request about the file (`fields` without it) and its answer. A runtime_error when the probe
  // says kbench ran short before any of the plugin's code ran: that ends the command.
  Answer ask(const std::string& kind, Record fields);

  const std::string& file() const { return file_; }
  // False once the probe ended: a question to it would go unanswered.
  bool running() const { return process_ != nullptr; }

 private:
  std::string file_;
  int timeout_ms_;
  std::unique_ptr<WorkerProcess> process_;
  bool ran_plugin_code_ = false;
};

}  // namespace kb
