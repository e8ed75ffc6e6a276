#include "measure/refereed_case.hpp"

#include "measure/buffer_digest.hpp"
#include "measure/launch.hpp"

#include <algorithm>

namespace kb {

RefereedCase::RefereedCase(const KernelPlugin& strategy, const KernelFamily& family,
                           const CaseRequest& request)
    : strategy_(strategy), family_(family), case_(request.to_abi()), strategy_case_(case_) {
  strategy_case_.seed = 0;
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
  if (const kb_status s = test->draw(request.seed, KB_DRAW_TIMED, stream, made.message); s) {
    return failed(s, "family draw");
  }
  if (strategy.prepare != nullptr) {
    if (const kb_status s = strategy.prepare(&test->strategy_case_, &test->buffers_,
                                             &test->strategy_state_, &made.message);
        s) {
      test->strategy_state_ = nullptr;  // a failed prepare leaves nothing allocated
      return failed(s, "prepare");
    }
  }
  made.test = std::move(test);
  return made;
}

kb_status RefereedCase::launch(cudaStream_t stream, kb_message& message) {
  return strategy_.run(strategy_state_, &strategy_case_, &buffers_, stream, &config_, &message);
}

kb_status RefereedCase::poison(cudaStream_t stream, kb_message& message) {
  return family_.poison(family_state_, stream, &message);
}

kb_status RefereedCase::check(cudaStream_t stream, kb_verification& result,
                              kb_message& message) {
  return family_.check(family_state_, strategy_.flags, stream, &result, &message);
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
