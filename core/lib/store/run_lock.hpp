// Held while a run with a chosen --run-id writes to a results file, so two processes never run
// the same run at once (two --resume started by mistake, a job submitted twice, one through a
// symbolic link to the file): the second is refused before it plans, instead of running the cases
// the first is running. The lock is a byte of the results file itself (file_lock.hpp) chosen by
// the run id and the shard as its numbers say it ("00/2" is "0/2"); it is released when the
// process ends however it ends, and the file's content never changes for it.
#pragma once

#include <string>

namespace kb {

class RunLock {
 public:
  // `shard`: "i/N" as shard_name() writes it, or empty. Throws InputError naming the run and the
  // file when another process holds it.
  RunLock(const std::string& results_path, const std::string& run_id, const std::string& shard);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace kb
