#include "referee_handle.hpp"

#include "plugin/loader.hpp"
#include "protocol/child_answers.hpp"

#include <stdexcept>

namespace kb {
namespace {

// Seconds the referee has to answer a request of the parent's: it answers from memory (a
// verdict, a channel) and never runs a family's hook for the parent.
constexpr int kAnswerMs = 60'000;
// Its greeting follows the device's bandwidth measurement and a CUDA context's creation.
constexpr int kGreetingMs = 120'000;

std::vector<std::string> referee_args(int device) {
  return {executable_path(), "referee", "--device", std::to_string(device)};
}

}  // namespace

RefereeHandle::RefereeHandle(int device) : RefereeHandle(device, PacketChannel::pair()) {}

RefereeHandle::RefereeHandle(int device, std::pair<PacketChannel, PacketChannel> control)
    : control_(std::move(control.first)),
      process_(referee_args(device), {control.second.fd()}) {
  std::string kind;
  Record hello;
  const auto received = process_.receive(kind, hello, kGreetingMs);
  RefereeGreeting greeting;
  if (received == WorkerProcess::Received::record && kind == "hello") {
    try {
      greeting = decode_greeting(hello);
    } catch (const std::exception& e) {
      greeting.error = std::string("its greeting: ") + e.what();
    }
  }
  if (received != WorkerProcess::Received::record || kind != "hello" || !greeting.error.empty()) {
    const std::string why = !greeting.error.empty() ? greeting.error
                            : received == WorkerProcess::Received::timeout
                                ? "no greeting within " + std::to_string(kGreetingMs / 1000) + " s"
                                : "it " + process_.finish();
    process_.kill();
    throw std::runtime_error("the referee could not start: " + why);
  }
  if (greeting.measured) bandwidth_ = *greeting.measured;
}

RefereeHandle::~RefereeHandle() {
  control_ = PacketChannel();  // its end of the control channel closes: it serves no more
  process_.finish();
}

std::string RefereeHandle::ask(const std::string& kind, const Record& fields, Record& answer,
                               const std::vector<int>& fds) {
  if (!alive_) return "";
  std::string reply;
  std::vector<OwnedFd> received;
  if (!control_.send(kind, fields, fds) ||
      control_.receive(reply, answer, received, kAnswerMs) != PacketChannel::Status::record) {
    alive_ = false;
    process_.kill();
    return "";
  }
  return reply;
}

std::optional<int> RefereeHandle::connect(PacketChannel& worker_end) {
  auto [ours, theirs] = PacketChannel::pair();
  Record answer;
  if (ask("connect", {}, answer, {ours.fd()}) != "connected") return std::nullopt;
  try {
    const int connection = decode_connection(answer);
    worker_end = std::move(theirs);
    return connection;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool RefereeHandle::announce(int connection, const RefereeCaseSpec& spec, std::string& why) {
  Record fields = encode_connection(connection);
  Record spec_fields = encode_case_spec(spec);
  fields.merge(spec_fields);
  Record answer;
  const std::string kind = ask("case", fields, answer);
  try {
    if (kind == "ready") {
      decode_bare(answer, "ready");
      return true;
    }
    why = kind == "refused" ? "the referee refused the case: " + decode_reason(answer)
          : kind.empty()    ? "the referee stopped answering before the case started"
                            : "the referee answered '" + kind + "' to the case";
  } catch (const std::exception& e) {
    why = std::string("the referee's answer to the case: ") + e.what();
  }
  return false;
}

std::optional<RefereeVerdict> RefereeHandle::verdict(int connection) {
  Record answer;
  if (ask("verdict", encode_connection(connection), answer) != "verdict") {
    return std::nullopt;
  }
  try {
    return decode_verdict(answer);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void RefereeHandle::disconnect(int connection) {
  Record answer;
  ask("disconnect", encode_connection(connection), answer);
}

}  // namespace kb
