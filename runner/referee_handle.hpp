// The parent's handle on one referee process (`kbench referee`): one per device a lane runs cases
// on, started before its first worker and kept for the run. It measures the device's roofs in its
// greeting (no plugin code has run in it), judges every version 3 case of its workers, and tells
// the parent each case's verdict. When it dies or stops answering, the case in flight is an
// error and the next case starts a fresh one.
#pragma once

#include "device/bandwidth.hpp"
#include "protocol/packet_channel.hpp"
#include "protocol/worker_process.hpp"
#include "referee/referee_messages.hpp"

#include <optional>
#include <string>

namespace kb {

class RefereeHandle {
 public:
  // Starts it on `device` (-1: host cases only) and reads its greeting. Throws ShortOfResources
  // when kbench cannot start it, std::runtime_error when it could not measure the device.
  explicit RefereeHandle(int device);
  ~RefereeHandle();
  RefereeHandle(const RefereeHandle&) = delete;
  RefereeHandle& operator=(const RefereeHandle&) = delete;

  const MeasuredBandwidth& bandwidth() const { return bandwidth_; }
  pid_t pid() const { return process_.pid(); }
  // False once it stopped answering (it is then killed).
  bool alive() const { return alive_; }

  // A channel for a new worker: the referee keeps one end; `worker_end` is the other, for the
  // worker's descriptor 4. Nothing when the referee does not answer.
  std::optional<int> connect(PacketChannel& worker_end);
  // The case the worker on `connection` runs next, as the run planned it; false with `why` (the
  // referee's words, or that it stopped answering) when it will not judge it.
  bool announce(int connection, const RefereeCaseSpec& spec, std::string& why);
  // What the referee saw of the connection's case (and the case freed); nothing when it does not
  // answer.
  std::optional<RefereeVerdict> verdict(int connection);
  void disconnect(int connection);

 private:
  // A request on the control channel and its answer's kind; "" when there is none in time.
  std::string ask(const std::string& kind, const Record& fields, Record& answer,
                  const std::vector<int>& fds = {});

  RefereeHandle(int device, std::pair<PacketChannel, PacketChannel> control);

  PacketChannel control_;  // before the process, which is started with the other end
  WorkerProcess process_;
  MeasuredBandwidth bandwidth_;
  bool alive_ = true;
};

}  // namespace kb
