#include "measure/remote_refereed_case.hpp"

#include "measure/launch.hpp"
#include "measure/page_touch.hpp"
#include "util/plugin_text.hpp"

#include <kbench/support/error.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iterator>

namespace kb {
namespace {

// The standard output's file is emptied between samples once it holds this much: a strategy that
// prints in every launch (hello/printf) would otherwise fill memory over a case's samples.
constexpr off_t kLargestOutputFile = off_t{1} << 20;

void say(kb_message& message, const std::string& text) {
  std::snprintf(message.text, sizeof message.text, "%s", text.c_str());
}

// A `failed` answer, its words in `message`; a malformed one is the referee's error.
RefereeFailure failure_of(const Record& fields, kb_message& message) {
  RefereeFailure failure{KB_ERROR, "referee", ""};
  try {
    failure = decode_failure(fields);
  } catch (const std::exception& e) {
    failure.message = std::string("the referee's answer: ") + e.what();
  }
  say(message, failure.message);
  return failure;
}

// The row names the family hook that failed, as the referee said.
const char* known_stage(const std::string& said) {
  for (const char* stage : {"family work", "family create", "family draw", "shared operands"}) {
    if (said == stage) return stage;
  }
  return "referee";
}

}  // namespace

RemoteRefereedCase::RemoteRefereedCase(const KernelPlugin& strategy, const PacketChannel& referee,
                                       KeptMappings& kept, int output_fd)
    : strategy_(strategy), referee_(referee), kept_(kept), output_fd_(output_fd) {}

RemoteRefereedCase::~RemoteRefereedCase() {
  if (strategy_state_ != nullptr && strategy_.release != nullptr) strategy_.release(strategy_state_);
  // The host mappings kept for a later case; the device ones closed here, before the referee
  // frees what they map.
  kept_.keep(inputs_);
  kept_.keep(outputs_);
  if (created_) {
    kb_message ignored{};
    step("destroy", encode_bare(), ignored);
  }
}

CaseSetup RemoteRefereedCase::set_up(const KernelPlugin& strategy, const PacketChannel& referee,
                                     KeptMappings& kept, const CaseRequest& request,
                                     int output_fd) {
  CaseSetup made;
  std::unique_ptr<RemoteRefereedCase> test(
      new RemoteRefereedCase(strategy, referee, kept, output_fd));
  const auto failed = [&](kb_status status, const char* stage) {
    made.status = status;
    made.stage = stage;
    return std::move(made);
  };
  std::vector<int> attached;
  if (output_fd >= 0) attached.push_back(output_fd);
  if (!referee.send("create", encode_bare(), attached)) {
    say(made.message, "the referee is gone");
    return failed(KB_ERROR, "referee");
  }
  std::string kind;
  Record fields;
  std::vector<OwnedFd> fds;
  if (referee.receive(kind, fields, fds) != PacketChannel::Status::record) {
    say(made.message, "the referee did not answer");
    return failed(KB_ERROR, "referee");
  }
  if (kind == "failed") {
    const RefereeFailure failure = failure_of(fields, made.message);
    return failed(failure.status, known_stage(failure.stage));
  }
  test->created_ = kind == "operands";
  if (!test->created_) {
    say(made.message, "the referee answered '" + kind + "' to 'create'");
    return failed(KB_ERROR, "referee");
  }
  try {
    const RefereeOperands operands = decode_operands(fields);
    test->work_ = kb_work{operands.bytes, operands.flops};
    test->note_ = operands.note;
    std::vector<OperandLayout> layouts = operands.inputs;
    layouts.insert(layouts.end(), operands.outputs.begin(), operands.outputs.end());
    std::vector<int> memory_fds;
    if (strategy.device == KB_DEVICE_HOST) {
      for (auto& fd : fds) memory_fds.push_back(fd.release());
    }
    auto mapped = map_shared_operands(kept, strategy.device, layouts, std::move(memory_fds));
    const auto first_output = mapped.begin() + static_cast<std::ptrdiff_t>(operands.inputs.size());
    test->outputs_.assign(std::make_move_iterator(first_output),
                          std::make_move_iterator(mapped.end()));
    mapped.resize(operands.inputs.size());
    test->inputs_ = std::move(mapped);
  } catch (const Error& e) {
    say(made.message, e.what());
    return failed(e.status(), "shared operands");
  } catch (const std::exception& e) {
    say(made.message, e.what());
    return failed(KB_ERROR, "shared operands");
  }
  Handed& handed = *test->handed_;
  handed.op = request.op;
  handed.params = request.params;
  handed.c = request.to_abi();
  handed.c.seed = 0;
  handed.c.op = handed.op.c_str();
  handed.c.params = handed.params.c_str();
  handed.buffers.input_count = static_cast<std::uint32_t>(test->inputs_.size());
  handed.buffers.output_count = static_cast<std::uint32_t>(test->outputs_.size());
  for (std::size_t i = 0; i < test->inputs_.size(); ++i) {
    handed.buffers.inputs[i] = test->inputs_[i]->operand();
  }
  for (std::size_t i = 0; i < test->outputs_.size(); ++i) {
    handed.buffers.outputs[i] = test->outputs_[i]->operand();
  }
  if (strategy.prepare != nullptr) {
    if (const kb_status s = strategy.prepare(&handed.c, &handed.buffers, &test->strategy_state_,
                                             &made.message);
        s) {
      test->strategy_state_ = nullptr;  // a failed prepare leaves nothing allocated
      return failed(s, "prepare");
    }
  }
  made.test = std::move(test);
  return made;
}

kb_status RemoteRefereedCase::launch(cudaStream_t stream, kb_message& message) {
  mirrors_pushed_ = false;
  return strategy_.run(strategy_state_, &handed_->c, &handed_->buffers, stream, &config_,
                       &message);
}

kb_status RemoteRefereedCase::settle(kb_message& message) {
  if (strategy_.device == KB_DEVICE_CUDA) {
    if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "synchronising"); s) {
      return s;
    }
  }
  std::fflush(stdout);
  if (mirrors_pushed_) return KB_OK;
  for (const auto* side : {&inputs_, &outputs_}) {
    for (const auto& operand : *side) operand->push();
  }
  mirrors_pushed_ = true;
  return KB_OK;
}

