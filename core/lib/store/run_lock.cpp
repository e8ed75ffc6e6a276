#include "store/run_lock.hpp"

#include "util/input_error.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace kb {
namespace {

// FNV-1a: a stable byte offset per run, below 2^40.
off_t slot_of(const std::string& key) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char ch : key) hash = (hash ^ ch) * 1099511628211ull;
  return static_cast<off_t>(hash & ((std::uint64_t{1} << 40) - 1));
}

}  // namespace

RunLock::RunLock(const std::string& results_path, const std::string& run_id,
                 const std::string& shard) {
  const std::string path = results_path + ".lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError("cannot open lock file '" + path + "': " + std::strerror(errno));
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = slot_of(run_id + "\n" + shard);
  lock.l_len = 1;
  if (::fcntl(fd_, F_OFD_SETLK, &lock) != 0) {
    const int error = errno;
    ::close(fd_);
    if (error == EAGAIN || error == EACCES) {
      throw InputError("run '" + run_id + "'" + (shard.empty() ? "" : " shard " + shard) +
                       " is being run by another kbench on '" + results_path +
                       "'; wait for it to end, or choose another --run-id");
    }
    throw InputError("cannot lock '" + path + "': " + std::strerror(error));
  }
}

RunLock::~RunLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace kb
