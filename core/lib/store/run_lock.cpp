#include "store/run_lock.hpp"

#include "store/file_lock.hpp"
#include "util/input_error.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace kb {
namespace {

// FNV-1a: a stable byte per run, below 2^40 past kRunLockBase.
off_t slot_of(const std::string& key) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char ch : key) hash = (hash ^ ch) * 1099511628211ull;
  return static_cast<off_t>(hash & static_cast<std::uint64_t>(kRunLockSpan - 1));
}

}  // namespace

RunLock::RunLock(const std::string& results_path, const std::string& run_id,
                 const std::string& shard) {
  // The results store has opened (and created) the file: this opens the same one.
  fd_ = ::open(results_path.c_str(), O_RDWR | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0) {
    throw InputError("cannot open results file '" + results_path + "': " + std::strerror(errno));
  }
  if (!lock_byte(fd_, kRunLockBase + slot_of(run_id + "\n" + shard), /*wait=*/false)) {
    const int error = errno;
    ::close(fd_);
    if (error == EAGAIN || error == EACCES) {
      throw InputError("run '" + run_id + "'" + (shard.empty() ? "" : " shard " + shard) +
                       " is being run by another kbench on '" + results_path +
                       "'; wait for it to end, or choose another --run-id");
    }
    throw InputError("cannot lock results file '" + results_path + "': " + std::strerror(error));
  }
}

RunLock::~RunLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace kb
