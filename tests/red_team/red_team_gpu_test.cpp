// The CUDA half of the red-team corpus (label gpu; each test skips without a device): the tricks
// only a device strategy can play, run by the real `kbench run` (docs/red-team.md has the table).
#include "red_team/red_team.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace {

using kbtest::red_team::Cheat;

const std::vector<Cheat> kCheats = {
    // Work on another stream: nothing for the events to time, nothing in the captured launch.
    {"private_stream", "transpose/cheat_private_stream",
     {"--sizes", "2048", "--dtypes", "float32"}, {"implausible", "verify_failed"}, "check"},
    // Half the rows while the stream is held: the checked samples are held too.
    {"stream_held", "transpose/cheat_stream_held", {"--sizes", "2048", "--dtypes", "float32"},
     {"verify_failed"}, "check 'timed launch' failed"},
    // Work only after a poison, decided on the device: the verdict's last launch runs on new
    // inputs over an output it did not poison. (Without that check: implausible from the
    // poisoned-output check at 8192^2, where the poisoned launch is far slower than two empty
    // kernels, and `ok` at 1024^2, inside that check's slack of 1.5x + 5 us.)
    {"poisoned_only_device", "transpose/cheat_poisoned_only_device",
     {"--sizes", "8192", "--dtypes", "float32"}, {"verify_failed"},
     "check 'unpoisoned launch' failed"},
    {"poisoned_only_device", "transpose/cheat_poisoned_only_device",
     {"--sizes", "1024", "--dtypes", "float32"}, {"verify_failed"},
     "check 'unpoisoned launch' failed"},
    // A memo keyed by a digest of every input, on the device: only the launch on inputs changed
    // in a few places, timed as the held samples are, multiplies. (Its hits move 12 MB in about
    // 15 us; a multiply takes milliseconds.)
    {"memo_matmul_device", "matmul/cheat_memo_device", {"--sizes", "1024", "--dtypes", "float32"},
     {"verify_failed"}, "check 'changed inputs' failed"},
    // Work in the first launch of a burst only, told by the host time between calls, or by its
    // own kernel still pending: the samples of several launches beat a launch alone.
    // (Whichever sees it first: the launch on changed inputs, timed alone, against the samples'
    // median; or the samples of several launches against those of one.)
    {"first_of_burst", "transpose/cheat_first_of_burst", {"--sizes", "2048", "--dtypes", "float32"},
     {"verify_failed", "implausible"}, "did less"},
    {"pending_skip", "reduce/cheat_pending_skip",
     {"--sizes", "2^22", "--dtypes", "float32", "--ops", "sum"}, {"verify_failed", "implausible"},
     "did less"},
    // The events' clock slot rewritten: refused once the strategy is loaded.
    {"scaled_events", "transpose/cheat_scaled_events", {"--sizes", "2048", "--dtypes", "float32"},
     {"verify_failed"}, "check 'timed launch' failed"},
    // Work run ahead of the timer on an unheld private stream, joined back by an event; honest
    // under capture.
    {"private_stream_joined", "transpose/cheat_private_stream_joined",
     {"--sizes", "2048", "--dtypes", "float32"}, {"implausible"}, "check",
     "predicted: a held sample times only what is left of kernels that ran while the host "
     "enqueued them; the back-to-back time disagrees, but that self-check only writes a note"},
};

// The stem and the size, in the characters a test name may hold.
std::string gpu_case_name(const testing::TestParamInfo<Cheat>& info) {
  std::string name = info.param.stem + "_" + info.param.sweep[1];
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') ch = '_';
  }
  return name;
}

class RedTeamGpu : public testing::TestWithParam<Cheat> {};

TEST_P(RedTeamGpu, CheatIsCaughtByItsCheck) {
  KBTEST_REQUIRE_GPU();
  kbtest::red_team::expect_caught(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Cheats, RedTeamGpu, testing::ValuesIn(kCheats), gpu_case_name);

// Work on its own stream, waited for on the host inside run while the given stream is held: the
// case is timed as one that synchronises, at its honest time, and its row says why.
TEST(RedTeamGpuNeutralised, AHostWaitWhileHeldIsTimedAsASynchronisingLaunch) {
  KBTEST_REQUIRE_GPU();
  const kbtest::red_team::Cheat c{"waits_while_held", "transpose/cheat_waits_while_held",
                                  {"--sizes", "4096", "--dtypes", "float32"},
                                  {"ok"},
                                  ""};
  const kbtest::Run run = kbtest::red_team::run_alone(c);
  ASSERT_EQ(run.rows.size(), 1u) << run.output << run.csv_error;
  const kbtest::Row& row = run.rows.front();
  EXPECT_EQ(row.at("timing"), "plain") << row.at("message");
  EXPECT_NE(row.at("message").find("waits inside run"), std::string::npos) << row.at("message");
}

// Its input pinned in persisting L2, so that a --cold sample would read it warm. The runner
// resets the persisting lines before each cold sample, so the trick buys nothing: the row is `ok`
// and its rate stays under what DRAM delivers (H100: 1213 GB/s against a 2880 GB/s read).
TEST(RedTeamGpuNeutralised, PersistingL2GainsNothingInAColdSample) {
  KBTEST_REQUIRE_GPU();
  const kbtest::red_team::Cheat c{"l2_persist", "reduce/cheat_l2_persist",
                                  {"--sizes", "2^23", "--dtypes", "float32", "--ops", "sum",
                                   "--cold"},
                                  {"ok"},
                                  ""};
  const kbtest::Run run = kbtest::red_team::run_alone(c);
  ASSERT_EQ(run.rows.size(), 1u) << run.output << run.csv_error;
  const kbtest::Row& row = run.rows.front();
  EXPECT_EQ(row.at("status"), "ok") << row.at("message");
  EXPECT_LT(std::stod(row.at("gbps")),
            std::max(std::stod(row.at("read_gbps")), std::stod(row.at("copy_gbps"))))
      << run.output;
}

}  // namespace
