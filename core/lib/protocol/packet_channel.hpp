// One end of a channel of whole records between two processes: a SOCK_SEQPACKET socket pair, one
// record per packet (never a partial or merged line), each packet able to carry descriptors
// (SCM_RIGHTS: a shared-memory operand, the other end of a new channel). Unlike a pipe, a socket
// cannot be opened again through /proc/self/fd: a process that holds one end can write on that end
// only, and a record it writes reaches the other end, never its own.
#pragma once

#include "protocol/record.hpp"

#include <string>
#include <vector>

namespace kb {

// A descriptor received, closed when dropped unless taken.
class OwnedFd {
 public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd_(fd) {}
  ~OwnedFd();
  OwnedFd(OwnedFd&& other) noexcept : fd_(other.release()) {}
  OwnedFd& operator=(OwnedFd&& other) noexcept;
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

class PacketChannel {
 public:
  PacketChannel() = default;
  explicit PacketChannel(int fd) : fd_(fd) {}
  PacketChannel(PacketChannel&& other) noexcept : fd_(other.fd_.release()) {}
  PacketChannel& operator=(PacketChannel&& other) noexcept = default;

  // Both ends of a new channel, close-on-exec. A runtime_error when the system has no descriptors
  // left.
  static std::pair<PacketChannel, PacketChannel> pair();

  // False when the other end is gone.
  bool send(const std::string& kind, const Record& fields, const std::vector<int>& fds = {}) const;

  enum class Status { record, ended, timeout, malformed };
  // timeout_ms < 0 waits for ever. `fds`: the descriptors the packet carried (none kept for a
  // malformed one).
  Status receive(std::string& kind, Record& fields, std::vector<OwnedFd>& fds,
                 int timeout_ms = -1) const;

  int fd() const { return fd_.get(); }
  // The descriptor, given up (a child's end, placed by the spawn).
  int release() { return fd_.release(); }

  // A record's largest packet: far beyond any (a verdict's message is 1 KiB at most).
  static constexpr std::size_t kLargestPacket = std::size_t{1} << 20;

 private:
  OwnedFd fd_;
};

}  // namespace kb
