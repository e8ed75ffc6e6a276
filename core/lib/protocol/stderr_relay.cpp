#include "protocol/stderr_relay.hpp"

#include "protocol/record.hpp"
#include "util/short_of_resources.hpp"
#include "util/terminal_text.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>

namespace kb {
namespace {

// A line longer than this is shown in pieces: what is held back waiting for a line feed is bounded.
constexpr std::size_t kLongestHeldLine = 64 * 1024;

}  // namespace

StderrRelay::StderrRelay(int from) : from_(from), stop_(::eventfd(0, EFD_CLOEXEC)) {
  const auto cannot = [&](const std::string& why) {
    ::close(from_);
    if (stop_ >= 0) ::close(stop_);
    return ShortOfResources("relay a child's standard error", why);
  };
  if (stop_ < 0) throw cannot(std::string("eventfd: ") + std::strerror(errno));
  // Never blocks once stopping: what a descendant still writes is not waited for.
  ::fcntl(from_, F_SETFL, ::fcntl(from_, F_GETFL) | O_NONBLOCK);
  try {
    thread_ = std::thread(&StderrRelay::relay, this);
  } catch (const std::system_error& e) {
    throw cannot(e.what());
  }
}

StderrRelay::~StderrRelay() {
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t written = ::write(stop_, &one, sizeof one);
  thread_.join();
  ::close(from_);
  ::close(stop_);
}

void StderrRelay::relay() {
  std::string held;
  // Shown up to the last line feed (or all of it), each piece in one write.
  const auto show = [&](bool all) {
    std::size_t end = all ? held.size() : held.rfind('\n') + 1;  // npos + 1 == 0: none
    if (end == 0 && held.size() >= kLongestHeldLine) end = held.size();
    if (end == 0) return;
    std::string shown = terminal_text(std::string_view(held).substr(0, end), /*keep_newlines=*/true);
    if (shown.back() != '\n') shown += '\n';
    write_text(2, shown);  // kbench's standard error closed or gone: nothing to do about it
    held.erase(0, end);
  };
  pollfd waiting[2] = {{from_, POLLIN, 0}, {stop_, POLLIN, 0}};
  bool stopping = false;
  char buffer[4096];
  while (true) {
    if (!stopping) {
      if (::poll(waiting, 2, -1) < 0 && errno != EINTR) break;
      stopping = (waiting[1].revents & POLLIN) != 0;
    }
    const ssize_t n = ::read(from_, buffer, sizeof buffer);
    if (n > 0) {
      held.append(buffer, static_cast<std::size_t>(n));
      show(false);
    } else if (n == 0 || (errno != EINTR && (errno != EAGAIN || stopping))) {
      break;  // the end of the stream, or all there was once stopping
    }
  }
  show(true);
}

}  // namespace kb
