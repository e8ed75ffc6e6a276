#include "protocol/packet_channel.hpp"

#include "util/short_of_resources.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

namespace kb {
namespace {

// More than any record carries (a case's operands: 2 x KB_MAX_OPERANDS).
constexpr std::size_t kMostFds = 16;

}  // namespace

OwnedFd::~OwnedFd() {
  if (fd_ >= 0) ::close(fd_);
}

OwnedFd& OwnedFd::operator=(OwnedFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

std::pair<PacketChannel, PacketChannel> PacketChannel::pair() {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
    throw ShortOfResources("open a channel between processes",
                           std::string("socketpair: ") + std::strerror(errno));
  }
  return {PacketChannel(ends[0]), PacketChannel(ends[1])};
}

bool PacketChannel::send(const std::string& kind, const Record& fields,
                         const std::vector<int>& fds) const {
  const std::string text = encode_record(kind, fields);
  iovec part{const_cast<char*>(text.data()), text.size()};
  msghdr message{};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMostFds)];
  if (!fds.empty()) {
    if (fds.size() > kMostFds) return false;
    message.msg_control = control;
    message.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(header), fds.data(), sizeof(int) * fds.size());
  }
  while (true) {
    const ssize_t sent = ::sendmsg(fd_.get(), &message, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    return sent == static_cast<ssize_t>(text.size());
  }
}

PacketChannel::Status PacketChannel::receive(std::string& kind, Record& fields,
                                             std::vector<OwnedFd>& fds, int timeout_ms) const {
  fds.clear();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    int wait_ms = -1;
    if (timeout_ms >= 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      wait_ms = static_cast<int>(std::max<long long>(left.count(), 0));
    }
    pollfd ready{fd_.get(), POLLIN, 0};
    const int polled = ::poll(&ready, 1, wait_ms);
    if (polled < 0 && errno == EINTR) continue;
    if (polled == 0) return Status::timeout;
    break;
  }
  thread_local std::vector<char> buffer(kLargestPacket);
  iovec part{buffer.data(), buffer.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMostFds)];
  msghdr message{};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  ssize_t got = 0;
  do {
    got = ::recvmsg(fd_.get(), &message, MSG_CMSG_CLOEXEC);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) return Status::ended;
  for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int fd = -1;
      std::memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
      fds.emplace_back(fd);
    }
  }
  // A packet cut short (MSG_TRUNC, MSG_CTRUNC) or without its line feed is no record.
  if ((message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0 || buffer[got - 1] != '\n') {
    fds.clear();
    return Status::malformed;
  }
  if (!decode_record(std::string(buffer.data(), static_cast<std::size_t>(got - 1)), kind, fields)) {
    fds.clear();
    return Status::malformed;
  }
  return Status::record;
}

}  // namespace kb
