#include "protocol/file_probe.hpp"

#include "protocol/child_answers.hpp"
#include "util/number_text.hpp"

#include <stdexcept>

namespace kb {

FileProbe::FileProbe(const std::string& executable, std::string file, int timeout_ms)
    : file_(std::move(file)),
      timeout_ms_(timeout_ms),
      process_(std::make_unique<WorkerProcess>(std::vector<std::string>{executable, "probe"})) {}

FileProbe::Answer FileProbe::ask(const std::string& kind, Record fields) {
  Answer answer;
  if (!process_) {
    answer.failure = "its probe process had ended";
    return answer;
  }
  // The step the probe last said it entered names where it died.
  std::string step = kind == "accepts" ? "accepts()"
                     : kind == "kernel" ? "checking the kernel file"
                                        : "loading";
  fields["file"] = file_;
  if (process_->send(kind, fields)) {
    while (true) {
      const auto status = process_->receive(answer.kind, answer.fields, timeout_ms_);
      using Received = WorkerProcess::Received;
      if (status == Received::record && answer.kind == "step") {
        try {
          step = decode_step(answer.fields);
        } catch (const ProtocolError& e) {
          answer.failure = step + ": probe protocol error: " + e.what();
          break;
        }
        ran_plugin_code_ = true;
        continue;
      }
      if (status == Received::record && answer.kind == "short") {
        // Before the plugin's code ran, the probe found kbench short (descriptors, memory, room
        // for its temporary folder): no file is to blame.
        if (!ran_plugin_code_) throw std::runtime_error(decode_reason(answer.fields));
        answer.failure = step + " left its probe process short of descriptors or memory";
        break;
      }
      if (status == Received::record) return answer;
      if (status == Received::out_of_step) {
        // The plugin's code wrote on the probe's channel: nothing more it says can be trusted.
        answer.failure = step + " wrote on kbench's answer channel ('" + answer.kind + "')";
        break;
      }
      if (status == Received::timeout) {
        answer.timed_out = true;
        answer.failure = step + " gave no answer within " +
                         significant_text(timeout_ms_ / 1000.0) + " s; its process was killed";
        break;
      }
      answer.failure = step + " " + process_->finish();
      break;
    }
  } else {
    answer.failure = step + " " + process_->finish();
  }
  process_.reset();  // kills it, if it still runs
  answer.kind.clear();
  answer.fields.clear();
  return answer;
}

}  // namespace kb
