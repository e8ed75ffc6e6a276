// The parent's handle on one child process: a worker (`kbench worker`, one plugin on one device)
// a probe (`kbench probe`) or a referee (`kbench referee`). Requests go to its standard input;
// answers come back on its descriptor 3, each tied to the request it answers (sequence.hpp); both
// are sockets, which no process can open again through /proc. It starts with SIGINT,
// SIGTERM and SIGHUP blocked: only the parent ends it. It leads a process group of its own, so
// that whatever it starts (a plugin's helper, a shell) ends with it: a descendant holding the
// answer channel or the terminal open can neither turn a crash into a timeout nor keep `kbench
// run`'s output open after the run.
#pragma once

#include "protocol/record.hpp"
#include "protocol/stderr_relay.hpp"

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kb {

class WorkerProcess {
 public:
  // args[0] is the executable; `inherited` become its descriptors 4, 5, ... (a channel to the
  // referee). A runtime_error when kbench cannot start it (no descriptors left, no processes):
  // kbench's own trouble, never the plugin's.
  explicit WorkerProcess(const std::vector<std::string>& args,
                         const std::vector<int>& inherited = {});
  ~WorkerProcess();  // kills it (and its descendants) if still running
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Sends a request, numbered: the answers to it must carry its number.
  bool send(const std::string& kind, const Record& fields);

  enum class Received {
    record,       // an answer to the last request (or, before any, the child's greeting)
    timeout,      // nothing within the time given
    ended,        // the child ended (seen from its exit, not its channel); finish() says how
    out_of_step,  // a line that is no answer to the last request: `kind` and `fields` hold it
  };
  Received receive(std::string& kind, Record& fields, int timeout_ms);

  // Closes its input and waits for it to finish; describes how it ended.
  std::string finish();
  // SIGKILL to its process group, and wait.
  void kill();
  pid_t pid() const { return pid_; }
  // After it ended: the signal that ended it, 0 when it exited.
  int signal() const { return signal_; }
  // The number of the last request sent.
  std::uint64_t sequence() const { return sequence_; }

 private:
  std::string wait_for_exit();
  pid_t pid_ = -1;
  int signal_ = 0;
  int to_worker_ = -1;
  int from_worker_ = -1;
  int ended_ = -1;  // its pidfd, readable once it ended; -1 where the kernel has none
  std::uint64_t sequence_ = 0;
  bool sent_ = false;
  LineReader reader_{-1};
  std::unique_ptr<StderrRelay> errors_;  // its standard error, escaped onto kbench's
};

// "killed by signal 11 (Segmentation fault)", "exited with code 3".
std::string describe_exit(int wait_status);

}  // namespace kb