kb_status RemoteRefereedCase::step(const std::string& kind, const Record& fields,
                                   kb_message& message) const {
  if (!referee_.send(kind, fields)) {
    say(message, "the referee is gone");
    return KB_ERROR;
  }
  std::string answer;
  Record answered;
  std::vector<OwnedFd> fds;
  if (referee_.receive(answer, answered, fds) != PacketChannel::Status::record) {
    say(message, "the referee did not answer '" + kind + "'");
    return KB_ERROR;
  }
  if (answer == "done") {
    try {
      decode_bare(answered, "done");
    } catch (const std::exception& e) {
      say(message, std::string("the referee's answer to '") + kind + "': " + e.what());
      return KB_ERROR;
    }
    return KB_OK;
  }
  if (answer == "failed") return failure_of(answered, message).status;
  say(message, "the referee answered '" + answer + "' to '" + kind + "'");
  return KB_ERROR;
}

CheckAnswer RemoteRefereedCase::ask(const std::string& kind, const Record& fields,
                                    cudaStream_t) {
  CheckAnswer answer;
  kb_message message{};
  const auto could_not = [&](kb_status status) {
    answer.status = status;
    answer.message = plugin_text(message.text);
    return answer;
  };
  if (const kb_status s = settle(message); s) return could_not(s);
  if (!referee_.send(kind, fields)) {
    say(message, "the referee is gone");
    return could_not(KB_ERROR);
  }
  std::string reply;
  Record answered;
  std::vector<OwnedFd> fds;
  if (referee_.receive(reply, answered, fds) != PacketChannel::Status::record) {
    say(message, "the referee did not answer '" + kind + "'");
    return could_not(KB_ERROR);
  }
  if (reply == "failed") return could_not(failure_of(answered, message).status);
  try {
    if (reply != "checked") throw std::runtime_error("'" + reply + "' to '" + kind + "'");
    return decode_check_answer(answered);
  } catch (const std::exception& e) {
    say(message, std::string("the referee answered ") + e.what());
    return could_not(KB_ERROR);
  }
}

