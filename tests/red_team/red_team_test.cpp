// The host half of the red-team corpus (label host): version 3 host strategies of transpose, reduce
// and matmul, each cheating one way, run by the real `kbench run`; and honest controls written the
// same way, which must stay `ok`.
#include "red_team/red_team.hpp"

namespace {

using kbtest::red_team::Cheat;

const std::vector<std::string> kTranspose = {"--sizes", "256x192", "--dtypes", "float32"};
const std::vector<std::string> kReduce = {"--sizes", "2^20", "--dtypes", "float32", "--ops", "sum"};
const std::vector<std::string> kReduceSquares = {"--sizes", "2^20", "--dtypes", "float32", "--ops",
                                                 "sumsq"};
const std::vector<std::string> kMatmul = {"--sizes", "384x64x384", "--dtypes", "float32"};

const std::vector<std::string> kVerifyFailed = {"verify_failed"};
const std::vector<std::string> kImplausible = {"implausible"};

const char kTimed[] = "check 'timed launch' failed";
const char kFresh[] = "check 'fresh inputs' failed";
const char kUnpoisoned[] = "check 'unpoisoned launch' failed";

const std::vector<Cheat> kCheats = {
    {"half_rows", "transpose/cheat_half_rows", kTranspose, kVerifyFailed, kTimed},
    // A host launch of 100 ms or more is its own warm-up: that first launch is a checked sample.
    {"half_first_launch", "transpose/cheat_half_first_launch", kTranspose, kVerifyFailed, kTimed},
    // The verdict's last launch runs on new inputs over an output it did not poison.
    {"poisoned_only", "transpose/cheat_poisoned_only", kTranspose, kVerifyFailed, kUnpoisoned},
    {"answer_in_prepare", "transpose/cheat_answer_in_prepare", kTranspose, kVerifyFailed, kFresh},
    // Every draw's seed is the sweep's mixed with a secret of the case: the timed inputs are not
    // seed 42's.
    {"predict_inputs", "transpose/cheat_predict_inputs", kTranspose, kVerifyFailed, kTimed},
    {"predict_check_seed", "transpose/cheat_predict_check_seed", kTranspose, kVerifyFailed, kTimed},
    // Its late writes land 20 ms after each launch: on a busy machine one from an earlier launch
    // can finish a checked launch's output before the check, and the unpoisoned launch then
    // holds a half-written output.
    {"late_thread", "transpose/cheat_late_thread", kTranspose, kVerifyFailed, kTimed, "",
     kUnpoisoned},
    {"small_only", "transpose/cheat_small_only", kTranspose, kVerifyFailed, kTimed},
    // The last launch's inputs differ from the ones before in a few places only (KB_DRAW_NEAR).
    {"poisoned_or_changed", "transpose/cheat_poisoned_or_changed", kTranspose, kVerifyFailed,
     kUnpoisoned},
    // Only the family's reference (transpose/copy) is checked as a copy.
    {"ceiling_claim", "transpose/cheat_ceiling_claim", kTranspose, kVerifyFailed,
     "check 'timed launch' failed: max relative error"},
    {"keep_first", "reduce/cheat_keep_first", kReduce, kVerifyFailed, kFresh},
    {"inputs_as_scratch", "reduce/cheat_inputs_as_scratch", kReduce, kVerifyFailed,
     "check 'inputs unchanged' failed"},
    // Every reduce draw sums exactly (family version 5): the timed launches' checks are exact too.
    {"garbage", "reduce/cheat_garbage", kReduce, kVerifyFailed, kTimed},
    {"fingerprint_reduce", "reduce/cheat_fingerprint", kReduce, kVerifyFailed, kUnpoisoned},
    {"sampled", "reduce/cheat_sampled", kReduce, kVerifyFailed, kTimed},
    // At most half the draw's elements are non-zero: its sum of squares is not n.
    {"sampled", "reduce/cheat_sampled", kReduceSquares, kVerifyFailed, kTimed},
    {"sumsq_count", "reduce/cheat_sumsq_count", kReduceSquares, kVerifyFailed, kTimed},
    {"bf16_inside", "matmul/cheat_bf16_inside", kMatmul, kVerifyFailed, kTimed},
    {"ceiling_copy", "matmul/cheat_ceiling_copy", kMatmul, kVerifyFailed, kTimed},
    {"fingerprint_matmul", "matmul/cheat_fingerprint", kMatmul, kVerifyFailed, kUnpoisoned},
    {"random_order", "matmul/cheat_random_order", kMatmul, kVerifyFailed,
     "check 'deterministic' failed"},
    // A memo keyed by a digest of all the inputs passes every output check; the launch right
    // after the inputs changed in a few places recomputes, and takes far longer than the median.
    {"memo_matmul", "matmul/cheat_memo", kMatmul, kVerifyFailed, "check 'changed inputs' failed"},
    // The strategy writes through what it is handed, const only by type: it is handed copies.
    {"hidden_inputs", "reduce/cheat_hidden_inputs", kReduce, kVerifyFailed,
     "check 'inputs unchanged' failed"},
    // The family, its state and its code run in the referee process, which loads no strategy.
    {"rewires_referee", "transpose/cheat_rewires_referee", kTranspose, kVerifyFailed, kTimed},
    {"patches_check", "transpose/cheat_patches_check", kTranspose, kVerifyFailed, kTimed},
    // The worker's relocation tables stay as they were once its strategy is loaded: neither made
    // writable nor written through /proc/self/mem (the cheat works only where it rewrote one).
    {"scaled_clock", "transpose/cheat_scaled_clock", kTranspose, kVerifyFailed, kTimed},
    // Every operand sits between guard zones the referee reads after each check.
    {"writes_past_output", "reduce/cheat_writes_past_output", kReduce, kVerifyFailed,
     "check 'guard bytes' failed: a launch wrote 252 bytes after outputs[0] (offsets +0 to +251)"},
    // The worker compares the descriptor it loaded with the one the run planned from.
    {"renamed_in_worker", "transpose/cheat_renamed_in_worker", kTranspose, {"error"},
     "describes itself otherwise than when the run planned its cases"},
    // A quarter of the work on the call chain the timed samples come by: the launch on changed
    // inputs, timed as they are but from another caller, does all of it, 4x their median. On a
    // GPU that is caught; a host launch after a wait on the referee is allowed twice the median
    // and 200 us (its threads wake up), so on a host it mostly passes.
    {"call_chain", "transpose/cheat_call_chain", kTranspose, kVerifyFailed,
     "check 'changed inputs' failed",
     "a quarter of the work where the timed samples' call chain comes by (backtrace()): the "
     "launch on changed inputs does all of it, within a host launch's allowance after the "
     "referee's draw (twice the median and 200 us); every launch should reach run() from one "
     "call site (docs/red-team.md, 'What still escapes')"},
};

const std::vector<Cheat> kHonest = {
    {"honest_transpose", "transpose/redteam_honest", kTranspose, {"ok"}, ""},
    {"honest_reduce", "reduce/redteam_honest", kReduce, {"ok"}, ""},
    {"honest_matmul", "matmul/redteam_honest", kMatmul, {"ok"}, ""},
    // Slower for 10 ms once its inputs first change: a hold-up of the host, which the check's
    // spaced tries outlast (three tries a millisecond apart did not).
    {"honest_held_up", "transpose/redteam_held_up", kTranspose, {"ok"}, ""},
    // Adds into its output: the runner zeroes it before each launch (KB_FLAG_ZEROED_OUTPUTS).
    {"honest_reads_output", "transpose/redteam_reads_output", kTranspose, {"ok"}, ""},
};

class RedTeamHost : public testing::TestWithParam<Cheat> {};

TEST_P(RedTeamHost, CheatIsCaughtByItsCheck) { kbtest::red_team::expect_caught(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cheats, RedTeamHost, testing::ValuesIn(kCheats),
                         kbtest::red_team::case_name);

// Cheats the checks leave no trick: reduce/cheat_detect_check_draw estimates on inputs that look
// like the timed draw and sums honestly on the checks' draw; every reduce draw now looks alike, so
// it sums honestly on every launch (before: ok with its estimate, the timed draw uniform floats
// held to 2u(n+1) of sum |x|).
const std::vector<Cheat> kForcedHonest = {
    {"detect_check_draw", "reduce/cheat_detect_check_draw", kReduce, {"ok"}, ""},
};

class RedTeamHostForcedHonest : public testing::TestWithParam<Cheat> {};

TEST_P(RedTeamHostForcedHonest, CheatDoesTheWholeWork) {
  kbtest::red_team::expect_forced_honest(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Cheats, RedTeamHostForcedHonest, testing::ValuesIn(kForcedHonest),
                         kbtest::red_team::case_name);

class RedTeamHostControl : public testing::TestWithParam<Cheat> {};

TEST_P(RedTeamHostControl, HonestStrategyIsOk) { kbtest::red_team::expect_ok(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Honest, RedTeamHostControl, testing::ValuesIn(kHonest),
                         kbtest::red_team::case_name);

// A descriptor rewritten after load (another name, another hook) changes no later case: each is
// judged by the name and hook kbench validated (before: the first case caught, the second `ok` as
// transpose/copy).
TEST(RedTeamHostShapes, ARenamedDescriptorChangesNoLaterCase) {
  const auto run = kbtest::kbench({"run", "--plugins",
                                   kbtest::test_plugin_dir("cheats/renamed_after_load"), "--plugin",
                                   "transpose/cheat_renamed_after_load", "--sizes",
                                   "256x192,192x256", "--dtypes", "float32", "--max-time", "0.05"});
  ASSERT_EQ(run.rows.size(), 2u) << run.output << run.csv_error;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("plugin"), "transpose/cheat_renamed_after_load");
    EXPECT_EQ(row.at("status"), "verify_failed") << row.at("message");
    EXPECT_NE(row.at("message").find(kTimed), std::string::npos) << row.at("message");
  }
  EXPECT_EQ(run.exit_code, 1) << run.output;
}

// Honest where validate looks: small_only is `ok` on the family's check size, which is why its
// cheat needs the sweep's sizes to show.
TEST(RedTeamHostShapes, SmallOnlyIsHonestOnValidatesSize) {
  kbtest::red_team::expect_ok({"small_only", "transpose/cheat_small_only",
                               {"--sizes", "33x31", "--dtypes", "float32"}, {"ok"}, ""});
}

}  // namespace
