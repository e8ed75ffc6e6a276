// `kbench referee --device N`: the child side that judges. It never loads a strategy: it measures
// the device's bandwidth roofs (the facts a row is held to) before any plugin code runs anywhere on
// its behalf, says them in its greeting, then serves the parent and the workers (referee_service.hpp)
// until the parent closes its control channel (descriptor 4).
#include "child/child_commands.hpp"
#include "device/bandwidth.hpp"
#include "device/device_info.hpp"
#include "protocol/packet_channel.hpp"
#include "protocol/record.hpp"
#include "protocol/sandbox.hpp"
#include "protocol/sequence.hpp"
#include "referee/referee_messages.hpp"
#include "referee/referee_service.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>

namespace kb {
namespace {

constexpr int kGreetingFd = 3;
constexpr int kControlFd = 4;

}  // namespace

int referee_command(const std::vector<std::string>& args) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  signal(SIGINT, SIG_IGN);
  if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, 1), ::close(null);
  const int device = args.size() == 2 && args[0] == "--device" ? std::atoi(args[1].c_str()) : -1;
  RefereeGreeting greeting;
  try {
    // Nothing the referee waits for is timed by its host clock (its roofs are timed by events).
    if (device >= 0) open_device(device, HostWait::sleep);
    enter_sandbox();
    if (device >= 0) greeting.measured = measure_bandwidth(device);
  } catch (const std::exception& e) {
    greeting.error = e.what();
  }
  Record hello = encode_greeting(greeting);
  set_sequence(hello, 0);
  if (!write_text(kGreetingFd, encode_record("hello", hello)) || !greeting.error.empty()) return 1;
  serve_referee(PacketChannel(kControlFd), device);
  return 0;
}

}  // namespace kb
