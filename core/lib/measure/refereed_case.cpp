#include "measure/refereed_case.hpp"

#include "measure/buffer_digest.hpp"
#include "measure/launch.hpp"

#include <kbench/support/random.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>

namespace kb {
namespace {

// KB_FLAG_CEILING asks the family to check a copy instead of its operation: only the strategy the
// family names as its reference may be its ceiling. Any other that sets the flag is checked on the
// operation like every strategy, or a copy could be `ok` under a transpose's name.
bool may_be_ceiling(const KernelPlugin& strategy, const KernelFamily& family) {
  return family.info != nullptr && family.info->reference != nullptr && strategy.name != nullptr &&
         std::strcmp(strategy.name, family.info->reference) == 0;
}

std::string ceiling_refusal(const KernelFamily& family) {
  return std::string("KB_FLAG_CEILING ignored: only the family's reference (") +
         (family.info != nullptr && family.info->reference != nullptr ? family.info->reference
                                                                        : "none") +
         ") is checked as a copy";
}

}  // namespace

std::uint64_t secret_seed(std::uint64_t seed) {
  std::random_device entropy;
  const std::uint64_t drawn = (std::uint64_t{entropy()} << 32) ^ entropy();
  return mix64(seed ^ mix64(drawn ^ static_cast<std::uint64_t>(
                                        std::chrono::steady_clock::now().time_since_epoch().count())));
}

RefereedCase::RefereedCase(const KernelPlugin& strategy, const KernelFamily& family,
                           const CaseRequest& request)
    : strategy_(strategy), family_(family), case_(request.to_abi()), strategy_case_(case_),
      check_flags_(strategy.flags) {
  strategy_case_.seed = 0;
  if ((check_flags_ & KB_FLAG_CEILING) && !may_be_ceiling(strategy, family)) {
    check_flags_ &= ~KB_FLAG_CEILING;
    ceiling_refused_ = true;
  }
}

std::string RefereedCase::work_note() const {
  return ceiling_refused_ ? ceiling_refusal(family_) : "";
}

RefereedCase::~RefereedCase() {
  if (strategy_state_ != nullptr && strategy_.release != nullptr) {
    strategy_.release(strategy_state_);
  }
  if (family_state_ != nullptr) family_.destroy(family_state_);
}

CaseSetup RefereedCase::set_up(const KernelPlugin& strategy, const KernelFamily& family,
                               const CaseRequest& request, cudaStream_t stream) {
  CaseSetup made;
  std::unique_ptr<RefereedCase> test(new RefereedCase(strategy, family, request));
  const auto failed = [&](kb_status status, const char* stage) {
    made.status = status;
    made.stage = stage;
    return std::move(made);
  };
  if (const kb_status s = family.work(&test->case_, &test->work_, &made.message); s) {
    return failed(s, "family work");
  }
  if (const kb_status s = family.create(&test->case_, strategy.device, &test->family_state_,
                                        &test->buffers_, &made.message);
      s) {
    test->family_state_ = nullptr;
    return failed(s, "family create");
  }
  test->buffers_.input_count = std::min<std::uint32_t>(test->buffers_.input_count, KB_MAX_OPERANDS);
  test->buffers_.output_count =
      std::min<std::uint32_t>(test->buffers_.output_count, KB_MAX_OPERANDS);
  if (const kb_status s = test->draw(secret_seed(request.seed), KB_DRAW_TIMED, stream, made.message);
      s) {
    return failed(s, "family draw");
  }
  test->hand_over();
  if (strategy.prepare != nullptr) {
    if (const kb_status s = strategy.prepare(&test->handed_->c, &test->handed_->buffers,
                                             &test->strategy_state_, &made.message);
        s) {
      test->strategy_state_ = nullptr;  // a failed prepare leaves nothing allocated
      return failed(s, "prepare");
    }
  }
  made.test = std::move(test);
  return made;
}

void RefereedCase::hand_over() {
  Handed& handed = *handed_;
  handed.op = strategy_case_.op;
  handed.params = strategy_case_.params;
  handed.c = strategy_case_;
  handed.c.op = handed.op.c_str();
  handed.c.params = handed.params.c_str();
  handed.buffers = buffers_;
}

kb_status RefereedCase::launch(cudaStream_t stream, kb_message& message) {
  return strategy_.run(strategy_state_, &handed_->c, &handed_->buffers, stream, &config_,
                       &message);
}

kb_status RefereedCase::poison(cudaStream_t stream, kb_message& message) {
  return family_.poison(family_state_, stream, &message);
}

kb_status RefereedCase::check(cudaStream_t stream, kb_verification& result,
                              kb_message& message) {
  const kb_status status = family_.check(family_state_, check_flags_, stream, &result, &message);
  if (ceiling_refused_ && (status == KB_VERIFY_FAILED || (status == KB_OK && !result.passed))) {
    // Say why a copy was not taken for one: the family's own words first, if it had any.
    const std::size_t used = strnlen(message.text, sizeof message.text - 1);
    std::snprintf(message.text + used, sizeof message.text - used, "%s%s", used ? "; " : "",
                  ceiling_refusal(family_).c_str());
  }
  return status;
}

kb_status RefereedCase::draw(std::uint64_t seed, std::uint32_t purpose, cudaStream_t stream,
                             kb_message& message) {
  if (const kb_status s = family_.draw(family_state_, seed, purpose, stream, &message); s) return s;
  if (strategy_.device == KB_DEVICE_CUDA) {
    if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "after the draw"); s) {
      return s;
    }
  }
  input_digests_.clear();
  for (std::uint32_t i = 0; i < buffers_.input_count; ++i) {
    input_digests_.push_back(buffer_digest(buffers_.inputs[i], strategy_.device, stream));
  }
  return KB_OK;
}

std::optional<std::string> RefereedCase::changed_input(cudaStream_t stream) const {
  for (std::uint32_t i = 0; i < buffers_.input_count; ++i) {
    if (buffer_digest(buffers_.inputs[i], strategy_.device, stream) != input_digests_[i]) {
      return "inputs[" + std::to_string(i) + "]";
    }
  }
  return std::nullopt;
}

std::optional<std::uint64_t> RefereedCase::output_digest(cudaStream_t stream) const {
  std::uint64_t digest = 0;
  for (std::uint32_t i = 0; i < buffers_.output_count; ++i) {
    digest = digest * 0x9E3779B97F4A7C15ull + buffer_digest(buffers_.outputs[i], strategy_.device,
                                                            stream);
  }
  return digest;
}

}  // namespace kb
