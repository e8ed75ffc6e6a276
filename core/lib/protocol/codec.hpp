// The record kinds that cross several channels, each as one Record: a case (parent to worker or
// probe), its outcome (worker to parent) and a plugin's description (probe to parent, and inside
// other records). Each channel's own kinds have their codecs beside it: protocol/child_answers and
// protocol/kernel_request (the probe and the compile child), measure/worker_settings (the
// worker's opening, settings and greetings), referee/referee_messages (the referee's). Every
// number travels in full (seventeen digits for doubles), so what the reader gets is bit for bit
// what the writer had; every decoder reads each field once and refuses a record with a field
// missing, malformed or unknown, naming it.
#pragma once

#include "case/case_outcome.hpp"
#include "case/case_request.hpp"
#include "plugin/plugin_info.hpp"
#include "protocol/record.hpp"

#include <stdexcept>

namespace kb {

class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Record encode_case(const CaseRequest& request);
CaseRequest decode_case(const Record& record);

Record encode_outcome(const CaseOutcome& outcome);
CaseOutcome decode_outcome(const Record& record);

Record encode_plugin(const PluginInfo& info);
PluginInfo decode_plugin(const Record& record);

}  // namespace kb
