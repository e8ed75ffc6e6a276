// One case, set up and ready to launch, as the timing loop and the checks drive it — whoever
// referees it. A version 3 strategy's case is refereed by its family in the referee process
// (RemoteRefereedCase asks it): the family owns the buffers, draws the inputs and checks the
// outputs. A version 1 or 2 plugin's case is its own referee (SelfRefereedCase): its setup,
// poison and verify.
#pragma once

#include "case/case_request.hpp"
#include "referee/referee_messages.hpp"

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kb {

class CaseUnderTest {
 public:
  virtual ~CaseUnderTest() = default;

  // The work of one launch: the family's count where there is a family, else the plugin's.
  virtual kb_work work() const = 0;
  // A note for the row when the plugin's own count disagrees with the family's.
  virtual std::string work_note() const { return ""; }
  // One execution, enqueued on `stream`.
  virtual kb_status launch(cudaStream_t stream, kb_message& message) = 0;
  // The outputs overwritten with values no correct launch produces.
  virtual kb_status poison(cudaStream_t stream, kb_message& message) = 0;
  // The outputs judged under the check's name (checks:: in referee_messages.hpp), once the launch
  // before was synchronised: KB_OK, KB_VERIFY_FAILED with the row's words, or the status of a
  // check that could not run.
  virtual CheckAnswer check(const char* name, cudaStream_t stream) = 0;

  // What only a family can do, and a self-refereed plugin keeps to itself: new inputs for a
  // purpose (KB_DRAW_CHECK, KB_DRAW_NEAR), the inputs held against those drawn (`who` wrote to
  // them), and the outputs against those of the first launch asked about.
  virtual bool has_inputs() const { return false; }
  virtual kb_status draw(std::uint32_t purpose, cudaStream_t stream, kb_message& message);
  virtual CheckAnswer inputs_unchanged(const char* who, cudaStream_t stream);
  virtual CheckAnswer same_output(cudaStream_t stream);
  // Between two samples, outside every timed region and every check.
  virtual void between_samples() {}
  // Every output the strategy was handed, zeroed on `stream` (KB_FLAG_ZEROED_OUTPUTS): only a case
  // whose buffers the runner handed can; a self-refereed plugin's are its own.
  virtual kb_status zero_outputs(cudaStream_t stream, kb_message& message);

  // What the last launch said it enqueued.
  const kb_launch_config& config() const { return config_; }

 protected:
  kb_launch_config config_{};
};

// How a case is made, and where it failed: `stage` names the hook for the row's message.
struct CaseSetup {
  std::unique_ptr<CaseUnderTest> test;
  kb_status status = KB_OK;
  const char* stage = "setup";
  kb_message message{};
};

// A version 1 or 2 plugin's case: setup() draws, counts and allocates; `family`, when the plugin's
// family has a library, counts the work instead (the plugin's figure then only makes a note).
CaseSetup set_up_self_refereed(const KernelPlugin& plugin, const KernelFamily* family,
                               const CaseRequest& request);

}  // namespace kb
