// The row's verdict is the referee's: what the worker reports is the strategy's own process
// speaking, and a strategy can write anything there (a forged `ok` on the result channel, a count
// of bytes of its choosing). These hold apply_verdict and the records it travels in.
#include "referee/apply_verdict.hpp"
#include "referee/referee_messages.hpp"
#include "protocol/codec.hpp"

#include <gtest/gtest.h>

namespace {

using kb::CaseOutcome;
using kb::CaseStatus;
using kb::RefereeVerdict;
namespace checks = kb::checks;

// What a worker claims of a case it says went well.
CaseOutcome claimed_ok() {
  CaseOutcome o;
  o.status = CaseStatus::ok;
  o.bytes = 1e12;  // a count of its own choosing
  o.samples = kb::SampleSummary{10, 1.0, 1.0, 1.0, 0.0, 0.001, true};
  return o;
}

// What the referee saw of a case whose every check passed: a transpose with one input.
RefereeVerdict all_checks_passed() {
  RefereeVerdict v;
  v.bytes = 2.0 * 4 * 256 * 192;
  v.flops = 0;
  v.inputs = 1;
  v.passed = {{checks::kTimedLaunch, 3},
              {checks::kFreshInputs, 1},
              {checks::kInputsUnchanged, 3},
              {checks::kUnpoisonedLaunch, 1},
              {checks::kDeterministic, 2}};
  v.figures = kb::VerificationFigures{0, 0, "elements=49152"};
  return v;
}

TEST(RefereeVerdict, AnOkRestsOnTheChecksTheRefereeRanAndItsCountOfTheWork) {
  CaseOutcome o = claimed_ok();
  kb::apply_verdict(all_checks_passed(), true, o);
  EXPECT_EQ(o.status, CaseStatus::ok) << o.message;
  EXPECT_EQ(*o.bytes, 2.0 * 4 * 256 * 192);
  ASSERT_TRUE(o.verification);
  EXPECT_EQ(o.verification->metrics, "elements=49152");
}

TEST(RefereeVerdict, AnOkTheRefereeNeverCheckedIsAnError) {
  // A forged result record: the worker (or a strategy writing on its channel) says ok, the
  // referee created the case and checked nothing.
  RefereeVerdict nothing;
  nothing.inputs = 1;
  CaseOutcome o = claimed_ok();
  kb::apply_verdict(nothing, true, o);
  EXPECT_EQ(o.status, CaseStatus::error);
  EXPECT_NE(o.message.find("the worker's answer alone makes no row ok"), std::string::npos)
      << o.message;
  // Each check the referee must have passed is asked for.
  for (const char* missing : {checks::kTimedLaunch, checks::kFreshInputs, checks::kInputsUnchanged,
                              checks::kUnpoisonedLaunch}) {
    RefereeVerdict v = all_checks_passed();
    v.passed.erase(missing);
    CaseOutcome claimed = claimed_ok();
    kb::apply_verdict(v, true, claimed);
    EXPECT_EQ(claimed.status, CaseStatus::error) << missing;
    EXPECT_NE(claimed.message.find(missing), std::string::npos) << claimed.message;
  }
  // A case without inputs (a hello) has none to hold unchanged and no near draw; a profile
  // checks no timed launch.
  RefereeVerdict hello = all_checks_passed();
  hello.inputs = 0;
  hello.passed.erase(checks::kInputsUnchanged);
  hello.passed.erase(checks::kUnpoisonedLaunch);
  hello.passed.erase(checks::kTimedLaunch);
  CaseOutcome profiled = claimed_ok();
  kb::apply_verdict(hello, false, profiled);
  EXPECT_EQ(profiled.status, CaseStatus::ok) << profiled.message;
}

TEST(RefereeVerdict, TheRefereesFailureOverrulesTheWorkersOkButNotACrash) {
  RefereeVerdict failed = all_checks_passed();
  failed.failure_status = KB_VERIFY_FAILED;
  failed.failure = "check 'timed launch' failed: max relative error 1 over tolerance 0";
  CaseOutcome o = claimed_ok();
  kb::apply_verdict(failed, true, o);
  EXPECT_EQ(o.status, CaseStatus::verify_failed);
  EXPECT_EQ(o.message, failed.failure);
  // The worker's own failure of a check the referee did not run (its timing) stands.
  CaseOutcome timing = claimed_ok();
  timing.status = CaseStatus::verify_failed;
  timing.message = "check 'changed inputs' failed: ...";
  kb::apply_verdict(all_checks_passed(), true, timing);
  EXPECT_EQ(timing.status, CaseStatus::verify_failed);
  EXPECT_EQ(timing.message, "check 'changed inputs' failed: ...");
  // A crash is what became of the case, whatever the referee saw before it.
  CaseOutcome crashed = CaseOutcome::without_run(CaseStatus::crashed, "worker killed by signal 11");
  kb::apply_verdict(failed, true, crashed);
  EXPECT_EQ(crashed.status, CaseStatus::crashed);
}

TEST(RefereeVerdict, TravelsWholeInOneRecord) {
  RefereeVerdict v = all_checks_passed();
  v.failure_status = KB_VERIFY_FAILED;
  v.failure = "check 'guard bytes' failed: a launch wrote 4 bytes after outputs[0]\twith a tab";
  v.note = "KB_FLAG_CEILING ignored";
  const RefereeVerdict back = kb::decode_verdict(kb::encode_verdict(v));
  EXPECT_EQ(back.passed, v.passed);
  EXPECT_EQ(back.inputs, 1);
  EXPECT_EQ(*back.bytes, *v.bytes);
  EXPECT_EQ(back.failure_status, KB_VERIFY_FAILED);
  EXPECT_EQ(back.failure, v.failure);
  EXPECT_EQ(back.note, v.note);
  ASSERT_TRUE(back.figures);
  EXPECT_EQ(back.figures->metrics, "elements=49152");
}

TEST(RefereeMessages, TheCaseAndItsOperandsTravelWhole) {
  kb::RefereeCaseSpec spec;
  spec.request.dtype = KB_DTYPE_F32;
  spec.request.shape.rank = 2;
  spec.request.shape.dims = {256, 192, 1};
  spec.request.params = "tile=64";
  spec.where = KB_DEVICE_HOST;
  spec.strategy_flags = KB_FLAG_CEILING | KB_FLAG_NONDETERMINISTIC;
  spec.strategy_name = "transpose/copy";
  spec.family_file = "/x/transpose_family.so";
  const kb::RefereeCaseSpec back = kb::decode_case_spec(kb::encode_case_spec(spec));
  EXPECT_EQ(back.request.shape.dims, spec.request.shape.dims);
  EXPECT_EQ(back.request.params, "tile=64");
  EXPECT_EQ(back.where, KB_DEVICE_HOST);
  EXPECT_EQ(back.strategy_flags, spec.strategy_flags);
  EXPECT_EQ(back.strategy_name, spec.strategy_name);
  EXPECT_EQ(back.family_file, spec.family_file);

  kb::RefereeOperands operands;
  operands.inputs.push_back({KB_DTYPE_F32, 49152, 196608, ""});
  operands.outputs.push_back({KB_DTYPE_F32, 49152, 196608, std::string("\0\x01\xff\t\n", 5)});
  operands.bytes = 393216;
  const kb::RefereeOperands decoded = kb::decode_operands(kb::encode_operands(operands));
  ASSERT_EQ(decoded.outputs.size(), 1u);
  EXPECT_EQ(decoded.outputs[0].ipc_handle, std::string("\0\x01\xff\t\n", 5));
  EXPECT_EQ(decoded.inputs[0].count, 49152u);
  EXPECT_EQ(decoded.bytes, 393216);
}

TEST(RefereeMessages, AFailureTravelsWholeAndAStatusThatIsNoFailureReadsAsAnError) {
  const kb::RefereeFailure told{KB_VERIFY_FAILED, "family draw", "no memory\tfor the near draw"};
  const kb::RefereeFailure back = kb::decode_failure(kb::encode_failure(told));
  EXPECT_EQ(back.status, KB_VERIFY_FAILED);
  EXPECT_EQ(back.stage, "family draw");
  EXPECT_EQ(back.message, told.message);
  for (const kb_status odd : {KB_OK, static_cast<kb_status>(99)}) {
    EXPECT_EQ(kb::decode_failure(kb::encode_failure({odd, "referee", ""})).status, KB_ERROR);
  }
  kb::Record without_stage = kb::encode_failure(told);
  without_stage.erase("stage");
  EXPECT_THROW(kb::decode_failure(without_stage), std::exception);
}

TEST(RefereeMessages, TheGreetingCarriesTheMeasuredRoofsWholeOrWhyNot) {
  kb::RefereeGreeting measured;
  measured.measured = kb::MeasuredBandwidth{4128.8000000000002, 4390.25, 11034.5};
  const kb::RefereeGreeting back = kb::decode_greeting(kb::encode_greeting(measured));
  ASSERT_TRUE(back.measured);
  EXPECT_EQ(back.measured->copy_gbps, 4128.8000000000002);
  EXPECT_EQ(back.measured->l2_gbps, 11034.5);
  EXPECT_TRUE(back.error.empty());
  EXPECT_FALSE(kb::decode_greeting(kb::encode_greeting({})).measured);  // a host cases' referee
  kb::RefereeGreeting failed;
  failed.error = "no room for its temporary folder";
  EXPECT_EQ(kb::decode_greeting(kb::encode_greeting(failed)).error, failed.error);
  kb::Record half = kb::encode_greeting(measured);
  half.erase("l2_gbps");
  EXPECT_THROW(kb::decode_greeting(half), std::exception);
}

TEST(RefereeMessages, AConnectionTravelsAsItsNumberAndNothingElse) {
  EXPECT_EQ(kb::decode_connection(kb::encode_connection(7)), 7);
  kb::Record more = kb::encode_connection(7);
  more["why"] = "x";
  EXPECT_THROW(kb::decode_connection(more), std::exception);
  EXPECT_THROW(kb::decode_connection({{"connection", "-1"}}), std::exception);
}

// The worker's requests of its case name a draw's purpose, a check or who the inputs are said of,
// and nothing else; the answers that carry nothing carry nothing.
TEST(RefereeMessages, TheWorkersRequestsTravelWholeAndAnOddOneIsRefused) {
  EXPECT_EQ(kb::decode_draw_request(kb::encode_draw_request(KB_DRAW_NEAR)), KB_DRAW_NEAR);
  EXPECT_EQ(kb::decode_draw_request(kb::encode_draw_request(KB_DRAW_CHECK)), KB_DRAW_CHECK);
  EXPECT_THROW(kb::decode_draw_request({{"purpose", "7"}}), kb::ProtocolError);
  EXPECT_THROW(kb::decode_draw_request({{"purpose", "1x"}}), kb::ProtocolError);
  EXPECT_EQ(kb::decode_check_request(kb::encode_check_request("timed launch")), "timed launch");
  EXPECT_EQ(kb::decode_inputs_request(kb::encode_inputs_request("the warm-up")), "the warm-up");
  EXPECT_THROW(kb::decode_inputs_request({}), kb::ProtocolError);
  EXPECT_NO_THROW(kb::decode_bare(kb::encode_bare(), "ready"));
  EXPECT_THROW(kb::decode_bare({{"connection", "1"}}, "ready"), kb::ProtocolError);
}

}  // namespace
