// Held while a run with a chosen --run-id writes to a results file, so two processes never run
// the same run at once (two --resume started by mistake, a job submitted twice): the second is
// refused before it plans, instead of running the cases the first is running. The lock is a byte
// of FILE.lock chosen by the run id and shard (an OFD lock: per open file, released when the
// process ends however it ends); the file stays empty and may be deleted between runs.
#pragma once

#include <string>

namespace kb {

class RunLock {
 public:
  // Throws InputError naming the run and the file when another process holds it.
  RunLock(const std::string& results_path, const std::string& run_id, const std::string& shard);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace kb
