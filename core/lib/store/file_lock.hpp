// Locks that belong to a results file itself, not to a name of it: byte-range OFD locks on the
// file's own inode, far past any data it will hold (a lock past the end neither grows the file
// nor stops a reader). Two paths to one file (a symbolic link, a hard link, a bind mount, another
// machine over NFS) therefore meet on the same locks, which a lock file beside one name does not.
// OFD locks belong to the open file, not the process: two threads or two opens in one process
// exclude each other, and every lock goes when its descriptor closes, however the process ends.
// They are byte-range locks also for NFS, where flock() would be emulated with whole-file ones
// that conflict with the run locks.
#pragma once

#include <sys/types.h>

namespace kb {

// The byte every appender of the file locks while it repairs, checks and appends.
inline constexpr off_t kAppendLockByte = off_t{1} << 61;
// Where the run locks start: one byte per run id and shard, below 2^40 bytes further.
inline constexpr off_t kRunLockBase = off_t{1} << 62;
inline constexpr off_t kRunLockSpan = off_t{1} << 40;

// Locks one byte of `fd` for writing: waits for it when `wait`, else returns false at once when
// another open file holds it. Any other failure sets errno and returns false too.
bool lock_byte(int fd, off_t byte, bool wait);
void unlock_byte(int fd, off_t byte);
// Whether another open file holds a lock on any of the `length` bytes from `first`; false also
// when the system cannot say (errno set).
bool range_locked(int fd, off_t first, off_t length);

}  // namespace kb
