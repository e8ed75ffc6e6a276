// What crosses the referee's channels, each as one record (protocol/record.hpp), every number in
// full: the case as the parent announces it (the strategy's identity and flags come from the
// parent's plan, never from the worker), the operands as the worker maps them, one check's answer,
// and the verdict the parent builds the row's status from.
#pragma once

#include "case/case_outcome.hpp"
#include "case/case_request.hpp"
#include "device/bandwidth.hpp"
#include "protocol/record.hpp"
#include "referee/shared_operands.hpp"

#include <kbench/plugin.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kb {

// The referee's greeting to the parent, before any request: the device's roofs, measured before
// any plugin code ran on its behalf (none for a referee of host cases), or why it cannot serve.
struct RefereeGreeting {
  std::optional<MeasuredBandwidth> measured;
  std::string error;
};
Record encode_greeting(const RefereeGreeting& greeting);
RefereeGreeting decode_greeting(const Record& record);

// The connection a control request or its answer is about (`connected`, `verdict`,
// `disconnect`): a worker's channel to the referee, by the number the referee gave it.
Record encode_connection(int connection);
int decode_connection(const Record& record);

// Requests and answers that carry nothing (`ready`, `disconnected`, `done`; `create`, `poison`,
// `same_output`, `destroy`): the decoder refuses a record with any field.
Record encode_bare();
void decode_bare(const Record& record, const char* kind);

// What the worker asks of its case: a draw for a purpose (KB_DRAW_CHECK or KB_DRAW_NEAR; any other
// is refused), one of the named checks (referee/check_names.hpp: the referee refuses others), or
// whether the inputs are as drawn, said of `who` for the row ("the strategy", "the warm-up").
Record encode_draw_request(std::uint32_t purpose);
std::uint32_t decode_draw_request(const Record& record);
Record encode_check_request(const std::string& check);
std::string decode_check_request(const Record& record);
Record encode_inputs_request(const std::string& who);
std::string decode_inputs_request(const Record& record);

// The case a worker is about to run, from the parent.
struct RefereeCaseSpec {
  CaseRequest request;
  kb_device_kind where = KB_DEVICE_CUDA;
  std::uint32_t strategy_flags = 0;  // the strategy's KB_FLAG_* as the run planned it
  std::string strategy_name;
  std::string family_file;  // the family's library, which the referee loads
};
Record encode_case_spec(const RefereeCaseSpec& spec);
RefereeCaseSpec decode_case_spec(const Record& record);

// The case's operands and work, for the worker (the memfds of host operands travel beside it, in
// the order of the operands that have one).
struct RefereeOperands {
  std::vector<OperandLayout> inputs, outputs;
  double bytes = 0, flops = 0;
  std::string note;  // for the row (KB_FLAG_CEILING ignored...)
};
Record encode_operands(const RefereeOperands& operands);
RefereeOperands decode_operands(const Record& record);

// One check's outcome: KB_OK, KB_VERIFY_FAILED with the row's words in `failure`, or another
// status when the family could not check (its words in `message`).
struct CheckAnswer {
  kb_status status = KB_OK;
  kb_verification figures{};
  std::string failure;
  std::string message;
  // For an unpoisoned launch's check: whether the near draw before it changed the inputs, or
  // rewrote them as they were (the referee's choice, told only once the launch is over).
  std::optional<bool> inputs_changed;
};
Record encode_check_answer(const CheckAnswer& answer);
CheckAnswer decode_check_answer(const Record& record);

// A request the referee could not carry out, for the worker: its status, the stage that failed (a
// family hook's name, "poison", "referee") and the words.
struct RefereeFailure {
  kb_status status = KB_ERROR;
  std::string stage;
  std::string message;
};
Record encode_failure(const RefereeFailure& failure);
// A status that is no failure (KB_OK, or none an ABI knows) reads as KB_ERROR.
RefereeFailure decode_failure(const Record& record);

// What the referee saw of one case, for the parent: the work it counted, each check it passed and
// how many times, and the first failure. The row's verdict is this, never the worker's word.
struct RefereeVerdict {
  std::optional<double> bytes, flops;
  int inputs = 0;                     // the case's input operands
  std::map<std::string, int> passed;  // check name -> times passed
  kb_status failure_status = KB_OK;   // KB_VERIFY_FAILED, or the status of a family hook that failed
  std::string failure;                // the row's message for it
  std::optional<VerificationFigures> figures;  // of the first 'timed launch' check passed
  std::string note;

  int times(const std::string& check) const;
};
Record encode_verdict(const RefereeVerdict& verdict);
RefereeVerdict decode_verdict(const Record& record);

// The names of the checks, as rows and verdicts spell them.
namespace checks {
inline constexpr const char* kTimedLaunch = "timed launch";
inline constexpr const char* kFreshInputs = "fresh inputs";
inline constexpr const char* kUnpoisonedLaunch = "unpoisoned launch";
inline constexpr const char* kInputsUnchanged = "inputs unchanged";
inline constexpr const char* kDeterministic = "deterministic";
inline constexpr const char* kGuardBytes = "guard bytes";
}  // namespace checks

}  // namespace kb
