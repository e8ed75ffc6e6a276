#include "measure/case_under_test.hpp"

#include "case/verification_text.hpp"
#include "util/number_text.hpp"
#include "util/plugin_text.hpp"

#include <cstdio>
#include <optional>

namespace kb {
namespace {

class SelfRefereedCase final : public CaseUnderTest {
 public:
  SelfRefereedCase(const KernelPlugin& plugin, void* state, kb_work work)
      : plugin_(plugin), state_(state), work_(work) {}
  ~SelfRefereedCase() override { plugin_.teardown(state_); }

  kb_work work() const override { return family_work_ ? *family_work_ : work_; }
  std::string work_note() const override {
    if (!family_work_ || (family_work_->bytes == work_.bytes && family_work_->flops == work_.flops)) {
      return "";
    }
    return "work counted by the family: " + significant_text(family_work_->bytes) + " bytes, " +
           significant_text(family_work_->flops) + " flops (the plugin said " +
           significant_text(work_.bytes) + " and " + significant_text(work_.flops) + ")";
  }
  void count_with(const kb_work& family_work) { family_work_ = family_work; }

  kb_status launch(cudaStream_t stream, kb_message& message) override {
    return plugin_.launch(state_, stream, &config_, &message);
  }
  kb_status poison(cudaStream_t stream, kb_message& message) override {
    return plugin_.poison(state_, stream, &message);
  }
  CheckAnswer check(const char* name, cudaStream_t) override {
    CheckAnswer answer;
    kb_message message{};
    answer.status = plugin_.verify(state_, &answer.figures, &message);
    if (answer.status != KB_OK && answer.status != KB_VERIFY_FAILED) {
      answer.message = plugin_text(message.text);
    } else if (verification_failed(answer.status, answer.figures)) {
      answer.failure = check_failure(name, false, answer.status, answer.figures, message);
      answer.status = KB_VERIFY_FAILED;
    }
    return answer;
  }

 private:
  const KernelPlugin& plugin_;
  void* state_;
  kb_work work_;
  std::optional<kb_work> family_work_;
};

}  // namespace

kb_status CaseUnderTest::draw(std::uint32_t, cudaStream_t, kb_message& message) {
  std::snprintf(message.text, sizeof message.text, "no family draws this case's inputs");
  return KB_ERROR;
}
kb_status CaseUnderTest::zero_outputs(cudaStream_t, kb_message& message) {
  std::snprintf(message.text, sizeof message.text,
                "KB_FLAG_ZEROED_OUTPUTS needs a version 3 strategy: the runner zeroes only the "
                "outputs it handed");
  return KB_ERROR;
}

CheckAnswer CaseUnderTest::inputs_unchanged(const char*, cudaStream_t) { return CheckAnswer{}; }
CheckAnswer CaseUnderTest::same_output(cudaStream_t) { return CheckAnswer{}; }

CaseSetup set_up_self_refereed(const KernelPlugin& plugin, const KernelFamily* family,
                               const CaseRequest& request) {
  CaseSetup made;
  const kb_case c = request.to_abi();
  void* state = nullptr;
  kb_work work{};
  made.status = plugin.setup(&c, &state, &work, &made.message);
  if (made.status != KB_OK) return made;  // a failed setup leaves nothing allocated
  auto test = std::make_unique<SelfRefereedCase>(plugin, state, work);
  kb_work counted{};
  kb_message ignored{};
  if (family != nullptr && family->work(&c, &counted, &ignored) == KB_OK) test->count_with(counted);
  made.test = std::move(test);
  return made;
}

}  // namespace kb
