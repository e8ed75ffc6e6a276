#include "store/file_lock.hpp"

#include <fcntl.h>

#include <cerrno>

namespace kb {
namespace {

int lock(int fd, off_t byte, short type, int command) {
  struct flock range {};
  range.l_type = type;
  range.l_whence = SEEK_SET;
  range.l_start = byte;
  range.l_len = 1;
  int result = 0;
  while ((result = ::fcntl(fd, command, &range)) != 0 && errno == EINTR) {
  }
  return result;
}

}  // namespace

bool lock_byte(int fd, off_t byte, bool wait) {
  return lock(fd, byte, F_WRLCK, wait ? F_OFD_SETLKW : F_OFD_SETLK) == 0;
}

void unlock_byte(int fd, off_t byte) { lock(fd, byte, F_UNLCK, F_OFD_SETLK); }

bool range_locked(int fd, off_t first, off_t length) {
  struct flock range {};
  range.l_type = F_WRLCK;  // conflicts with any lock another open file holds there
  range.l_whence = SEEK_SET;
  range.l_start = first;
  range.l_len = length;
  return ::fcntl(fd, F_OFD_GETLK, &range) == 0 && range.l_type != F_UNLCK;
}

}  // namespace kb