kb_status RemoteRefereedCase::poison(cudaStream_t stream, kb_message& message) {
  if (const kb_status s = settle(message); s) return s;
  capturing_ = true;
  if (const kb_status s = step("poison", encode_bare(), message); s) return s;
  return take_referee_writes(stream, message);
}

CheckAnswer RemoteRefereedCase::check(const char* name, cudaStream_t stream) {
  CheckAnswer answer = ask("check", encode_check_request(name), stream);
  capturing_ = false;
  return answer;
}

kb_status RemoteRefereedCase::draw(std::uint32_t purpose, cudaStream_t stream,
                                   kb_message& message) {
  if (const kb_status s = settle(message); s) return s;
  if (const kb_status s = step("draw", encode_draw_request(purpose), message); s) {
    return s;
  }
  return take_referee_writes(stream, message);
}

kb_status RemoteRefereedCase::take_referee_writes(cudaStream_t stream, kb_message& message) {
  if (strategy_.device != KB_DEVICE_CUDA) {
    // Both sides, though the referee wrote one, so the launch timed next finds its operands in
    // this thread's caches: with only the written side pulled, CI once saw an honest CPU
    // transpose of 1111x113 take 5-7x its median on inputs changed in a few places.
    for (const auto* side : {&inputs_, &outputs_}) {
      for (const auto& operand : *side) operand->pull();
    }
    return KB_OK;
  }
  // The operands as mapped, not as handed: the strategy may have written over its copy.
  kb_buffers mapped{};
  mapped.input_count = static_cast<std::uint32_t>(inputs_.size());
  mapped.output_count = static_cast<std::uint32_t>(outputs_.size());
  for (std::size_t i = 0; i < inputs_.size(); ++i) mapped.inputs[i] = inputs_[i]->operand();
  for (std::size_t i = 0; i < outputs_.size(); ++i) mapped.outputs[i] = outputs_[i]->operand();
  try {
    touch_pages(mapped, stream);
    return KB_OK;
  } catch (const Error& e) {
    say(message, std::string("after the referee's work: ") + e.what());
    return e.status();
  }
}

CheckAnswer RemoteRefereedCase::inputs_unchanged(const char* who, cudaStream_t stream) {
  return ask("inputs", encode_inputs_request(who), stream);
}

CheckAnswer RemoteRefereedCase::same_output(cudaStream_t stream) {
  return ask("same_output", encode_bare(), stream);
}

kb_status RemoteRefereedCase::zero_outputs(cudaStream_t stream, kb_message& message) {
  // The operands as mapped, not as handed: the strategy may have written over its copy.
  for (const auto& output : outputs_) {
    const kb_operand o = output->operand();
    if (strategy_.device != KB_DEVICE_CUDA) {
      std::memset(o.data, 0, static_cast<std::size_t>(o.bytes));
    } else if (const kb_status s = from_cuda(cudaMemsetAsync(o.data, 0, o.bytes, stream), message,
                                             "zeroing the outputs");
               s) {
      return s;
    }
  }
  return KB_OK;
}

void RemoteRefereedCase::between_samples() {
  if (capturing_ || output_fd_ < 0) return;
  struct stat file {};
  if (::fstat(output_fd_, &file) == 0 && file.st_size > kLargestOutputFile) {
    std::fflush(stdout);
    if (::ftruncate(output_fd_, 0) != 0) return;
  }
}

}  // namespace kb
