// The parent's handle on one child process: a worker (`kbench worker`, one plugin on one device)
// or a probe (`kbench probe`). Requests go to its standard input; answers come back on its
// descriptor 3. It starts with SIGINT, SIGTERM and SIGHUP blocked: only the parent ends it.
#pragma once

#include "protocol/record.hpp"

#include <sys/types.h>

#include <string>
#include <vector>

namespace kb {

class WorkerProcess {
 public:
  explicit WorkerProcess(const std::vector<std::string>& args);  // args[0] is the executable
  ~WorkerProcess();                                               // kills it if still running
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  bool send(const std::string& kind, const Record& fields);
  // Reads the next record; timeout or end of stream otherwise.
  LineReader::Status receive(std::string& kind, Record& fields, int timeout_ms);

  // Closes its input and waits for it to finish; describes how it ended.
  std::string finish();
  // SIGKILL and wait.
  void kill();
  pid_t pid() const { return pid_; }
  // After it ended: the signal that ended it, 0 when it exited.
  int signal() const { return signal_; }

 private:
  std::string wait_for_exit();
  pid_t pid_ = -1;
  int signal_ = 0;
  int to_worker_ = -1;
  int from_worker_ = -1;
  LineReader reader_{-1};
};

// "killed by signal 11 (Segmentation fault)", "exited with code 3".
std::string describe_exit(int wait_status);

}  // namespace kb
