#include "referee/family_case.hpp"

#include "case/verification_text.hpp"
#include "device/buffer_digest.hpp"
#include "util/plugin_text.hpp"
#include "util/secret_seed.hpp"

#include <kbench/support/error.hpp>
#include <kbench/support/random.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <vector>

namespace kb {
namespace {

// The seeds of the draws other than the timed one, each mixed from the case's secret.
constexpr std::uint64_t kCheckDraw = 0xF8E5D0C4B3A29180ull;
constexpr std::uint64_t kNearDraw = 0x3C6EF372FE94F82Bull;
// Which near draw of each pair rewrites the inputs as they were.
constexpr std::uint64_t kSameNearDraw = 0xA54FF53A5F1D36F1ull;

// KB_FLAG_CEILING asks the family to check a copy instead of its operation: only the strategy the
// family names as its reference may be its ceiling. Any other that sets the flag is checked on the
// operation like every strategy, or a copy could be `ok` under a transpose's name.
bool may_be_ceiling(const std::string& strategy, const KernelFamily& family) {
  return family.info != nullptr && family.info->reference != nullptr &&
         strategy == family.info->reference;
}

std::string ceiling_refusal(const KernelFamily& family) {
  return std::string("KB_FLAG_CEILING ignored: only the family's reference (") +
         (family.info != nullptr && family.info->reference != nullptr ? family.info->reference
                                                                        : "none") +
         ") is checked as a copy";
}

// A family hook's exception or CUDA error, as a status and words.
template <typename Body>
kb_status guarded(kb_message& message, Body&& body) {
  try {
    body();
    return KB_OK;
  } catch (const Error& e) {
    std::snprintf(message.text, sizeof message.text, "%s", e.what());
    return e.status();
  } catch (const std::exception& e) {
    std::snprintf(message.text, sizeof message.text, "referee: %s", e.what());
    return KB_ERROR;
  }
}

}  // namespace

FamilyCase::FamilyCase(const KernelFamily& family, const RefereeCaseSpec& spec,
                       cudaStream_t stream, RefereeVerdict& verdict, SpareOperands& spare)
    : family_(family), spec_(spec), stream_(stream), verdict_(verdict), spare_(spare),
      case_(spec_.request.to_abi()), check_flags_(spec.strategy_flags),
      secret_(secret_seed(spec.request.seed)) {
  case_.seed = secret_;
  if ((check_flags_ & KB_FLAG_CEILING) && !may_be_ceiling(spec.strategy_name, family)) {
    check_flags_ &= ~KB_FLAG_CEILING;
    ceiling_refused_ = true;
    verdict_.note = ceiling_refusal(family);
  }
}

FamilyCase::~FamilyCase() {
  spare_.keep(inputs_);
  spare_.keep(outputs_);
  if (state_ != nullptr) family_.destroy(state_);
}

std::unique_ptr<FamilyCase> FamilyCase::create(const KernelFamily& family,
                                               const RefereeCaseSpec& spec, cudaStream_t stream,
                                               RefereeVerdict& verdict, SpareOperands& spare,
                                               kb_status& status, std::string& stage,
                                               kb_message& message) {
  std::unique_ptr<FamilyCase> made(new FamilyCase(family, spec, stream, verdict, spare));
  FamilyCase& c = *made;
  const auto failed = [&](kb_status s, const char* hook) {
    status = s;
    stage = hook;
    verdict.failure_status = s;
    verdict.failure = std::string(hook) + ": " + plugin_text(message.text);
    return nullptr;
  };
  kb_work work{};
  if (const kb_status s = family.work(&c.case_, &work, &message); s) return failed(s, "family work");
  verdict.bytes = work.bytes;
  verdict.flops = work.flops;
  if (const kb_status s = family.create(&c.case_, spec.where, &c.state_, &c.family_buffers_,
                                        &message);
      s) {
    c.state_ = nullptr;
    return failed(s, "family create");
  }
  kb_buffers& b = c.family_buffers_;
  b.input_count = std::min<std::uint32_t>(b.input_count, KB_MAX_OPERANDS);
  b.output_count = std::min<std::uint32_t>(b.output_count, KB_MAX_OPERANDS);
  const kb_status shared = guarded(message, [&] {
    std::vector<kb_operand> wanted(b.inputs, b.inputs + b.input_count);
    wanted.insert(wanted.end(), b.outputs, b.outputs + b.output_count);
    auto taken = take_shared_operands(spare, spec.where, wanted);
    c.outputs_.assign(std::make_move_iterator(taken.begin() + b.input_count),
                      std::make_move_iterator(taken.end()));
    taken.resize(b.input_count);
    c.inputs_ = std::move(taken);
  });
  if (shared != KB_OK) return failed(shared, "shared operands");
  verdict.inputs = static_cast<int>(c.inputs_.size());
  if (const kb_status s = c.draw(KB_DRAW_TIMED, message); s) return failed(s, "family draw");
  return made;
}

RefereeOperands FamilyCase::operands() const {
  RefereeOperands operands;
  for (const auto& input : inputs_) operands.inputs.push_back(input->layout());
  for (const auto& output : outputs_) operands.outputs.push_back(output->layout());
  operands.bytes = verdict_.bytes.value_or(0);
  operands.flops = verdict_.flops.value_or(0);
  operands.note = verdict_.note;
  return operands;
}

std::vector<int> FamilyCase::memory_fds() const {
  std::vector<int> fds;
  for (const auto* side : {&inputs_, &outputs_}) {
    for (const auto& operand : *side) {
      if (operand->memory_fd() >= 0) fds.push_back(operand->memory_fd());
    }
  }
  return fds;
}

void FamilyCase::copy(const kb_operand& to, const kb_operand& from) const {
  const std::uint64_t bytes = std::min(to.bytes, from.bytes);
  if (spec_.where == KB_DEVICE_CUDA) {
    KB_CUDA_CHECK(cudaMemcpyAsync(to.data, from.data, bytes, cudaMemcpyDefault, stream_));
  } else {
    // Only the pages that differ: a strategy's process keeps in its caches what a draw did not
    // change, as it would if the family had drawn in place (a near draw changes a few elements;
    // the launch after it is timed against the samples).
    copy_changed_pages(to.data, from.data, bytes);
  }
}

void FamilyCase::synchronize() const {
  if (spec_.where == KB_DEVICE_CUDA) KB_CUDA_CHECK(cudaDeviceSynchronize());
}

kb_status FamilyCase::draw(std::uint32_t purpose, kb_message& message) {
  std::uint64_t seed = purpose == KB_DRAW_TIMED ? secret_ : mix64(secret_ ^ kCheckDraw);
  if (purpose == KB_DRAW_NEAR) {
    const std::uint64_t paired = near_draws_++;
    near_changed_ =
        paired == 0 || (mix64(secret_ ^ kSameNearDraw ^ ((paired - 1) / 2)) & 1) != (paired - 1) % 2;
    if (near_changed_) near_seed_ = mix64(secret_ ^ kNearDraw ^ draws_);
    seed = near_seed_;
  }
  ++draws_;
  if (const kb_status s = family_.draw(state_, seed, purpose, stream_, &message); s) return s;
  return guarded(message, [&] {
    synchronize();
    input_digests_.clear();
    for (std::uint32_t i = 0; i < inputs_.size(); ++i) {
      copy(inputs_[i]->operand(), family_buffers_.inputs[i]);
    }
    synchronize();
    for (const auto& input : inputs_) {
      input_digests_.push_back(buffer_digest(input->operand(), spec_.where, stream_));
    }
  });
}

kb_status FamilyCase::poison(kb_message& message) {
  if (const kb_status s = family_.poison(state_, stream_, &message); s) return s;
  return guarded(message, [&] {
    synchronize();
    for (std::uint32_t i = 0; i < outputs_.size(); ++i) {
      copy(outputs_[i]->operand(), family_buffers_.outputs[i]);
    }
    synchronize();
  });
}

void FamilyCase::passed(const std::string& check) { ++verdict_.passed[check]; }

CheckAnswer FamilyCase::failed(kb_status status, std::string failure, std::string message) {
  CheckAnswer answer;
  answer.status = status;
  answer.failure = std::move(failure);
  answer.message = std::move(message);
  if (verdict_.failure_status == KB_OK) {
    verdict_.failure_status = status;
    verdict_.failure = status == KB_VERIFY_FAILED ? answer.failure : "verify: " + answer.message;
  }
  return answer;
}

std::optional<std::string> FamilyCase::guard_damage() const {
  for (const auto* side : {&inputs_, &outputs_}) {
    const char* name = side == &inputs_ ? "inputs" : "outputs";
    for (std::size_t i = 0; i < side->size(); ++i) {
      if (auto damage = (*side)[i]->guard_damage(std::string(name) + "[" + std::to_string(i) + "]")) {
        return damage;
      }
    }
  }
  return std::nullopt;
}

CheckAnswer FamilyCase::check(const std::string& name) {
  CheckAnswer answer;
  kb_message message{};
  const kb_status copied = guarded(message, [&] {
    for (std::uint32_t i = 0; i < outputs_.size(); ++i) {
      copy(family_buffers_.outputs[i], outputs_[i]->operand());
    }
    synchronize();
  });
  if (copied != KB_OK) return failed(copied, "", plugin_text(message.text));
  const kb_status status =
      family_.check(state_, check_flags_, stream_, &answer.figures, &message);
  if (ceiling_refused_ && (status == KB_VERIFY_FAILED || (status == KB_OK && !answer.figures.passed))) {
    // Say why a copy was not taken for one: the family's own words first, if it had any.
    const std::size_t used = strnlen(message.text, sizeof message.text - 1);
    std::snprintf(message.text + used, sizeof message.text - used, "%s%s", used ? "; " : "",
                  ceiling_refusal(family_).c_str());
  }
  if (status != KB_OK && status != KB_VERIFY_FAILED) {
    return failed(status, "", plugin_text(message.text));
  }
  if (verification_failed(status, answer.figures)) {
    CheckAnswer failure =
        failed(KB_VERIFY_FAILED,
               check_failure(name.c_str(), true, status, answer.figures, message));
    failure.figures = answer.figures;
    return failure;
  }
  std::optional<std::string> damage;
  kb_message guard_message{};
  const kb_status read = guarded(guard_message, [&] { damage = guard_damage(); });
  if (read != KB_OK) return failed(read, "", plugin_text(guard_message.text));
  if (damage) {
    return failed(KB_VERIFY_FAILED,
                  std::string("check '") + checks::kGuardBytes + "' failed: a launch wrote " +
                      *damage + ", outside every operand");
  }
  if (name == checks::kUnpoisonedLaunch) answer.inputs_changed = near_changed_;
  // A launch on the inputs as they were proves nothing of new ones.
  if (name != checks::kUnpoisonedLaunch || near_changed_) passed(name);
  if (name == checks::kTimedLaunch && !verdict_.figures) {
    verdict_.figures = VerificationFigures{answer.figures.max_rel_error, answer.figures.tolerance,
                                           plugin_text(answer.figures.metrics)};
  }
  answer.status = KB_OK;
  return answer;
}

CheckAnswer FamilyCase::inputs_unchanged(const std::string& who) {
  kb_message message{};
  std::optional<std::size_t> changed;
  const kb_status read = guarded(message, [&] {
    for (std::size_t i = 0; i < inputs_.size() && !changed; ++i) {
      if (buffer_digest(inputs_[i]->operand(), spec_.where, stream_) != input_digests_[i]) {
        changed = i;
      }
    }
  });
  if (read != KB_OK) return failed(read, "", plugin_text(message.text));
  if (changed) {
    return failed(KB_VERIFY_FAILED,
                  std::string("check '") + checks::kInputsUnchanged + "' failed: " + who +
                      " wrote to inputs[" + std::to_string(*changed) +
                      "], which a strategy only reads");
  }
  passed(checks::kInputsUnchanged);
  return CheckAnswer{};
}

CheckAnswer FamilyCase::same_output() {
  if (spec_.strategy_flags & KB_FLAG_NONDETERMINISTIC) return CheckAnswer{};
  kb_message message{};
  std::uint64_t digest = 0;
  const kb_status read = guarded(message, [&] {
    for (const auto& output : outputs_) {
      digest = digest * 0x9E3779B97F4A7C15ull + buffer_digest(output->operand(), spec_.where,
                                                              stream_);
    }
  });
  if (read != KB_OK) return failed(read, "", plugin_text(message.text));
  if (!first_output_) {
    first_output_ = digest;
    return CheckAnswer{};
  }
  if (digest != *first_output_) {
    return failed(KB_VERIFY_FAILED,
                  std::string("check '") + checks::kDeterministic +
                      "' failed: two launches on the same inputs wrote different outputs (a "
                      "strategy whose output may differ bit for bit declares "
                      "KB_FLAG_NONDETERMINISTIC)");
  }
  passed(checks::kDeterministic);
  return CheckAnswer{};
}

}  // namespace kb
