// The CUDA half of the red-team corpus (label gpu; each test skips without a device): the tricks
// only a device strategy can play, run by the real `kbench run`. What each should get is predicted
// from the checks (docs/red-team.md), to confirm on a GPU.
#include "red_team/red_team.hpp"

namespace {

using kbtest::red_team::Cheat;

const std::vector<Cheat> kCheats = {
    // Work on another stream: nothing for the events to time, nothing in the captured launch.
    {"private_stream", "transpose/cheat_private_stream",
     {"--sizes", "2048", "--dtypes", "float32"}, {"implausible", "verify_failed"}, "check"},
    // Half the rows while the stream is held: the checked samples are held too.
    {"stream_held", "transpose/cheat_stream_held", {"--sizes", "2048", "--dtypes", "float32"},
     {"verify_failed"}, "check 'timed launch' failed"},
    // Work only after a poison, decided on the device: the poisoned launch is far slower.
    {"poisoned_only_device", "transpose/cheat_poisoned_only_device",
     {"--sizes", "8192", "--dtypes", "float32"}, {"implausible"}, "poisoned-output check"},
    // The same where the transpose is short beside two empty kernels: the timing check's slack
    // (1.5x + 5 us) hides it.
    {"poisoned_only_device", "transpose/cheat_poisoned_only_device",
     {"--sizes", "1024", "--dtypes", "float32"}, {"implausible", "verify_failed"}, "check",
     "at 1024^2 the transpose takes a few microseconds, inside the poisoned-output check's slack, "
     "and every functional check poisons the output before the launch it checks"},
    // Work run ahead of the timer on an unheld private stream, joined back by an event; honest
    // under capture.
    {"private_stream_joined", "transpose/cheat_private_stream_joined",
     {"--sizes", "2048", "--dtypes", "float32"}, {"implausible"}, "check",
     "predicted: a held sample times only what is left of kernels that ran while the host "
     "enqueued them; the back-to-back time disagrees, but that self-check only writes a note"},
};

std::string gpu_case_name(const testing::TestParamInfo<Cheat>& info) {
  return info.param.stem + "_" + info.param.sweep[1];
}

class RedTeamGpu : public testing::TestWithParam<Cheat> {};

TEST_P(RedTeamGpu, CheatIsCaughtByItsCheck) {
  KBTEST_REQUIRE_GPU();
  kbtest::red_team::expect_caught(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Cheats, RedTeamGpu, testing::ValuesIn(kCheats), gpu_case_name);

}  // namespace
